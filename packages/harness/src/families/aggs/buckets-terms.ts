import { MODELS, PROVIDERS, STATUSES } from '../../corpus/vocabulary.js';
import { breadthBucket } from '../define.js';
import { pickWindow } from '../params.js';
import {
  compositeBucketsOf,
  significantBucketsOf,
  significantTotalsOf,
  topHitsIdsOf,
} from '../signals/buckets.js';
import { bucketsOf, totalOf } from '../signals/core.js';
import type { Family } from '../types.js';

/**
 * Bucket aggregations keyed by a field's terms: terms (with and without sub-aggregations),
 * composite, top_hits per term, rare_terms, significant_terms. Keys and doc_counts must agree
 * exactly, sub-metrics to 1e-6 relative; sizes cover every term so no engine's cut decides.
 */

export const TERMS_ROWS: readonly Family[] = [
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
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
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
  breadthBucket({
    id: 'bucket.terms_plain',
    family: 'terms',
    title: 'terms by model, no sub-aggregations (1-7 day window): bucket.terms without its metrics',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: { by_model: { terms: { field: 'model', size: MODELS.length } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { by_model: bucketsOf(response, 'by_model') },
    }),
  }),
];
