import { MODEL_PICKER } from '../../corpus/vocabulary.js';
import { breadthMetric } from '../define.js';
import { pickModel, pickWindow } from '../params.js';
import { metricOf, totalOf, withTolerance } from '../signals/core.js';
import { percentilesOf, ranksOf } from '../signals/metrics.js';
import type { Family } from '../types.js';

/**
 * Approximate metric aggregations. Each carries a tolerance sized to its algorithm, never a skip:
 * - percentiles, percentile_ranks, median_absolute_deviation: OpenSearch answers from a t-digest
 *   (compression 100); an engine may use another sketch or exact ranks. 5% relative on each
 *   value: t-digest's rank error at p50-p99 over 10^4-10^5 values is well under 1%, which on this
 *   corpus's log-normal latencies is a few percent of the value at most. The ranks are asked at
 *   0.5x, 1x and 2x a model's median latency (about the 18th, 50th and 82nd percentile), away
 *   from the tails where a relative tolerance on a small rank would be meaningless.
 * - cardinality: OpenSearch's HyperLogLog++ is exact in practice below precision_threshold
 *   (3000 by default, and a tenant window has at most 500); a candidate's HLL at precision 14
 *   has ~0.8% standard error. 5% relative is ~6 standard errors: a wrong count, not noise.
 */
export const PERCENTILE_TOLERANCE = 0.05;
export const CARDINALITY_TOLERANCE = 0.05;

const PERCENTS = [50, 95, 99];

export const APPROXIMATE_METRIC_ROWS: readonly Family[] = [
  {
    id: 'metric.cardinality',
    group: 'metric',
    breadth: true,
    family: 'cardinality',
    title: `distinct tenants in a 1-72 h window (cardinality, ${CARDINALITY_TOLERANCE * 100}% tolerance)`,
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 1, 72) } },
      aggs: { tenants: { cardinality: { field: 'tenant' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: { tenants: metricOf(response, 'tenants') },
      tolerances: { tenants: CARDINALITY_TOLERANCE },
    }),
  },
  {
    id: 'metric.percentiles',
    group: 'metric',
    breadth: true,
    family: 'percentiles',
    title: `p50/p95/p99 latency_ms of a model (percentiles, ${PERCENTILE_TOLERANCE * 100}% tolerance)`,
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      aggs: { latency: { percentiles: { field: 'latency_ms', percents: PERCENTS } } },
    }),
    signal: (response) => {
      const metrics = percentilesOf(response, 'latency');
      return {
        total: totalOf(response),
        metrics,
        tolerances: Object.fromEntries(Object.keys(metrics).map((k) => [k, PERCENTILE_TOLERANCE])),
      };
    },
  },
  breadthMetric({
    id: 'metric.percentile_ranks',
    family: 'percentile_ranks',
    title: `percentile_ranks of latency_ms at 0.5x/1x/2x a model's median (${PERCENTILE_TOLERANCE * 100}% tolerance)`,
    request: (rng) => {
      const model = MODEL_PICKER.pick(rng);
      return {
        size: 0,
        query: { bool: { filter: [{ term: { model: model.name } }] } },
        aggs: {
          ranks: {
            percentile_ranks: { field: 'latency_ms', values: [0.5, 1, 2].map((k) => k * model.medianMs) },
          },
        },
      };
    },
    signal: (response) => ({
      total: totalOf(response),
      ...withTolerance(ranksOf(response, 'ranks'), PERCENTILE_TOLERANCE),
    }),
  }),
  breadthMetric({
    id: 'metric.median_absolute_deviation',
    family: 'median_absolute_deviation',
    title: `median_absolute_deviation of latency_ms for a model (${PERCENTILE_TOLERANCE * 100}% tolerance)`,
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      aggs: { mad: { median_absolute_deviation: { field: 'latency_ms' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      ...withTolerance({ mad: metricOf(response, 'mad') }, PERCENTILE_TOLERANCE),
    }),
  }),
];
