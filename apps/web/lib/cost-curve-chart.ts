/**
 * A row's cost curve as a chart (the row page's `cost.svg`): each engine's p50 and engine CPU per
 * request against the corpus size, both axes on a log scale, so a reader sizing a cluster sees
 * how each engine's cost grows with the data and where the lines part. Pure: numbers and fixed
 * words only.
 */
import type { TopLevelSpec } from 'vega-lite';
import { base, type Engine, engineColour, solidThenDashed, type Variant } from './charts';
import type { Scorecard } from './definitions';
import { drillSize, only } from './latency-charts';

export type CostMeasure = 'p50' | 'CPU per request';

export interface CostDatum {
  docs: number;
  engine: Engine;
  measure: CostMeasure;
  ms: number;
}

/**
 * The curve's points for one row: a value at or below zero (or missing) cannot sit on a log axis
 * and is left out, so a side measured at one size only draws a point, not a line.
 */
export function costCurveData(card: Pick<Scorecard, 'costCurve'>, rowId: string): CostDatum[] {
  const curve = card.costCurve;
  const row = curve?.rows.find((r) => r.id === rowId);
  if (!curve || !row) return [];
  const series: [Engine, CostMeasure, readonly (number | null)[]][] = [
    ['Candidate', 'p50', row.candidateP50],
    ['Baseline', 'p50', row.baselineP50],
    ['Candidate', 'CPU per request', row.candidateCpuMs],
    ['Baseline', 'CPU per request', row.baselineCpuMs],
  ];
  return series.flatMap(([engine, measure, values]) =>
    curve.docs.flatMap((docs, i) => {
      const ms = values[i];
      return ms != null && ms > 0 && Number.isFinite(ms) ? [{ docs, engine, measure, ms }] : [];
    }),
  );
}

const measureDash = solidThenDashed('measure', 'Measure', ['p50', 'CPU per request']);

export function costCurveSpec(
  data: readonly CostDatum[],
  variant: Variant,
  description: string,
): TopLevelSpec {
  const sizes = [...new Set(data.map((d) => d.docs))].sort((a, b) => a - b);
  return {
    ...base(drillSize(variant), description),
    data: { values: data.map((d) => ({ ...d })) },
    // The lines carry the legends (a dashed swatch reads as CPU); the points mark the measured
    // sizes without a legend of their own, which would draw the dash swatches as dots.
    layer: [
      { mark: { type: 'line', strokeWidth: 2 } },
      { mark: { type: 'point', size: 40, filled: true }, encoding: { strokeDash: { value: [1, 0] } } },
    ],
    encoding: {
      x: {
        field: 'docs',
        type: 'quantitative',
        title: 'Documents in the corpus (log scale)',
        scale: { type: 'log', nice: false, domain: [sizes[0] ?? 1, sizes.at(-1) ?? 10] },
        axis: { values: sizes, format: '~s', grid: true },
      },
      y: {
        field: 'ms',
        type: 'quantitative',
        title: 'Milliseconds per request (log scale)',
        scale: { type: 'log' },
        axis: { format: '~g', grid: true },
      },
      color: engineColour,
      strokeDash: only(variant, measureDash),
      // One line per engine and measure.
      detail: [{ field: 'engine' }, { field: 'measure' }],
    },
  };
}
