/**
 * Which chart files a page shows, and how each is drawn. A page lists the charts (name, text
 * alternative, size) without drawing them; the route handler next to it draws the one asked for
 * (`<name>.svg`, `<name>.narrow.svg`). Both read the same list, so a page never points at a chart
 * that is not exported. Pure apart from the data it is given.
 */
import type { TopLevelSpec } from 'vega-lite';
import {
  type ChartSize,
  type EngineDatum,
  enginesSpec,
  type RatioDatum,
  ratiosSize,
  ratiosSpec,
  type TrendDatum,
  trendSize,
  trendSpec,
  VARIANTS,
  type Variant,
} from './charts';
import { costCurveData, costCurveSpec } from './cost-curve-chart';
import type { RowResult, Scorecard, TrendPoint } from './definitions';
import { ratioDefinition, scoredPercentile } from './headline';
import {
  drillSize,
  ecdfData,
  ecdfSpec,
  scalingSpec,
  sweepData,
  sweepSpec,
  timelineData,
  timelineSpec,
} from './latency-charts';
import { VERDICT_ORDER } from './prepare';
import { ingestScaling, scalingData } from './throughput';
import { partsOf, QUANTILES, waterfallSegments, waterfallSize, waterfallSpec } from './waterfall-chart';

export interface ChartFile {
  /** File name without extension: "trend", "sweep-term". */
  name: string;
  /** The text alternative: what the chart shows, in words. */
  alt: string;
  size: (variant: Variant) => ChartSize;
  spec: (variant: Variant) => TopLevelSpec;
}

/** "trend.svg" and "trend.narrow.svg" for each chart. */
export function chartFileNames(charts: readonly ChartFile[]): string[] {
  return charts.flatMap((chart) => VARIANTS.map((variant) => chartFileName(chart.name, variant)));
}

export function chartFileName(name: string, variant: Variant): string {
  return variant === 'wide' ? `${name}.svg` : `${name}.narrow.svg`;
}

/** The chart a file name asks for, or undefined. */
export function findChart(
  charts: readonly ChartFile[],
  file: string,
): { chart: ChartFile; variant: Variant } | undefined {
  for (const chart of charts) {
    for (const variant of VARIANTS) {
      if (chartFileName(chart.name, variant) === file) return { chart, variant };
    }
  }
  return undefined;
}

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** Axis labels "21 Nov\nc4a7b19", unique per run (a second run of the same commit that day gets "#2"). */
export function runLabels(points: readonly Pick<TrendPoint, 'createdAt' | 'gitRevision'>[]): string[] {
  const seen = new Map<string, number>();
  return points.map((point) => {
    const label = `${day.format(new Date(point.createdAt))}\n${point.gitRevision.slice(0, 7)}`;
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    return count === 1 ? label : `${label} #${count}`;
  });
}

/** A jump: the ratio moved by 25% or more from the previous run with a ratio, and the intervals do not overlap. */
export function isJump(previous: TrendPoint | undefined, point: TrendPoint): boolean {
  if (previous?.ratio === undefined || point.ratio === undefined) return false;
  const factor = Math.max(point.ratio / previous.ratio, previous.ratio / point.ratio);
  if (factor < 1.25) return false;
  const [low, high] = [point.ciLow ?? point.ratio, point.ciHigh ?? point.ratio];
  const [pLow, pHigh] = [previous.ciLow ?? previous.ratio, previous.ciHigh ?? previous.ratio];
  return high < pLow || low > pHigh;
}

/** Points with a ratio, labelled, with jumps marked. N/A runs are listed in the table instead. */
export function trendData(points: readonly TrendPoint[]): TrendDatum[] {
  const labels = runLabels(points);
  let previous: TrendPoint | undefined;
  return points.flatMap((point, order) => {
    if (point.ratio === undefined || !Number.isFinite(point.ratio)) return [];
    if (!VERDICT_ORDER.includes(point.verdict)) return [];
    const datum: TrendDatum = {
      order,
      label: labels[order] as string,
      commit: point.gitRevision.slice(0, 7),
      verdict: point.verdict,
      ratio: point.ratio,
      ciLow: point.ciLow ?? point.ratio,
      ciHigh: point.ciHigh ?? point.ratio,
      jump: isJump(previous, point),
    };
    previous = point;
    return [datum];
  });
}

export function engineData(points: readonly TrendPoint[]): EngineDatum[] {
  const labels = runLabels(points);
  return points.flatMap((point, order) =>
    (['Candidate', 'Baseline'] as const).flatMap((engine) => {
      const value = engine === 'Candidate' ? point.candidate : point.baseline;
      return value !== undefined && value > 0 && Number.isFinite(value)
        ? [{ order, label: labels[order] as string, engine, value }]
        : [];
    }),
  );
}

function unitTitle(row: Pick<RowResult, 'unit' | 'group'>): string {
  switch (row.unit) {
    case 'ms':
      return `${scoredPercentile(row)} latency (ms, log scale)`;
    case 'docs/s':
      return 'Documents per second';
    case 'bytes':
      return 'Bytes';
    case 'recall':
      return 'Recall@10';
    case 'req/s':
      return 'Sustained requests/s';
  }
}

/**
 * The row page's charts: its ratio per run, each engine's own number per run, the latest run's
 * latency and where it goes (when that run recorded it), and, when that run carries a cost curve
 * (`card`), the row's cost against corpus size.
 */
export function rowCharts(
  row: RowResult,
  points: readonly TrendPoint[],
  card?: Pick<Scorecard, 'costCurve'>,
): ChartFile[] {
  const charts: ChartFile[] = [];
  const trend = trendData(points);
  if (trend.length > 0) {
    const alt = `Ratio of ${row.id} in each run of this comparable set, with its confidence interval as an error bar and a dashed line at 1 (${ratioDefinition(row)}).`;
    charts.push({ name: 'trend', alt, size: trendSize, spec: (v) => trendSpec(trend, v, alt) });
  }
  const engines = engineData(points);
  if (engines.length > 0) {
    const alt = `Each engine's own ${unitTitle(row).toLowerCase()} in each run of this comparable set.`;
    charts.push({
      name: 'engines',
      alt,
      size: trendSize,
      spec: (v) => enginesSpec(engines, v, unitTitle(row), row.unit === 'ms' || row.unit === 'bytes', alt),
    });
  }
  if (row.unit === 'ms') {
    const ecdf = ecdfData(row);
    if (ecdf.length > 0) {
      const alt =
        'Latency distribution of both engines in the latest run: share of requests (y) answered within a latency (x, log scale).';
      charts.push({ name: 'ecdf', alt, size: drillSize, spec: (v) => ecdfSpec(ecdf, v, alt) });
    }
    const timeline = timelineData(row);
    if (timeline.length > 0) {
      const alt =
        'Latency over the timed phase of the latest run: p50 (solid) and p99 (dashed) per time bin for both engines.';
      charts.push({ name: 'timeline', alt, size: drillSize, spec: (v) => timelineSpec(timeline, v, alt) });
    }
    const parts = partsOf(row);
    for (const quantile of QUANTILES) {
      const segments = waterfallSegments(row, quantile);
      if (segments.length === 0) continue;
      const alt = `Where each engine's ${quantile} latency goes: one bar per engine, split into ${parts.join(', ')}; the table below gives each part in milliseconds.`;
      charts.push({
        name: `waterfall-${quantile}`,
        alt,
        size: waterfallSize,
        spec: (v) => waterfallSpec(segments, quantile, parts, v, alt),
      });
    }
    const cost = card ? costCurveData(card, row.id) : [];
    if (new Set(cost.map((d) => d.docs)).size > 1) {
      const alt =
        "Each engine's p50 (solid) and engine CPU per request (dashed) against the number of documents in the corpus, both on log scales.";
      charts.push({ name: 'cost', alt, size: drillSize, spec: (v) => costCurveSpec(cost, v, alt) });
    }
  }
  return charts;
}

/** Every row of a run with a ratio, best first. */
export function ratioData(card: Scorecard): RatioDatum[] {
  return card.rows
    .flatMap((row) =>
      row.ratio === undefined || !Number.isFinite(row.ratio) || row.ratio <= 0
        ? []
        : [
            {
              row: row.id,
              verdict: row.verdict,
              ratio: row.ratio,
              ciLow: row.ci?.[0] ?? row.ratio,
              ciHigh: row.ci?.[1] ?? row.ratio,
              order: 0,
            },
          ],
    )
    .sort((a, b) => b.ratio - a.ratio || a.row.localeCompare(b.row))
    .map((datum, order) => ({ ...datum, order }));
}

/** A set's newest run's charts: every row's ratio; the ingest scaling curve; one chart per rate sweep. */
export function setCharts(card: Scorecard): ChartFile[] {
  const charts: ChartFile[] = [];
  const ratios = ratioData(card);
  if (ratios.length > 0) {
    const alt = `Every row of the run with a ratio, sorted from the best ratio to the worst, on a log scale: a dot per row, its confidence interval as a bar, a dashed line at 1; above 1 the candidate is better.`;
    charts.push({
      name: 'ratios',
      alt,
      size: (v) => ratiosSize(ratios.length, v),
      spec: (v) => ratiosSpec(ratios, v, alt),
    });
  }
  const scaling = scalingData(ingestScaling(card));
  if (ingestScaling(card).length > 1 && scaling.length > 0) {
    const alt =
      'Ingest throughput (documents per second) of both engines against the number of bulk clients.';
    charts.push({ name: 'scaling', alt, size: drillSize, spec: (v) => scalingSpec(scaling, v, alt) });
  }
  for (const sweep of card.sweeps ?? []) {
    const row = card.rows.find((candidate) => candidate.id === sweep.rowId);
    const data = sweepData(sweep, { candidate: row?.candidate.value, baseline: row?.baseline.value });
    if (data.length === 0) continue;
    const alt = `Latency (p50 solid, p99 dashed) of both engines against the offered request rate, ${sweep.family}; circles were sustained; crosses (p99 over the ${sweep.p99BoundMs} ms bound), triangles (the engine fell behind the offered rate) and diamonds (too many failed or dropped requests) were disqualified.`;
    charts.push({
      name: `sweep-${sweep.family.replace(/[^\w-]+/g, '_')}`,
      alt,
      size: drillSize,
      spec: (v) => sweepSpec(data, sweep.p99BoundMs, v, alt),
    });
  }
  return charts;
}
