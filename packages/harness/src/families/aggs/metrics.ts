import type { Rng } from '../../rng.js';
import { breadthMetric } from '../define.js';
import { byTenant, pickModel, pickTenant, pickWindow } from '../params.js';
import { metricOf, totalOf } from '../signals/core.js';
import { matrixStatsOf, multiMetricOf } from '../signals/metrics.js';
import type { Family } from '../types.js';

/**
 * Exact metric aggregations over a filtered set: single-value (avg, sum, min, max, value_count),
 * multi-value (stats, extended_stats, matrix_stats) and scripted. Values must agree to 1e-6
 * relative (sums of doubles depend on summation order).
 */

function singleMetric(
  op: 'avg' | 'sum' | 'min' | 'max',
  field: string,
  title: string,
  filter: (rng: Rng) => Record<string, unknown>,
): Family {
  return {
    id: `metric.${op}`,
    group: 'metric',
    family: op,
    title,
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [filter(rng)] } },
      aggs: { value: { [op]: { field } } },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: { value: metricOf(response, 'value') } }),
  };
}

const STATS = ['count', 'min', 'max', 'avg', 'sum'];
const EXTENDED = [...STATS, 'sum_of_squares', 'variance', 'std_deviation'];

/** The sum-a-field shape the candidate's script/scripted_metric.rs recognises (Painless on the baseline). */
export const SCRIPTED_SUM = {
  init_script: 'state.values = []',
  map_script: "state.values.add(doc['latency_ms'].value)",
  combine_script: 'double total = 0; for (v in state.values) { total += v } return total',
  reduce_script: 'double total = 0; for (a in states) { total += a } return total',
};

export const METRIC_ROWS: readonly Family[] = [
  singleMetric('avg', 'latency_ms', 'avg latency_ms of a model', (rng) => ({
    term: { model: pickModel(rng) },
  })),
  singleMetric('sum', 'cost_usd', 'sum cost_usd of a tenant', (rng) => ({
    term: { tenant: pickTenant(rng) },
  })),
  singleMetric('min', 'latency_ms', 'min latency_ms in a 1-24 h window', (rng) => ({
    range: { '@timestamp': pickWindow(rng, 1, 24) },
  })),
  singleMetric('max', 'cost_usd', 'max cost_usd of a model', (rng) => ({ term: { model: pickModel(rng) } })),
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
  breadthMetric({
    id: 'metric.matrix_stats',
    family: 'matrix_stats',
    title: 'matrix_stats of latency_ms, prompt_tokens, completion_tokens for a tenant',
    request: (rng) => ({
      size: 0,
      query: byTenant(rng),
      aggs: { matrix: { matrix_stats: { fields: ['latency_ms', 'prompt_tokens', 'completion_tokens'] } } },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: matrixStatsOf(response, 'matrix') }),
  }),
  breadthMetric({
    id: 'metric.scripted_metric',
    family: 'scripted_metric',
    title: 'scripted_metric summing latency_ms (init/map/combine/reduce) for a tenant in a window',
    request: (rng) => ({
      size: 0,
      query: {
        bool: {
          filter: [
            { term: { tenant: pickTenant(rng) } },
            { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
          ],
        },
      },
      aggs: { total_latency: { scripted_metric: SCRIPTED_SUM } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: { total_latency: metricOf(response, 'total_latency') },
    }),
  }),
];
