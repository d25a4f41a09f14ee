/**
 * The trend chart of one row: a Vega-Lite spec built from history points (pure), rendered to
 * SVG on the server at build time so the chart is in the static HTML and needs no JavaScript.
 *
 * Only numbers, dates and verdicts from a closed set reach the chart; row titles and reasons
 * stay in the HTML around it, where React escapes them. Vega escapes its own text output too.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { TrendPoint, Verdict } from './definitions';
import { VERDICT_ORDER } from './prepare';

/** Okabe–Ito colours (safe for common colour-vision deficiencies); shapes repeat the verdict. */
export const VERDICT_COLOUR: Record<Verdict, string> = {
  WIN: '#009E73',
  LOSE: '#D55E00',
  TIE: '#6B7280',
  'N/A': '#E69F00',
};
const VERDICT_SHAPE: Record<Verdict, string> = {
  WIN: 'triangle-up',
  LOSE: 'triangle-down',
  TIE: 'circle',
  'N/A': 'diamond',
};
const BAND_COLOUR = '#0072B2';

export interface ChartDatum {
  /** Unique x label, oldest run first: "#3 · 21 Nov". */
  run: string;
  order: number;
  verdict: Verdict;
  ratio: number;
  ciLow: number;
  ciHigh: number;
}

/** Points that have a ratio become chart data; N/A runs are listed in the table instead. */
export function chartData(points: readonly TrendPoint[]): ChartDatum[] {
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return points.flatMap((point, index) => {
    if (point.ratio === undefined || !Number.isFinite(point.ratio)) return [];
    if (!VERDICT_ORDER.includes(point.verdict)) return [];
    return [
      {
        run: `#${index + 1} · ${day.format(new Date(point.createdAt))}`,
        order: index,
        verdict: point.verdict,
        ratio: point.ratio,
        ciLow: point.ciLow ?? point.ratio,
        ciHigh: point.ciHigh ?? point.ratio,
      },
    ];
  });
}

/** Log-scale domain that always shows the 1× line, padded so marks do not touch the edges. */
export function ratioDomain(data: readonly ChartDatum[]): [number, number] {
  const values = data.flatMap((d) => [d.ratio, d.ciLow, d.ciHigh]).filter((v) => v > 0);
  const low = Math.min(1, ...values);
  const high = Math.max(1, ...values);
  return [low / 1.25, high * 1.25];
}

export function trendSpec(data: readonly ChartDatum[], description: string): TopLevelSpec {
  const x = {
    field: 'run',
    type: 'ordinal' as const,
    sort: { field: 'order' },
    title: 'Run (oldest → newest)',
    axis: { labelAngle: 0, labelPadding: 6 },
  };
  const y = {
    type: 'quantitative' as const,
    scale: { type: 'log' as const, domain: ratioDomain(data), nice: false },
    axis: { format: '.2~f', grid: true, tickCount: 6 },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description,
    width: 640,
    height: 260,
    background: '#ffffff',
    padding: 8,
    config: {
      font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      axis: { labelColor: '#374151', titleColor: '#374151', titleFontWeight: 600, domainColor: '#9CA3AF' },
      legend: { labelColor: '#374151', titleColor: '#374151' },
      view: { stroke: null },
    },
    data: { values: data.map((d) => ({ ...d })) },
    layer: [
      {
        mark: { type: 'area', color: BAND_COLOUR, opacity: 0.14, interpolate: 'monotone' },
        encoding: {
          x,
          y: { ...y, field: 'ciLow', title: 'Ratio (> 1 = candidate better)' },
          y2: { field: 'ciHigh' },
        },
      },
      {
        mark: { type: 'rule', color: BAND_COLOUR, strokeWidth: 2, opacity: 0.55 },
        encoding: { x, y: { ...y, field: 'ciLow' }, y2: { field: 'ciHigh' } },
      },
      {
        data: { values: [{ parity: 1, label: '1× parity' }] },
        layer: [
          {
            mark: { type: 'rule', color: '#374151', strokeDash: [5, 4], strokeWidth: 1.25 },
            encoding: { y: { ...y, field: 'parity' } },
          },
          {
            mark: {
              type: 'text',
              align: 'right',
              baseline: 'bottom',
              dx: -4,
              dy: -3,
              color: '#374151',
              x: 'width',
            },
            encoding: { y: { ...y, field: 'parity' }, text: { field: 'label' } },
          },
        ],
      },
      {
        mark: { type: 'line', color: BAND_COLOUR, strokeWidth: 2 },
        encoding: { x, y: { ...y, field: 'ratio' } },
      },
      {
        mark: { type: 'point', filled: true, size: 110, opacity: 1, stroke: '#ffffff', strokeWidth: 1 },
        encoding: {
          x,
          y: { ...y, field: 'ratio' },
          color: {
            field: 'verdict',
            type: 'nominal',
            title: 'Verdict',
            scale: { domain: [...VERDICT_ORDER], range: VERDICT_ORDER.map((v) => VERDICT_COLOUR[v]) },
          },
          shape: {
            field: 'verdict',
            type: 'nominal',
            title: 'Verdict',
            scale: { domain: [...VERDICT_ORDER], range: VERDICT_ORDER.map((v) => VERDICT_SHAPE[v]) },
          },
        },
      },
    ],
  };
}

/** Compiles and renders headlessly: vega's SVG renderer estimates text widths, so no canvas is needed. */
export async function renderSpecSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export function renderTrendSvg(data: readonly ChartDatum[], description: string): Promise<string> {
  return renderSpecSvg(trendSpec(data, description));
}
