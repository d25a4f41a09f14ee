import { pickModel, pickTenant, pickWindow } from './params.js';
import { metricOf, totalOf } from './signal.js';
import type { Family } from './types.js';

/** Single-value metric aggregations over a filtered set; values must agree to 1e-6 relative. */

function metricFamily(
  op: 'avg' | 'sum' | 'min' | 'max',
  field: string,
  title: string,
  filter: (rng: import('../rng.js').Rng) => Record<string, unknown>,
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

export const METRIC_FAMILIES: readonly Family[] = [
  metricFamily('avg', 'latency_ms', 'avg latency_ms of a model', (rng) => ({
    term: { model: pickModel(rng) },
  })),
  metricFamily('sum', 'cost_usd', 'sum cost_usd of a tenant', (rng) => ({
    term: { tenant: pickTenant(rng) },
  })),
  metricFamily('min', 'latency_ms', 'min latency_ms in a 1-24 h window', (rng) => ({
    range: { '@timestamp': pickWindow(rng, 1, 24) },
  })),
  metricFamily('max', 'cost_usd', 'max cost_usd of a model', (rng) => ({ term: { model: pickModel(rng) } })),
];
