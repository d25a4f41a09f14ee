import { STATUSES } from '../../corpus/vocabulary.js';
import { breadthBucket } from '../define.js';
import { byTenant, pickLatencyBand, pickModel, pickProvider, pickTenant, pickWindow } from '../params.js';
import { namedBucketsOf, singleBucketOf } from '../signals/buckets.js';
import { metricOf, totalOf } from '../signals/core.js';
import type { Family } from '../types.js';

/**
 * Buckets the request defines: ranges and date ranges (keyed), filter / filters /
 * adjacency_matrix, missing, global, and random_sampler's sample. Keys are the ones the request
 * names, so the comparison never depends on how an engine formats a key.
 *
 * random_sampler is a Bernoulli sample, different documents per engine: its doc count and the
 * sampled mean of prompt_tokens (log-normal, coefficient of variation ~1.3) get six standard
 * errors of the sample size the row's own exact total implies.
 */

export const RANDOM_SAMPLER_PROBABILITY = 0.1;
/** Coefficient of variation of prompt_tokens (log-normal, sigma 1): sqrt(e - 1). */
const PROMPT_TOKENS_CV = Math.sqrt(Math.E - 1);

/** Six standard errors of a Bernoulli(p) sample of n documents, relative: the count's and a mean's. */
export function samplerTolerances(n: number, p: number): { count: number; mean: number } {
  const expected = Math.max(1, n * p);
  return { count: 6 * Math.sqrt((1 - p) / expected), mean: (6 * PROMPT_TOKENS_CV) / Math.sqrt(expected) };
}

export const RANGE_FILTER_ROWS: readonly Family[] = [
  breadthBucket({
    id: 'bucket.range',
    family: 'range',
    title: 'keyed latency_ms ranges (fast / typical / slow) with avg cost, per tenant',
    request: (rng) => {
      const { gte, lt } = pickLatencyBand(rng);
      return {
        size: 0,
        query: { bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } },
        aggs: {
          bands: {
            range: {
              field: 'latency_ms',
              ranges: [
                { key: 'fast', to: gte },
                { key: 'typical', from: gte, to: lt },
                { key: 'slow', from: lt },
              ],
            },
            aggs: { cost: { avg: { field: 'cost_usd' } } },
          },
        },
      };
    },
    signal: (response) => ({
      total: totalOf(response),
      buckets: { bands: namedBucketsOf(response, 'bands', ['cost']) },
    }),
  }),
  breadthBucket({
    id: 'bucket.date_range',
    family: 'date_range',
    title: 'keyed date_range: the three thirds of a 3-72 h window, for a provider',
    request: (rng) => {
      const w = pickWindow(rng, 3, 72);
      const start = Date.parse(w.gte);
      const third = Math.floor((Date.parse(w.lt) - start) / 3 / 60_000) * 60_000;
      const at = (k: number) => new Date(start + k * third).toISOString();
      return {
        size: 0,
        query: { bool: { filter: [{ term: { provider: pickProvider(rng) } }] } },
        aggs: {
          windows: {
            date_range: {
              field: '@timestamp',
              ranges: [
                { key: 'first', from: at(0), to: at(1) },
                { key: 'second', from: at(1), to: at(2) },
                { key: 'third', from: at(2), to: at(3) },
              ],
            },
          },
        },
      };
    },
    signal: (response) => ({
      total: totalOf(response),
      buckets: { windows: namedBucketsOf(response, 'windows') },
    }),
  }),
  breadthBucket({
    id: 'bucket.filter',
    family: 'filter',
    title: 'filter agg: errors of a model in a window, with avg latency',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        failing: {
          filter: {
            bool: {
              filter: [{ term: { model: pickModel(rng) } }, { terms: { status: ['error', 'timeout'] } }],
            },
          },
          aggs: { latency: { avg: { field: 'latency_ms' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: singleBucketOf(response, 'failing', ['latency']),
    }),
  }),
  breadthBucket({
    id: 'bucket.filters',
    family: 'filters',
    title: 'named filters: one bucket per status, with sum cost, in a window',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 1, 48) } },
      aggs: {
        by_status: {
          filters: {
            filters: Object.fromEntries(STATUSES.map((s) => [s.name, { term: { status: s.name } }])),
          },
          aggs: { cost: { sum: { field: 'cost_usd' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { by_status: namedBucketsOf(response, 'by_status', ['cost']) },
    }),
  }),
  breadthBucket({
    id: 'bucket.missing',
    family: 'missing',
    // Every event has every field, so the right answer is 0 on both: the row checks that and
    // measures what the check costs.
    title: 'missing agg on a field within a tenant (the corpus has no gaps: doc_count 0)',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } },
      aggs: { gaps: { missing: { field: rng.pick(['region', 'latency_ms', 'cost_usd']) } } },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: singleBucketOf(response, 'gaps') }),
  }),
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
        metrics: singleBucketOf(response, 'sample', ['tokens']),
        tolerances: { 'sample.doc_count': tol.count, 'sample.tokens': tol.mean },
      };
    },
  }),
];
