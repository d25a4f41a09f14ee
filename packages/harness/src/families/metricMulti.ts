import { pickModel, pickTenant, pickWindow } from './params.js';
import { metricOf, totalOf } from './signal.js';
import { multiMetricOf, percentilesOf } from './signalAggs.js';
import type { Family } from './types.js';

/**
 * Multi-value and approximate metric rows. Exact ones (stats, extended_stats, value_count) agree
 * to 1e-6 relative like the single-value metrics.
 *
 * Approximate ones carry a tolerance, never a skip:
 * - percentiles: OpenSearch uses a t-digest (compression 100); an engine may use another sketch
 *   or exact ranks. 5% relative on each percentile value: t-digest's rank error at p50-p99 over
 *   10^4-10^5 values is well under 1%, which on this corpus's log-normal latencies is a few
 *   percent of the value at most.
 * - cardinality: OpenSearch's HyperLogLog++ is exact in practice below precision_threshold
 *   (3000 by default, and a tenant window has at most 500); a candidate's HLL at precision 14
 *   has ~0.8% standard error. 5% relative is ~6 standard errors: a wrong count, not noise.
 */
export const PERCENTILE_TOLERANCE = 0.05;
export const CARDINALITY_TOLERANCE = 0.05;

const PERCENTS = [50, 95, 99];
const STATS = ['count', 'min', 'max', 'avg', 'sum'];
const EXTENDED = [...STATS, 'sum_of_squares', 'variance', 'std_deviation'];

export const MULTI_METRIC_FAMILIES: readonly Family[] = [
  {
    id: 'metric.stats',
    group: 'metric',
    breadth: true,
    family: 'stats',
    title: 'stats of latency_ms for a model',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      aggs: { latency: { stats: { field: 'latency_ms' } } },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: multiMetricOf(response, 'latency', STATS) }),
  },
  {
    id: 'metric.extended_stats',
    group: 'metric',
    breadth: true,
    family: 'extended_stats',
    title: 'extended_stats of latency_ms for a tenant (variance, std_deviation)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } },
      aggs: { latency: { extended_stats: { field: 'latency_ms' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: multiMetricOf(response, 'latency', EXTENDED),
    }),
  },
  {
    id: 'metric.value_count',
    group: 'metric',
    breadth: true,
    family: 'value_count',
    title: 'value_count of prompt_tokens in a 1-24 h window',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 1, 24) } },
      aggs: { value: { value_count: { field: 'prompt_tokens' } } },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: { value: metricOf(response, 'value') } }),
  },
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
];
