/**
 * The drill-down charts of a row and of the throughput page, as Vega-Lite specs built from a row's
 * sides (pure), rendered to SVG files by renderSpecSvg (lib/charts.ts):
 * - the latency distribution of both engines (the ECDF the harness stores, log-scale latency);
 * - latency over the timed phase (p50 and p99 per time bin), where merge and flush stalls show;
 * - latency against offered rate (the rate sweep), each point marked sustained or disqualified;
 * - ingest throughput against client count.
 * Only numbers and fixed words ("Candidate", "p99", "sustained", ...) reach the charts.
 */
import type { TopLevelSpec } from 'vega-lite';
import {
  base,
  type ChartSize,
  ENGINES,
  type Engine,
  engineColour,
  solidThenDashed,
  type Variant,
} from './charts';
import type { RowResult, Sweep } from './definitions';

export function drillSize(variant: Variant): ChartSize {
  return variant === 'wide' ? { width: 680, height: 300 } : { width: 350, height: 340 };
}

/** The narrow drawings keep only the engine legend (see base() in charts.ts). */
export function only<T extends object>(variant: Variant, encoding: T): T {
  return variant === 'narrow' ? { ...encoding, legend: null } : encoding;
}

const percentileDash = solidThenDashed('stat', 'Percentile', ['p50', 'p99']);

export interface EcdfDatum {
  engine: Engine;
  ms: number;
  /** Share of requests at or below ms, 0..1. */
  q: number;
}

/** Both sides' ECDF points; points at or below 0 ms cannot sit on a log axis and are dropped. */
export function ecdfData(row: Pick<RowResult, 'candidate' | 'baseline'>): EcdfDatum[] {
  return ENGINES.flatMap((engine) => {
    const ecdf = (engine === 'Candidate' ? row.candidate : row.baseline).ecdf;
    if (!ecdf) return [];
    return ecdf.q.flatMap((q, i) => {
      const ms = ecdf.ms[i];
      return ms !== undefined && ms > 0 && Number.isFinite(ms) && q >= 0 && q <= 1 ? [{ engine, ms, q }] : [];
    });
  });
}

export function ecdfSpec(data: readonly EcdfDatum[], variant: Variant, description: string): TopLevelSpec {
  return {
    ...base(drillSize(variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2, point: { size: 28, filled: true } },
    encoding: {
      x: {
        field: 'ms',
        type: 'quantitative',
        title: 'Latency from intended send (ms, log scale)',
        scale: { type: 'log', nice: false },
        axis: { format: '~g', grid: true },
      },
      y: {
        field: 'q',
        type: 'quantitative',
        title: 'Share of requests at or below',
        scale: { domain: [0, 1] },
        axis: { format: '.0%', grid: true },
      },
      color: engineColour,
      shape: {
        field: 'engine',
        type: 'nominal',
        title: 'Engine',
        scale: { domain: [...ENGINES], range: ['circle', 'square'] },
      },
      order: { field: 'q', type: 'quantitative' },
    },
  };
}

export interface TimelineDatum {
  engine: Engine;
  stat: 'p50' | 'p99';
  /** Seconds from the first intended send, at the bin's start. */
  t: number;
  ms: number;
  /** "Candidate p99": one line per engine and statistic. */
  series: string;
}

/** p50 and p99 per time bin for both sides; empty bins (count 0) are skipped, not drawn as 0. */
export function timelineData(row: Pick<RowResult, 'candidate' | 'baseline'>): TimelineDatum[] {
  return ENGINES.flatMap((engine) => {
    const timeline = (engine === 'Candidate' ? row.candidate : row.baseline).timeline;
    if (!timeline) return [];
    return timeline.count.flatMap((count, i) => {
      if (count === 0) return [];
      const t = (i * timeline.binMs) / 1000;
      return (['p50', 'p99'] as const).flatMap((stat) => {
        const ms = timeline[stat][i];
        return ms !== undefined && Number.isFinite(ms)
          ? [{ engine, stat, t, ms, series: `${engine} ${stat}` }]
          : [];
      });
    });
  });
}

export function timelineSpec(
  data: readonly TimelineDatum[],
  variant: Variant,
  description: string,
): TopLevelSpec {
  return {
    ...base(drillSize(variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: 'line', strokeWidth: 2 },
    encoding: {
      x: { field: 't', type: 'quantitative', title: 'Time into the timed phase (s)', axis: { grid: true } },
      y: {
        field: 'ms',
        type: 'quantitative',
        title: 'Latency (ms, log scale)',
        scale: { type: 'log', nice: false },
        axis: { format: '~g', grid: true },
      },
      color: engineColour,
      strokeDash: only(variant, percentileDash),
      detail: { field: 'series', type: 'nominal' },
    },
  };
}

/** Why a sweep point does or does not count toward an engine's capacity (the harness's rule). */
export type PointStatus = 'sustained' | 'p99 over the bound' | 'fell behind' | 'too many failed or dropped';
export const POINT_STATUSES: readonly PointStatus[] = [
  'sustained',
  'p99 over the bound',
  'fell behind',
  'too many failed or dropped',
];

/**
 * The harness's rule (packages/harness/src/verdict/sweepRowResult.ts): a rate is sustained when at
 * least 95% of it was achieved, p99 stayed within the bound and at most the collapse share of its
 * requests failed or were dropped. The scorecard keeps the failed and dropped counts but not the
 * requests per point, so a point with any is judged against the engine's recorded capacity: above
 * it, the failures are what disqualified it.
 */
export function pointStatus(
  side: { p99: number | null; achievedRate: number; errors: number; dropped: number },
  offeredRate: number,
  boundMs: number,
  capacity?: number,
): PointStatus {
  if (side.achievedRate < 0.95 * offeredRate) return 'fell behind';
  if (side.p99 === null || !(side.p99 <= boundMs)) return 'p99 over the bound';
  if (side.errors + side.dropped > 0 && capacity !== undefined && offeredRate > capacity) {
    return 'too many failed or dropped';
  }
  return 'sustained';
}

export interface SweepDatum {
  engine: Engine;
  stat: 'p50' | 'p99';
  offeredRate: number;
  achievedRate: number;
  ms: number;
  series: string;
  status: PointStatus;
}

/** p50 and p99 of both engines at each offered rate of one family's sweep (capacity: the row's values). */
export function sweepData(
  sweep: Sweep,
  capacity: { candidate?: number; baseline?: number } = {},
): SweepDatum[] {
  return sweep.points.flatMap((point) =>
    ENGINES.flatMap((engine) => {
      const side = engine === 'Candidate' ? point.candidate : point.baseline;
      const status = pointStatus(
        side,
        point.offeredRate,
        sweep.p99BoundMs,
        engine === 'Candidate' ? capacity.candidate : capacity.baseline,
      );
      return (['p50', 'p99'] as const).flatMap((stat) => {
        const ms = side[stat];
        // A skipped rate (past the engine's knee) has no latency and is not drawn.
        return ms !== null && ms > 0 && point.offeredRate > 0
          ? [
              {
                engine,
                stat,
                offeredRate: point.offeredRate,
                achievedRate: side.achievedRate,
                ms,
                series: `${engine} ${stat}`,
                status,
              },
            ]
          : [];
      });
    }),
  );
}

export function sweepSpec(
  data: readonly SweepDatum[],
  boundMs: number,
  variant: Variant,
  description: string,
): TopLevelSpec {
  const x = {
    field: 'offeredRate',
    type: 'quantitative' as const,
    title: 'Offered rate (requests/s, log scale)',
    scale: { type: 'log' as const, nice: false },
    axis: { format: '~s', grid: true, tickCount: variant === 'wide' ? 8 : 4 },
  };
  const y = {
    type: 'quantitative' as const,
    scale: { type: 'log' as const, nice: false },
    axis: { format: '~g', grid: true },
  };
  return {
    ...base(drillSize(variant), description),
    layer: [
      {
        data: { values: data.map((d) => ({ ...d })) },
        layer: [
          {
            mark: { type: 'line', strokeWidth: 2 },
            encoding: {
              x,
              y: { ...y, field: 'ms', title: 'Latency (ms, log scale)' },
              color: engineColour,
              strokeDash: only(variant, percentileDash),
              detail: { field: 'series', type: 'nominal' },
            },
          },
          {
            // A circle counts toward capacity; a cross (p99 over the bound) or a triangle (fell behind) does not.
            mark: { type: 'point', size: 60, filled: true, opacity: 1 },
            encoding: {
              x,
              y: { ...y, field: 'ms' },
              color: engineColour,
              shape: only(variant, {
                field: 'status',
                type: 'nominal' as const,
                title: 'Point',
                scale: {
                  domain: [...POINT_STATUSES],
                  range: ['circle', 'cross', 'triangle-down', 'diamond'],
                },
              }),
            },
          },
        ],
      },
      {
        data: { values: [{ bound: boundMs, label: `p99 bound ${boundMs} ms` }] },
        layer: [
          {
            mark: { type: 'rule', color: '#374151', strokeDash: [2, 3] },
            encoding: { y: { ...y, field: 'bound' } },
          },
          {
            // Right-aligned inside the plot, clear of the y axis and its labels.
            mark: {
              type: 'text',
              align: 'right',
              baseline: 'bottom',
              dx: -4,
              dy: -3,
              color: '#374151',
              x: 'width',
            },
            encoding: { y: { ...y, field: 'bound' }, text: { field: 'label' } },
          },
        ],
      },
    ],
  };
}

export interface ScalingDatum {
  engine: Engine;
  clients: number;
  docsPerSec: number;
}

export function scalingSpec(
  data: readonly ScalingDatum[],
  variant: Variant,
  description: string,
): TopLevelSpec {
  return {
    ...base(drillSize(variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: 'line', strokeWidth: 2, point: { size: 40, filled: true } },
    encoding: {
      x: {
        field: 'clients',
        type: 'quantitative',
        title: 'Concurrent bulk clients (log scale)',
        scale: { type: 'log', base: 2, nice: false },
        axis: { values: [...new Set(data.map((d) => d.clients))], format: 'd', grid: true },
      },
      y: {
        field: 'docsPerSec',
        type: 'quantitative',
        title: 'Documents per second',
        scale: { zero: true },
        axis: { format: '~s', grid: true },
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
