import type { Rng } from '../../rng.js';
import { breadthBucket } from '../define.js';
import { pickModel, pickProvider, pickWindow } from '../params.js';
import { type Json, totalOf } from '../signals/core.js';
import { percentilesOf } from '../signals/metrics.js';
import { extremeOf, singleValueOf, statsOf } from '../signals/pipelines.js';
import type { Family } from '../types.js';

/**
 * Sibling pipeline aggregations (one value over a histogram's buckets): sum/avg/max/min/stats/
 * percentiles_bucket. Row ids are `bucket.pipeline.<type>` (select them with
 * `--families 'bucket.pipeline.*'`). Inputs are sums of `latency_ms` (a long), so every engine
 * sums the same integers exactly and no result can differ by rounding.
 */

/** A provider's daily buckets with the day's summed latency: the input of most pipeline rows. */
export function daily(extra: Json = {}): Json {
  return {
    per_day: {
      date_histogram: { field: '@timestamp', calendar_interval: 'day' },
      aggs: { lat: { sum: { field: 'latency_ms' } }, ...extra },
    },
  };
}

export const providerQuery = (rng: Rng): Json => ({
  bool: { filter: [{ term: { provider: pickProvider(rng) } }] },
});

/** A model's hourly buckets over 1-3 days: sparse enough to have empty buckets (gaps). */
export function hourly(rng: Rng, extra: Json): Json {
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

const sibling = (type: string, extra: Json = {}) => ({ [type]: { buckets_path: 'per_day>lat', ...extra } });

export const SIBLING_PIPELINE_ROWS: readonly Family[] = [
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
];
