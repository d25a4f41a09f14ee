import { MODELS } from '../corpus/vocabulary.js';
import type { Rng } from '../rng.js';
import { pickLatencyBand, pickModel, pickProvider, pickWindow } from './params.js';
import { aggs, arr, type Json, metricValue, obj, totalOf } from './signal.js';
import { percentilesOf } from './signalAggs.js';
import type { BucketSignal, Family } from './types.js';

/**
 * Pipeline aggregations: one row per pipeline type, ids `bucket.pipeline.<type>` (row ids
 * start with their schema group; select them with `--families 'bucket.pipeline.*'`). Inputs are sums of `latency_ms` (a long),
 * so every engine sums the same integers exactly and derivatives cannot differ by rounding.
 */

const pipelineFamily = (f: Omit<Family, 'group' | 'endpoint' | 'breadth'>): Family => ({
  ...f,
  group: 'bucket',
  endpoint: '_search',
  breadth: true,
});

/** A provider's daily buckets with the day's summed latency: the input of most rows. */
function daily(extra: Json = {}): Json {
  return {
    per_day: {
      date_histogram: { field: '@timestamp', calendar_interval: 'day' },
      aggs: { lat: { sum: { field: 'latency_ms' } }, ...extra },
    },
  };
}

const providerQuery = (rng: Rng): Json => ({ bool: { filter: [{ term: { provider: pickProvider(rng) } }] } });

/** A model's hourly buckets over 1-3 days: sparse enough to have empty buckets (gaps). */
function hourly(rng: Rng, extra: Json): Json {
  return {
    size: 0,
    query: {
      bool: {
        filter: [{ term: { model: pickModel(rng) } }, { range: { '@timestamp': pickWindow(rng, 24, 72) } }],
      },
    },
    aggs: {
      per_hour: {
        date_histogram: { field: '@timestamp', fixed_interval: '1h' },
        aggs: { lat: { sum: { field: 'latency_ms' } }, ...extra },
      },
    },
  };
}

/**
 * Non-empty buckets in response order with the named values; a value a pipeline did not add
 * to a bucket (the first derivative, say) reads as null on both sides.
 */
function seriesOf(response: unknown, name: string, values: readonly string[]): BucketSignal[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: BucketSignal[] = [];
  for (const [i, raw] of arr(agg.buckets, `aggregations.${name}.buckets`).entries()) {
    const b = obj(raw, `aggregations.${name}.buckets[${i}]`);
    if (typeof b.doc_count !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].doc_count is not a number`);
    if (b.doc_count === 0) continue;
    if (typeof b.key !== 'string' && typeof b.key !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].key is invalid`);
    const metrics: Record<string, number | null> = {};
    for (const v of values)
      metrics[v] = b[v] === undefined ? null : metricValue(b[v], `${name}.buckets[${i}].${v}`);
    out.push({ key: b.key, docCount: b.doc_count, metrics });
  }
  return out;
}

/** A top-level single-value pipeline (`{"value": x}`). */
function singleValueOf(response: unknown, name: string): Record<string, number | null> {
  return { [name]: metricValue(aggs(response, 'body')[name], `aggregations.${name}`) };
}

/** max_bucket / min_bucket: the value and the keys of the buckets that hold it. */
function extremeOf(
  response: unknown,
  name: string,
): { metrics: Record<string, number | null>; keys: string[] } {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const keys = arr(agg.keys, `aggregations.${name}.keys`).map(String);
  return { metrics: singleValueOf(response, name), keys };
}

function statsOf(response: unknown, name: string): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: Record<string, number | null> = {};
  for (const f of ['count', 'min', 'max', 'avg', 'sum']) {
    const v = agg[f];
    if (v !== null && typeof v !== 'number') throw new Error(`response: ${name}.${f} is not a number`);
    out[`${name}.${f}`] = v;
  }
  return out;
}

/** Bucket keys in response order: for rows that reorder or drop buckets. */
function keysInOrder(response: unknown, name: string): (string | number)[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  return arr(agg.buckets, `aggregations.${name}.buckets`).map((raw, i) => {
    const key = obj(raw, `aggregations.${name}.buckets[${i}]`).key;
    if (typeof key !== 'string' && typeof key !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].key is invalid`);
    return key;
  });
}

const sibling = (type: string, extra: Json = {}) => ({ [type]: { buckets_path: 'per_day>lat', ...extra } });

export const PIPELINE_FAMILIES: readonly Family[] = [
  pipelineFamily({
    id: 'bucket.pipeline.sum_bucket',
    family: 'sum_bucket',
    title: "sum_bucket: total of a provider's daily latency sums",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: { ...daily(), total: sibling('sum_bucket') },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: singleValueOf(response, 'total') }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.avg_bucket',
    family: 'avg_bucket',
    title: "avg_bucket: mean of a provider's daily latency sums (gap_policy varies)",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: { ...daily(), mean: sibling('avg_bucket', { gap_policy: rng.pick(['skip', 'insert_zeros']) }) },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: singleValueOf(response, 'mean') }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.max_bucket',
    family: 'max_bucket',
    title: "max_bucket: a provider's busiest day by summed latency, with its key",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: { ...daily(), top: sibling('max_bucket') },
    }),
    signal: (response) => {
      const { metrics, keys } = extremeOf(response, 'top');
      return { total: totalOf(response), metrics, lists: { keys } };
    },
  }),
  pipelineFamily({
    id: 'bucket.pipeline.min_bucket',
    family: 'min_bucket',
    title: "min_bucket: a model's quietest hour by call count over 1-3 days",
    request: (rng) => {
      const body = hourly(rng, {});
      body.aggs = { ...(body.aggs as Json), low: { min_bucket: { buckets_path: 'per_hour>_count' } } };
      return body;
    },
    signal: (response) => {
      const { metrics, keys } = extremeOf(response, 'low');
      return { total: totalOf(response), metrics, lists: { keys } };
    },
  }),
  pipelineFamily({
    id: 'bucket.pipeline.stats_bucket',
    family: 'stats_bucket',
    title: "stats_bucket: count/min/max/avg/sum of a provider's daily latency sums",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: { ...daily(), st: sibling('stats_bucket') },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: statsOf(response, 'st') }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.percentiles_bucket',
    family: 'percentiles_bucket',
    title: "percentiles_bucket: nearest-rank percentiles of a provider's daily latency sums",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: {
        ...daily(),
        pct: sibling('percentiles_bucket', { percents: rng.pick([[25, 50, 75], [10, 90, 99], [50]]) }),
      },
    }),
    // Both engines take the nearest rank of the sorted bucket values: exact, no tolerance needed.
    signal: (response) => ({ total: totalOf(response), metrics: percentilesOf(response, 'pct') }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.derivative',
    family: 'derivative',
    title: "derivative of a model's hourly latency sum over 1-3 days (gaps -> null)",
    request: (rng) =>
      hourly(rng, {
        d: { derivative: { buckets_path: 'lat', gap_policy: rng.pick(['skip', 'insert_zeros']) } },
      }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_hour: seriesOf(response, 'per_hour', ['lat', 'd']) },
    }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.cumulative_sum',
    family: 'cumulative_sum',
    title: "cumulative_sum of a model's hourly call counts over 1-3 days",
    request: (rng) => hourly(rng, { running: { cumulative_sum: { buckets_path: '_count' } } }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_hour: seriesOf(response, 'per_hour', ['running']) },
    }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.moving_fn',
    family: 'moving_fn',
    title: "moving_fn over a provider's daily latency sums (window 3-7, MovingFunctions varies)",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: daily({
        mv: {
          moving_fn: {
            buckets_path: 'lat',
            window: rng.int(3, 7),
            shift: rng.pick([0, 1]),
            script: rng.pick([
              'MovingFunctions.unweightedAvg(values)',
              'MovingFunctions.linearWeightedAvg(values)',
              'MovingFunctions.max(values)',
              'MovingFunctions.min(values)',
              'MovingFunctions.sum(values)',
              'MovingFunctions.ewma(values, 0.3)',
              'MovingFunctions.holt(values, 0.3, 0.1)',
              'MovingFunctions.stdDev(values, MovingFunctions.unweightedAvg(values))',
            ]),
          },
        },
      }),
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: seriesOf(response, 'per_day', ['lat', 'mv']) },
    }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.serial_diff',
    family: 'serial_diff',
    title: "serial_diff (lag 1-3 days) of a provider's daily latency sums",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: daily({ diff: { serial_diff: { buckets_path: 'lat', lag: rng.int(1, 3) } } }),
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: seriesOf(response, 'per_day', ['diff']) },
    }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.bucket_script',
    family: 'bucket_script',
    title: 'bucket_script: mean latency per call of each model (sum / _count), 1-7 day window',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          terms: { field: 'model', size: MODELS.length },
          aggs: {
            lat: { sum: { field: 'latency_ms' } },
            per_call: {
              bucket_script: {
                buckets_path: { total: 'lat', calls: '_count' },
                script: rng.pick([
                  'params.total / params.calls',
                  'params.calls > 0 ? params.total / params.calls : 0',
                ]),
              },
            },
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: {
        by_model: seriesOf(response, 'by_model', ['per_call']).sort((a, b) =>
          String(a.key).localeCompare(String(b.key)),
        ),
      },
    }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.bucket_selector',
    family: 'bucket_selector',
    title: 'bucket_selector: models whose mean latency exceeds a band (script params), 1-7 days',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          terms: { field: 'model', size: MODELS.length },
          aggs: {
            lat: { avg: { field: 'latency_ms' } },
            slow: {
              bucket_selector: {
                buckets_path: { mean: 'lat' },
                script: { source: 'params.mean > params.floor', params: { floor: pickLatencyBand(rng).gte } },
              },
            },
          },
        },
      },
    }),
    signal: (response) => ({ total: totalOf(response), lists: { kept: keysInOrder(response, 'by_model') } }),
  }),
  pipelineFamily({
    id: 'bucket.pipeline.bucket_sort',
    family: 'bucket_sort',
    title: 'bucket_sort: models ranked by summed latency (asc/desc, from 0-1, size 3), 1-7 days',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          terms: { field: 'model', size: MODELS.length },
          aggs: {
            lat: { sum: { field: 'latency_ms' } },
            ranked: {
              bucket_sort: {
                sort: [{ lat: { order: rng.pick(['asc', 'desc']) } }],
                from: rng.int(0, 1),
                size: 3,
              },
            },
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      lists: { ranked: keysInOrder(response, 'by_model') },
    }),
  }),
];
