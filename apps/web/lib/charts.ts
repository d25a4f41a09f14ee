/**
 * The site's charts as Vega-Lite specs built from numbers, dates, commits, row ids and fixed
 * words (pure), rendered to SVG files at build time (renderSpecSvg) and shown with <img>, so the
 * HTML stays light and no chart is markup in the page. Each chart comes in two widths, picked by
 * the browser with <picture>: `wide` for screens and `narrow` for phones, both with a fixed total
 * size (autosize fit), so the page reserves the space before the image loads.
 *
 * Vega escapes its own text output; row titles and reasons stay in the HTML around the charts.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Verdict } from './definitions';
import { VERDICT_ORDER } from './prepare';

export type Variant = 'wide' | 'narrow';
export const VARIANTS: readonly Variant[] = ['wide', 'narrow'];

export interface ChartSize {
  width: number;
  height: number;
}

/** Okabe–Ito colours (safe for common colour-vision deficiencies); shapes repeat the verdict. */
export const VERDICT_COLOUR: Record<Verdict, string> = {
  WIN: '#009E73',
  LOSE: '#D55E00',
  TIE: '#6B7280',
  'N/A': '#E69F00',
};
export const VERDICT_SHAPE: Record<Verdict, string> = {
  WIN: 'triangle-up',
  LOSE: 'triangle-down',
  TIE: 'circle',
  'N/A': 'diamond',
};
export const ENGINE_COLOUR = { Candidate: '#0072B2', Baseline: '#CC79A7' } as const;
export type Engine = keyof typeof ENGINE_COLOUR;
export const ENGINES: readonly Engine[] = ['Candidate', 'Baseline'];
const INK = '#374151';

export function base(size: ChartSize, description: string) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description,
    width: size.width,
    height: size.height,
    autosize: { type: 'fit' as const, contains: 'padding' as const },
    background: '#ffffff',
    padding: 6,
    config: {
      // The chart is an <img> with its own text alternative: no per-mark ARIA text in the file.
      aria: false,
      font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      axis: {
        labelColor: INK,
        titleColor: INK,
        titleFontWeight: 600 as const,
        domainColor: '#9CA3AF',
        labelFontSize: 11,
        titleFontSize: 12,
      },
      // Wide: legends in a column on the right. Narrow: one legend under the plot (the narrow
      // drawings leave the others out; the caption beside each chart says what they said).
      legend: {
        labelColor: INK,
        titleColor: INK,
        orient: size.width >= 500 ? ('right' as const) : ('bottom' as const),
        labelFontSize: 11,
        titleFontSize: 11,
      },
      view: { stroke: null },
    },
  };
}

export const verdictColour = {
  field: 'verdict',
  type: 'nominal' as const,
  title: 'Verdict',
  scale: { domain: [...VERDICT_ORDER], range: VERDICT_ORDER.map((v) => VERDICT_COLOUR[v]) },
};
export const verdictShape = {
  field: 'verdict',
  type: 'nominal' as const,
  title: 'Verdict',
  scale: { domain: [...VERDICT_ORDER], range: VERDICT_ORDER.map((v) => VERDICT_SHAPE[v]) },
};
/**
 * A field of two values drawn solid and dashed, its legend swatches as lines so the two read as
 * line styles (p50 / p99, p50 / CPU per request).
 */
export function solidThenDashed(field: string, title: string, domain: readonly [string, string]) {
  return {
    field,
    type: 'nominal' as const,
    title,
    legend: { symbolType: 'stroke', symbolStrokeWidth: 2, symbolStrokeColor: INK, symbolSize: 260 },
    scale: {
      domain: [...domain],
      range: [
        [1, 0],
        [6, 4],
      ],
    },
  };
}

export const engineColour = {
  field: 'engine',
  type: 'nominal' as const,
  title: 'Engine',
  scale: { domain: [...ENGINES], range: ENGINES.map((e) => ENGINE_COLOUR[e]) },
};

/** Log-scale domain that always shows the 1x line, padded so marks do not touch the edges. */
export function ratioDomain(values: readonly number[]): [number, number] {
  const usable = values.filter((v) => v > 0 && Number.isFinite(v));
  const low = Math.min(1, ...usable);
  const high = Math.max(1, ...usable);
  return [low / 1.2, high * 1.2];
}

// ---------------------------------------------------------------------------------------------
// Every row of a run: a sorted dot-and-interval chart on a log scale (ClickBench-style).

export interface RatioDatum {
  /** Row id: short, and from the scorecard, so vega escapes it as text. */
  row: string;
  verdict: Verdict;
  ratio: number;
  ciLow: number;
  ciHigh: number;
  order: number;
}

export function ratiosSize(rows: number, variant: Variant): ChartSize {
  return { width: variant === 'wide' ? 960 : 350, height: 90 + rows * 15 };
}

export function ratiosSpec(data: readonly RatioDatum[], variant: Variant, description: string): TopLevelSpec {
  const domain = ratioDomain(data.flatMap((d) => [d.ratio, d.ciLow, d.ciHigh]));
  const title = variant === 'wide' ? 'Ratio, log scale (above 1: candidate better)' : 'Ratio, log scale';
  const axis = { format: '~g', grid: true, tickCount: variant === 'wide' ? 8 : 4 };
  const x = { type: 'quantitative' as const, scale: { type: 'log' as const, domain, nice: false } };
  const y = {
    field: 'row',
    type: 'ordinal' as const,
    sort: { field: 'order' },
    title: null,
    axis: {
      labelLimit: variant === 'wide' ? 300 : 165,
      labelFontSize: variant === 'wide' ? 10.5 : 9,
      ticks: false,
      domain: false,
    },
  };
  return {
    ...base(ratiosSize(data.length, variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    resolve: { axis: { x: 'independent' } },
    layer: [
      {
        // The scale on top as well as at the bottom: the chart is taller than a screen.
        data: { values: [{ parity: 1 }] },
        mark: { type: 'rule', color: INK, strokeDash: [4, 3] },
        encoding: { x: { ...x, field: 'parity', title, axis: { ...axis, orient: 'top' as const } } },
      },
      {
        mark: { type: 'rule', strokeWidth: 2, opacity: 0.6 },
        encoding: {
          y,
          x: { ...x, field: 'ciLow', title, axis: { ...axis, orient: 'bottom' as const } },
          x2: { field: 'ciHigh' },
          color: { ...verdictColour, legend: null },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 46, opacity: 1 },
        encoding: { y, x: { ...x, field: 'ratio', axis: null }, color: verdictColour, shape: verdictShape },
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// One row across the runs of its comparable set.

export interface TrendDatum {
  /** The run's position, oldest first. */
  order: number;
  /** Axis label, unique per run: "21 Nov\nc4a7b19". */
  label: string;
  commit: string;
  verdict: Verdict;
  ratio: number;
  ciLow: number;
  ciHigh: number;
  /** The ratio moved by 25% or more from the previous run with a ratio, beyond both intervals. */
  jump: boolean;
}

export interface EngineDatum {
  order: number;
  label: string;
  engine: Engine;
  value: number;
}

export function trendSize(variant: Variant): ChartSize {
  return variant === 'wide' ? { width: 560, height: 300 } : { width: 350, height: 300 };
}

function runAxis(variant: Variant) {
  return {
    field: 'label',
    type: 'ordinal' as const,
    sort: { field: 'order' },
    title: null,
    axis: {
      // "21 Nov\nc4a7b19" as two lines; labels that would overlap are dropped (every other, then more).
      labelExpr: "split(datum.label, '\\n')",
      labelAngle: 0,
      labelOverlap: 'greedy' as const,
      labelSeparation: variant === 'wide' ? 6 : 4,
      labelFontSize: 10,
    },
  };
}

export function trendSpec(data: readonly TrendDatum[], variant: Variant, description: string): TopLevelSpec {
  const domain = ratioDomain(data.flatMap((d) => [d.ratio, d.ciLow, d.ciHigh]));
  const x = runAxis(variant);
  const y = {
    type: 'quantitative' as const,
    scale: { type: 'log' as const, domain, nice: false },
    axis: { format: '~g', grid: true, tickCount: 6 },
  };
  const xWithLabels = x;
  return {
    ...base(trendSize(variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    layer: [
      {
        data: { values: [{ parity: 1 }] },
        mark: { type: 'rule', color: INK, strokeDash: [5, 4], strokeWidth: 1.25 },
        encoding: { y: { ...y, field: 'parity' } },
      },
      {
        // One error bar per run (its own interval, at that run's level): no line is drawn between runs.
        mark: { type: 'rule', strokeWidth: 2, opacity: 0.65 },
        encoding: {
          x: xWithLabels,
          y: {
            ...y,
            field: 'ciLow',
            title: variant === 'wide' ? 'Ratio, log scale (above 1: candidate better)' : 'Ratio (log scale)',
          },
          y2: { field: 'ciHigh' },
          color: { ...verdictColour, legend: null },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 70, opacity: 1, stroke: '#ffffff', strokeWidth: 1 },
        encoding: { x: xWithLabels, y: { ...y, field: 'ratio' }, color: verdictColour, shape: verdictShape },
      },
      {
        // The commit behind a jump, written above its run.
        transform: [{ filter: 'datum.jump' }],
        mark: { type: 'text', dy: -14, fontSize: 10, fontWeight: 600, color: INK },
        encoding: { x: xWithLabels, y: { ...y, field: 'ciHigh' }, text: { field: 'commit' } },
      },
    ],
  };
}

export function enginesSpec(
  data: readonly EngineDatum[],
  variant: Variant,
  yTitle: string,
  logScale: boolean,
  description: string,
): TopLevelSpec {
  const x = runAxis(variant);
  return {
    ...base(trendSize(variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: 'line', strokeWidth: 2, point: { filled: true, size: 40 } },
    encoding: {
      x,
      y: {
        field: 'value',
        type: 'quantitative',
        title: yTitle,
        scale: logScale ? { type: 'log', nice: false } : { zero: false },
        axis: { format: '~s', grid: true, tickCount: 6 },
      },
      color: engineColour,
      shape: {
        field: 'engine',
        type: 'nominal',
        title: 'Engine',
        scale: { domain: [...ENGINES], range: ['circle', 'square'] },
      },
    },
  };
}

/**
 * Path data and transforms to a tenth of a pixel (vega writes up to 14 digits): a third of the
 * file size, no visible change. Text is left as it is.
 */
export function compactSvg(svg: string): string {
  const round = (text: string) => text.replace(/(-?\d+\.\d)\d+/g, '$1');
  return svg.replace(
    / (d|transform|points)="([^"]*)"/g,
    (_all, name: string, value: string) => ` ${name}="${round(value)}"`,
  );
}

/** Compiles and renders headlessly: vega's SVG renderer estimates text widths, so no canvas is needed. */
export async function renderSpecSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return compactSvg(await view.toSVG());
  } finally {
    view.finalize();
  }
}
