import { MODELS } from '../corpus/vocabulary.js';
import { pickModel, pickProvider, pickWindow } from './params.js';
import { bucketsOf, totalOf } from './signal.js';
import type { Family } from './types.js';

/** Bucket aggregations: keys and doc_counts must agree exactly, sub-metrics to 1e-6 relative. */

export const BUCKET_FAMILIES: readonly Family[] = [
  {
    id: 'bucket.terms',
    group: 'bucket',
    family: 'terms',
    title: 'terms by model with avg latency and sum cost (1-7 day window)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          // size covers every model, so counts are exact on any engine and ties cannot cut the list.
          terms: { field: 'model', size: MODELS.length },
          aggs: { avg_latency: { avg: { field: 'latency_ms' } }, cost: { sum: { field: 'cost_usd' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { by_model: bucketsOf(response, 'by_model', ['avg_latency', 'cost']) },
    }),
  },
  {
    id: 'bucket.date_histogram_day',
    group: 'bucket',
    family: 'date_histogram',
    title: 'daily calls of a provider (calendar_interval day)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { provider: pickProvider(rng) } }] } },
      aggs: { per_day: { date_histogram: { field: '@timestamp', calendar_interval: 'day' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: bucketsOf(response, 'per_day') },
    }),
  },
  {
    id: 'bucket.date_histogram_1h',
    group: 'bucket',
    family: 'date_histogram',
    title: 'hourly avg latency of a model over 1-3 days (fixed_interval 1h, avg)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: {
        bool: {
          filter: [{ term: { model: pickModel(rng) } }, { range: { '@timestamp': pickWindow(rng, 24, 72) } }],
        },
      },
      aggs: {
        per_hour: {
          date_histogram: { field: '@timestamp', fixed_interval: '1h' },
          aggs: { avg_latency: { avg: { field: 'latency_ms' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_hour: bucketsOf(response, 'per_hour', ['avg_latency']) },
    }),
  },
];
