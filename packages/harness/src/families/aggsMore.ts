import { MODEL_PICKER, MODELS, STATUSES } from '../corpus/vocabulary.js';
import type { Rng } from '../rng.js';
import { PERCENTILE_TOLERANCE } from './metricMulti.js';
import { pickModel, pickTenant, pickWindow } from './params.js';
import { bucketsOf, metricOf, totalOf } from './signal.js';
import { namedBucketsOf, singleBucketOf } from './signalAggs.js';
import {
  allBucketsOf,
  bucketMetricsOf,
  intervalOf,
  matrixStatsOf,
  ranksOf,
  significantBucketsOf,
  significantTotalsOf,
  widthBucketsOf,
} from './signalMore.js';
import type { Family } from './types.js';

/**
 * The rest of the aggregation surface. Exact algorithms compare exactly (counts, keys) or to the
 * 1e-6 metric tolerance (sums, moments). Approximate ones carry a tolerance sized to the
 * algorithm, never a skip:
 * - percentile_ranks, median_absolute_deviation: OpenSearch answers from a t-digest; 5% relative
 *   as for percentiles (metricMulti.ts). The ranks are asked at 0.5x, 1x and 2x a model's median
 *   latency (about the 18th, 50th and 82nd percentile), away from the tails where a relative
 *   tolerance on a small rank would be meaningless.
 * - random_sampler: a Bernoulli sample, different documents per engine. Its doc count and the
 *   sampled mean of prompt_tokens (log-normal, coefficient of variation ~1.3) get six standard
 *   errors of the sample size the row's own exact total implies.
 */

const bucketFamily = (f: Omit<Family, 'group' | 'endpoint' | 'breadth'>): Family => ({
  ...f,
  group: 'bucket',
  endpoint: '_search',
  breadth: true,
});
const metricFamily = (f: Omit<Family, 'group' | 'endpoint' | 'breadth'>): Family => ({
  ...f,
  group: 'metric',
  endpoint: '_search',
  breadth: true,
});
const withTolerance = (metrics: Record<string, number | null>, tolerance: number) => ({
  metrics,
  tolerances: Object.fromEntries(Object.keys(metrics).map((k) => [k, tolerance])),
});
const byTenant = (rng: Rng) => ({ bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } });

/** The sum-a-field shape the candidate's script/scripted_metric.rs recognises (Painless on the baseline). */
export const SCRIPTED_SUM = {
  init_script: 'state.values = []',
  map_script: "state.values.add(doc['latency_ms'].value)",
  combine_script: 'double total = 0; for (v in state.values) { total += v } return total',
  reduce_script: 'double total = 0; for (a in states) { total += a } return total',
};

export const RANDOM_SAMPLER_PROBABILITY = 0.1;
/** Coefficient of variation of prompt_tokens (log-normal, sigma 1): sqrt(e - 1). */
const PROMPT_TOKENS_CV = Math.sqrt(Math.E - 1);

/** Six standard errors of a Bernoulli(p) sample of n documents, relative: the count's and a mean's. */
export function samplerTolerances(n: number, p: number): { count: number; mean: number } {
  const expected = Math.max(1, n * p);
  return { count: 6 * Math.sqrt((1 - p) / expected), mean: (6 * PROMPT_TOKENS_CV) / Math.sqrt(expected) };
}

export const MORE_AGG_FAMILIES: readonly Family[] = [
  metricFamily({
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
  metricFamily({
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
  metricFamily({
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
  metricFamily({
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
  bucketFamily({
    id: 'bucket.rare_terms',
    family: 'rare_terms',
    // The baseline tracks terms past max_doc_count in a cuckoo filter; at precision 1e-5 a rare
    // tenant wrongly dropped is a 1-in-100,000 event per check, and would show as N/A, not a verdict.
    title: 'rare_terms: tenants seen at most 1-3 times in a 6-48 h window (precision 1e-5)',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 6, 48) } },
      aggs: { rare: { rare_terms: { field: 'tenant', max_doc_count: rng.int(1, 3), precision: 0.00001 } } },
    }),
    signal: (response) => ({ total: totalOf(response), buckets: { rare: bucketsOf(response, 'rare') } }),
  }),
  bucketFamily({
    id: 'bucket.significant_terms',
    family: 'significant_terms',
    // JLH scores are functions of exact foreground/background counts: keys, counts and scores agree.
    title: 'significant_terms: models over-represented among failed calls in a 1-7 day window (JLH)',
    request: (rng) => ({
      size: 0,
      query: {
        bool: {
          filter: [
            { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
            { terms: { status: STATUSES.slice(1).map((s) => s.name) } },
          ],
        },
      },
      aggs: { models: { significant_terms: { field: 'model', size: MODELS.length, min_doc_count: 3 } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: significantTotalsOf(response, 'models'),
      buckets: { models: significantBucketsOf(response, 'models') },
    }),
  }),
  bucketFamily({
    id: 'bucket.adjacency_matrix',
    family: 'adjacency_matrix',
    title: 'adjacency_matrix of error / slow / us-east-1 / cache hit in a 1-48 h window',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 1, 48) } },
      aggs: {
        overlap: {
          adjacency_matrix: {
            filters: {
              error: { term: { status: 'error' } },
              slow: { range: { latency_ms: { gte: 2000 } } },
              us: { term: { region: 'us-east-1' } },
              cached: { term: { cache_hit: true } },
            },
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { overlap: namedBucketsOf(response, 'overlap') },
    }),
  }),
  bucketFamily({
    id: 'bucket.global',
    family: 'global',
    title: "global: a tenant's avg latency_ms beside the whole index's (global ignores the query)",
    request: (rng) => ({
      size: 0,
      query: byTenant(rng),
      aggs: {
        tenant_latency: { avg: { field: 'latency_ms' } },
        everyone: { global: {}, aggs: { latency: { avg: { field: 'latency_ms' } } } },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: {
        tenant_latency: metricOf(response, 'tenant_latency'),
        ...singleBucketOf(response, 'everyone', ['latency']),
      },
    }),
  }),
  bucketFamily({
    id: 'bucket.auto_date_histogram',
    family: 'auto_date_histogram',
    title: 'auto_date_histogram of a 6 h-10 day window into at most 5/10/20 buckets',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 6, 240) } },
      aggs: { timeline: { auto_date_histogram: { field: '@timestamp', buckets: rng.pick([5, 10, 20]) } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { timeline: bucketsOf(response, 'timeline') },
      lists: { 'timeline.interval': [intervalOf(response, 'timeline')] },
    }),
  }),
  bucketFamily({
    id: 'bucket.variable_width_histogram',
    family: 'variable_width_histogram',
    // With every matching value inside initial_buffer the clustering runs on the sorted values,
    // so it does not depend on the order an engine visits documents in: the busiest model over
    // 12 h is about 6,000 events at 1m docs.
    title: "variable_width_histogram of a model's latency_ms over 2-12 h into 3/5/8 buckets",
    request: (rng) => ({
      size: 0,
      query: {
        bool: {
          filter: [{ term: { model: pickModel(rng) } }, { range: { '@timestamp': pickWindow(rng, 2, 12) } }],
        },
      },
      aggs: {
        widths: {
          variable_width_histogram: {
            field: 'latency_ms',
            buckets: rng.pick([3, 5, 8]),
            initial_buffer: 10000,
          },
        },
      },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: widthBucketsOf(response, 'widths') }),
  }),
  bucketFamily({
    id: 'bucket.random_sampler',
    family: 'random_sampler',
    // Elastic 8.2+; OpenSearch 2.19 has no random_sampler, so the baseline refuses it (N/A).
    title: `random_sampler (p ${RANDOM_SAMPLER_PROBABILITY}) with avg prompt_tokens over a 1-7 day window (6 standard errors)`,
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        sample: {
          random_sampler: { probability: RANDOM_SAMPLER_PROBABILITY, seed: rng.int(1, 1_000_000) },
          aggs: { tokens: { avg: { field: 'prompt_tokens' } } },
        },
      },
    }),
    signal: (response) => {
      const total = totalOf(response);
      const tol = samplerTolerances(total.value, RANDOM_SAMPLER_PROBABILITY);
      return {
        total,
        metrics: bucketMetricsOf(response, 'sample', ['tokens']),
        tolerances: { 'sample.doc_count': tol.count, 'sample.tokens': tol.mean },
      };
    },
  }),
  bucketFamily({
    id: 'bucket.date_histogram_tz',
    family: 'date_histogram',
    // New York's DST ends on 2026-11-01, inside the extended bounds: one day is 25 hours long.
    title: 'daily date_histogram in a time zone with extended_bounds +-2 days and min_doc_count 0',
    request: (rng) => {
      const w = pickWindow(rng, 24, 24 * 5);
      const day = 86_400_000;
      return {
        size: 0,
        query: { range: { '@timestamp': w } },
        aggs: {
          per_day: {
            date_histogram: {
              field: '@timestamp',
              calendar_interval: 'day',
              time_zone: rng.pick(['America/New_York', 'Asia/Kolkata', '+05:45', 'Europe/Berlin']),
              min_doc_count: 0,
              extended_bounds: {
                min: new Date(Date.parse(w.gte) - 2 * day).toISOString(),
                max: new Date(Date.parse(w.lt) + 2 * day).toISOString(),
              },
            },
          },
        },
      };
    },
    // Every bucket, the empty ones included: filling the bounds is what the request asks for.
    signal: (response) => ({
      total: totalOf(response),
      lists: { per_day: allBucketsOf(response, 'per_day') },
    }),
  }),
];
