import { MODELS, PROVIDERS, STATUSES } from '../corpus/vocabulary.js';
import { pickLatencyBand, pickModel, pickProvider, pickTenant, pickWindow } from './params.js';
import { bucketsOf, totalOf } from './signal.js';
import { compositeBucketsOf, namedBucketsOf, singleBucketOf, topHitsIdsOf } from './signalAggs.js';
import type { Family } from './types.js';

/**
 * More bucket rows. Bucket keys are ones the request names (keyed ranges, named filters) or
 * values from the data, so the comparison never depends on how an engine formats a key.
 */

const bucketFamily = (f: Omit<Family, 'group' | 'endpoint'>): Family => ({
  ...f,
  group: 'bucket',
  endpoint: '_search',
  breadth: true,
});

export const MORE_BUCKET_FAMILIES: readonly Family[] = [
  bucketFamily({
    id: 'bucket.histogram',
    family: 'histogram',
    title: 'latency_ms histogram of a model (interval 250-1000 ms)',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      aggs: { latency: { histogram: { field: 'latency_ms', interval: rng.pick([250, 500, 1000]) } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { latency: bucketsOf(response, 'latency') },
    }),
  }),
  bucketFamily({
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
  bucketFamily({
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
  bucketFamily({
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
  bucketFamily({
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
  bucketFamily({
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
  bucketFamily({
    id: 'bucket.composite',
    family: 'composite',
    title: 'composite (model x status), one page covering every pair, in a window',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        pairs: {
          composite: {
            // One page holds every model x status pair, so paging order cannot cut the answer.
            size: MODELS.length * STATUSES.length,
            sources: [{ model: { terms: { field: 'model' } } }, { status: { terms: { field: 'status' } } }],
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { pairs: compositeBucketsOf(response, 'pairs', ['model', 'status']) },
    }),
  }),
  bucketFamily({
    id: 'bucket.top_hits',
    family: 'top_hits',
    title: 'latest 3 events per provider (terms + top_hits sorted by @timestamp) in a window',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 1, 24) } },
      aggs: {
        by_provider: {
          terms: { field: 'provider', size: PROVIDERS.length },
          aggs: {
            latest: { top_hits: { size: 3, sort: [{ '@timestamp': { order: 'desc' } }], _source: false } },
          },
        },
      },
    }),
    // @timestamp is unique, so each provider's latest ids are determined.
    signal: (response) => ({
      total: totalOf(response),
      buckets: { by_provider: bucketsOf(response, 'by_provider') },
      lists: topHitsIdsOf(response, 'by_provider', 'latest'),
    }),
  }),
];
