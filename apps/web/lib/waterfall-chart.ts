/**
 * Where a read row's latency goes (the harness's `waterfall`, stats/waterfall.ts): each engine's
 * p50 and p99 split into the harness's floor, the send queue, the engine's own time, the napi hop,
 * the HTTP service and the rest. The row page draws one stacked bar per engine for each quantile
 * (`waterfall-p50.svg`, `waterfall-p99.svg`: the two differ too much in size to share an axis) and
 * lists the same figures in a table. Pure: numbers and fixed words only.
 */
import type { TopLevelSpec } from 'vega-lite';
import { base, type ChartSize, ENGINES, type Engine, type Variant } from './charts';
import type { RowResult, SideMeasurement, Waterfall } from './definitions';

export type WaterfallPart = 'Floor' | 'Queue' | 'Engine' | 'napi hop' | 'HTTP service' | 'Rest';
export const WATERFALL_PARTS: readonly WaterfallPart[] = [
  'Floor',
  'Queue',
  'Engine',
  'napi hop',
  'HTTP service',
  'Rest',
];
export type Quantile = 'p50' | 'p99';
export const QUANTILES: readonly Quantile[] = ['p50', 'p99'];

const FIELD: Record<WaterfallPart, 'floorMs' | 'queueMs' | 'engineMs' | 'hopMs' | 'serviceMs' | 'restMs'> = {
  Floor: 'floorMs',
  Queue: 'queueMs',
  Engine: 'engineMs',
  'napi hop': 'hopMs',
  'HTTP service': 'serviceMs',
  Rest: 'restMs',
};

/**
 * Okabe–Ito colours (safe for common colour-vision deficiencies), leaving out the two the site
 * gives the engines (blue, reddish purple): the bars are per engine, and a blue part in the
 * baseline's bar would read as the candidate. The harness's own parts are greys, light and dark.
 */
export const PART_COLOUR: Record<WaterfallPart, string> = {
  Floor: '#9CA3AF',
  Queue: '#E69F00',
  Engine: '#D55E00',
  'napi hop': '#56B4E9',
  'HTTP service': '#009E73',
  Rest: '#6B7280',
};

const sideOf = (row: Pick<RowResult, 'candidate' | 'baseline'>, engine: Engine): SideMeasurement =>
  engine === 'Candidate' ? row.candidate : row.baseline;

/** An engine's waterfall at a quantile, when the run recorded one. */
export function waterfallOf(
  row: Pick<RowResult, 'candidate' | 'baseline'>,
  engine: Engine,
  quantile: Quantile,
): Waterfall | undefined {
  return sideOf(row, engine).waterfall?.[quantile];
}

/** A read row of a run that recorded where its latency goes (older cards did not). */
export function hasWaterfall(row: Pick<RowResult, 'unit' | 'candidate' | 'baseline'>): boolean {
  return row.unit === 'ms' && (row.candidate.waterfall !== undefined || row.baseline.waterfall !== undefined);
}

/** The parts a waterfall measured, in drawing order, signed (Rest can be below zero). */
export function waterfallParts(w: Waterfall): { part: WaterfallPart; ms: number }[] {
  return WATERFALL_PARTS.flatMap((part) => {
    const ms = w[FIELD[part]];
    return ms !== undefined && Number.isFinite(ms) ? [{ part, ms }] : [];
  });
}

/** The parts measured on either side at either quantile, in drawing order: the legend and the table's rows. */
export function partsOf(row: Pick<RowResult, 'candidate' | 'baseline'>): WaterfallPart[] {
  const present = new Set(
    ENGINES.flatMap((engine) =>
      QUANTILES.flatMap((q) => {
        const w = waterfallOf(row, engine, q);
        return w ? waterfallParts(w).map((p) => p.part) : [];
      }),
    ),
  );
  return WATERFALL_PARTS.filter((part) => present.has(part));
}

export interface WaterfallSegment {
  engine: Engine;
  part: WaterfallPart;
  /** Drawing order within the bar. */
  order: number;
  /** Where the segment starts and ends, ms from the bar's start. */
  from: number;
  to: number;
}

/**
 * One quantile's bars as segments laid end to end. A part below zero (Rest when an engine answers
 * faster than the floor's null server) cannot be drawn as a length: it takes no width, and the
 * table gives its value.
 */
export function waterfallSegments(
  row: Pick<RowResult, 'candidate' | 'baseline'>,
  quantile: Quantile,
): WaterfallSegment[] {
  return ENGINES.flatMap((engine) => {
    const w = waterfallOf(row, engine, quantile);
    if (!w) return [];
    let at = 0;
    return waterfallParts(w).flatMap(({ part, ms }) => {
      if (ms <= 0) return [];
      const segment = { engine, part, order: WATERFALL_PARTS.indexOf(part), from: at, to: at + ms };
      at += ms;
      return [segment];
    });
  });
}

/** A part's milliseconds to 3 decimals, a true minus sign below zero, never "-0.000". */
export function formatPartMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const text = Math.abs(ms).toFixed(3);
  return ms < 0 && Number(text) !== 0 ? `−${text}` : text;
}

export interface WaterfallTableRow {
  label: string;
  /** One cell per column: p50 candidate, p50 baseline, p99 candidate, p99 baseline. */
  cells: string[];
}

/** The columns of the table, in order. */
export const WATERFALL_COLUMNS: readonly { quantile: Quantile; engine: Engine }[] = QUANTILES.flatMap(
  (quantile) => ENGINES.map((engine) => ({ quantile, engine })),
);

/**
 * The table under the chart: the band's mean latency, each part measured on either side, and how
 * many requests the band averaged. An engine part from `took` is marked "≥": whole milliseconds
 * rounded down, so a lower bound.
 */
export function waterfallTable(row: Pick<RowResult, 'candidate' | 'baseline'>): WaterfallTableRow[] {
  const cell = (render: (w: Waterfall) => string) =>
    WATERFALL_COLUMNS.map(({ quantile, engine }) => {
      const w = waterfallOf(row, engine, quantile);
      return w ? render(w) : '—';
    });
  return [
    { label: 'Latency (band mean)', cells: cell((w) => formatPartMs(w.latencyMs)) },
    ...partsOf(row).map((part) => ({
      label: part,
      cells: cell((w) => {
        const value = formatPartMs(w[FIELD[part]]);
        return part === 'Engine' && w.engineSource === 'took' && value !== '—' ? `≥ ${value}` : value;
      }),
    })),
    { label: 'Requests averaged', cells: cell((w) => w.samples.toLocaleString('en-US')) },
  ];
}

/** Either side's engine part came from `took` (whole milliseconds, rounded down). */
export function tookSides(row: Pick<RowResult, 'candidate' | 'baseline'>): Engine[] {
  return ENGINES.filter((engine) =>
    QUANTILES.some((q) => waterfallOf(row, engine, q)?.engineSource === 'took'),
  );
}

export function waterfallSize(variant: Variant): ChartSize {
  return variant === 'wide' ? { width: 680, height: 150 } : { width: 350, height: 200 };
}

export function waterfallSpec(
  data: readonly WaterfallSegment[],
  quantile: Quantile,
  parts: readonly WaterfallPart[],
  variant: Variant,
  description: string,
): TopLevelSpec {
  const spec = base(waterfallSize(variant), description);
  // An engine without a waterfall (unsupported, no samples) gets no empty row.
  const engines = ENGINES.filter((engine) => data.some((d) => d.engine === engine));
  return {
    ...spec,
    config: {
      ...spec.config,
      // Narrow: the legend under the plot in two columns, read across: Floor, Queue, Engine, ...
      legend: { ...spec.config.legend, ...(variant === 'narrow' ? { columns: 2, columnPadding: 16 } : {}) },
    },
    title: {
      text: quantile,
      anchor: 'start',
      fontSize: 13,
      fontWeight: 600,
      color: '#374151',
      offset: 4,
    },
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: 'bar', stroke: '#ffffff', strokeWidth: 1 },
    encoding: {
      y: {
        field: 'engine',
        type: 'nominal',
        title: null,
        sort: engines,
        // One bar alone keeps the thickness it has beside another.
        scale: { domain: engines, paddingInner: 0.3, paddingOuter: engines.length === 1 ? 0.6 : 0.15 },
        axis: { ticks: false, domain: false, labelFontSize: 11, labelPadding: 6 },
      },
      x: {
        field: 'from',
        type: 'quantitative',
        title: variant === 'wide' ? `Milliseconds (mean over the requests around the ${quantile})` : 'ms',
        scale: { zero: true, nice: true },
        axis: { format: '~g', grid: true, tickCount: variant === 'wide' ? 8 : 4 },
      },
      x2: { field: 'to' },
      color: {
        field: 'part',
        type: 'nominal',
        title: 'Part',
        scale: { domain: [...parts], range: parts.map((part) => PART_COLOUR[part]) },
        legend: variant === 'narrow' ? { title: null, direction: 'horizontal' } : {},
      },
      order: { field: 'order', type: 'quantitative' },
    },
  };
}
