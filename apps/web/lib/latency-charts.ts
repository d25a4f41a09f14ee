/**
 * The row page's drill-down charts, as Vega-Lite specs built from a row's sides (pure), rendered
 * to SVG at build time by renderSpecSvg (lib/trend-chart.ts):
 * - the latency distribution of both engines (the ECDF the harness stores, log-scale latency);
 * - latency over the timed phase (p50 and p99 per time bin), where merge and flush stalls show.
 * Only numbers and the fixed words "Candidate"/"Baseline"/"p50"/"p99" reach the charts.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { RowResult, Sweep } from './definitions';

/** Okabe–Ito blue and vermillion-free purple: distinct from the verdict colours and colour-blind safe. */
export const ENGINE_COLOUR = { Candidate: '#0072B2', Baseline: '#CC79A7' } as const;
type Engine = keyof typeof ENGINE_COLOUR;
const ENGINES: readonly Engine[] = ['Candidate', 'Baseline'];

const BASE = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  width: 640,
  height: 240,
  background: '#ffffff',
  padding: 8,
  config: {
    font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    axis: { labelColor: '#374151', titleColor: '#374151', titleFontWeight: 600, domainColor: '#9CA3AF' },
    legend: { labelColor: '#374151', titleColor: '#374151', orient: 'bottom' as const },
    view: { stroke: null },
  },
} as const;

const engineColour = {
  field: 'engine',
  type: 'nominal' as const,
  title: 'Engine',
  scale: { domain: [...ENGINES], range: ENGINES.map((e) => ENGINE_COLOUR[e]) },
};

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

export function ecdfSpec(data: readonly EcdfDatum[], description: string): TopLevelSpec {
  return {
    ...BASE,
    description,
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

export function timelineSpec(data: readonly TimelineDatum[], description: string): TopLevelSpec {
  return {
    ...BASE,
    description,
    data: { values: data.map((d) => ({ ...d })) },
    mark: { type: 'line', strokeWidth: 2, point: { size: 24, filled: true } },
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
      strokeDash: {
        field: 'stat',
        type: 'nominal',
        title: 'Percentile',
        legend: { symbolType: 'stroke', symbolStrokeWidth: 2, symbolStrokeColor: '#374151' },
        scale: {
          domain: ['p50', 'p99'],
          range: [
            [1, 0],
            [6, 4],
          ],
        },
      },
      detail: { field: 'series', type: 'nominal' },
    },
  };
}

export interface SweepDatum {
  engine: Engine;
  stat: 'p50' | 'p99';
  offeredRate: number;
  achievedRate: number;
  ms: number;
  series: string;
}

/** p50 and p99 of both engines at each offered rate of one family's sweep. */
export function sweepData(sweep: Sweep): SweepDatum[] {
  return sweep.points.flatMap((point) =>
    ENGINES.flatMap((engine) => {
      const side = engine === 'Candidate' ? point.candidate : point.baseline;
      return (['p50', 'p99'] as const).flatMap((stat) =>
        side[stat] > 0 && point.offeredRate > 0
          ? [
              {
                engine,
                stat,
                offeredRate: point.offeredRate,
                achievedRate: side.achievedRate,
                ms: side[stat],
                series: `${engine} ${stat}`,
              },
            ]
          : [],
      );
    }),
  );
}

export function sweepSpec(data: readonly SweepDatum[], boundMs: number, description: string): TopLevelSpec {
  const x = {
    field: 'offeredRate',
    type: 'quantitative' as const,
    title: 'Offered rate (requests/s, log scale)',
    scale: { type: 'log' as const, nice: false },
    axis: { format: '~s', grid: true },
  };
  const y = {
    type: 'quantitative' as const,
    scale: { type: 'log' as const, nice: false },
    axis: { format: '~g', grid: true },
  };
  return {
    ...BASE,
    description,
    layer: [
      {
        data: { values: data.map((d) => ({ ...d })) },
        mark: { type: 'line', strokeWidth: 2, point: { size: 30, filled: true } },
        encoding: {
          x,
          y: { ...y, field: 'ms', title: 'Latency (ms, log scale)' },
          color: engineColour,
          strokeDash: {
            field: 'stat',
            type: 'nominal',
            title: 'Percentile',
            legend: { symbolType: 'stroke', symbolStrokeWidth: 2, symbolStrokeColor: '#374151' },
            scale: {
              domain: ['p50', 'p99'],
              range: [
                [1, 0],
                [6, 4],
              ],
            },
          },
          detail: { field: 'series', type: 'nominal' },
        },
      },
      {
        data: { values: [{ bound: boundMs, label: `p99 bound ${boundMs} ms` }] },
        layer: [
          {
            mark: { type: 'rule', color: '#374151', strokeDash: [2, 3] },
            encoding: { y: { ...y, field: 'bound' } },
          },
          {
            mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -3, color: '#374151', x: 0 },
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

export function scalingSpec(data: readonly ScalingDatum[], description: string): TopLevelSpec {
  return {
    ...BASE,
    description,
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
