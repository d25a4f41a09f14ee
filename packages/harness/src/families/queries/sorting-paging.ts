import { pickInstantMs, pickModel, pickTenant, pickWindow } from '../params.js';
import { idsOf, sourceValuesOf, totalOf } from '../signals/core.js';
import type { Family } from '../types.js';

/**
 * Sorting and paging: top-N by a field, deep `from`, search_after and index order. Sorts on the
 * unique @timestamp compare ids; sorts on a field that ties compare the sorted values.
 */

export const SORTING_PAGING_ROWS: readonly Family[] = [
  {
    id: 'query.sort_numeric',
    group: 'query',
    family: 'sort',
    title: 'slowest 10 calls of a model (sort latency_ms desc)',
    endpoint: '_search',
    request: (rng) => ({
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      sort: [{ latency_ms: { order: 'desc' } }],
      size: 10,
    }),
    // latency_ms ties, so ids are ambiguous; the sorted values are not.
    signal: (response) => ({ total: totalOf(response), sortValues: sourceValuesOf(response, 'latency_ms') }),
  },
  {
    id: 'query.sort_timestamp',
    group: 'query',
    family: 'sort',
    title: 'latest 10 events of a tenant (sort @timestamp desc)',
    endpoint: '_search',
    request: (rng) => ({
      query: { bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } },
      sort: [{ '@timestamp': { order: 'desc' } }],
      size: 10,
    }),
    // Timestamps are unique in the corpus, so the top ids are fully determined.
    signal: (response) => ({ total: totalOf(response), ids: idsOf(response) }),
  },
  {
    id: 'query.paginate',
    group: 'query',
    family: 'pagination',
    title: 'page through a day (from 0-500, size 20, sort @timestamp)',
    endpoint: '_search',
    request: (rng) => ({
      query: { range: { '@timestamp': pickWindow(rng, 24, 24) } },
      sort: [{ '@timestamp': { order: 'asc' } }],
      from: rng.int(0, 25) * 20,
      size: 20,
    }),
    signal: (response) => ({ total: totalOf(response), ids: idsOf(response) }),
  },
  {
    id: 'feature.search_after',
    group: 'feature',
    breadth: true,
    family: 'search_after',
    title: 'search_after a random instant, 20 events of a model in @timestamp order',
    endpoint: '_search',
    request: (rng) => ({
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      sort: [{ '@timestamp': { order: 'asc' } }],
      search_after: [pickInstantMs(rng)],
      size: 20,
    }),
    signal: (response) => ({ total: totalOf(response), ids: idsOf(response) }),
  },
  {
    id: 'feature.sort_doc',
    group: 'feature',
    breadth: true,
    family: '_doc',
    title: 'sort by _doc (index order), 100 events of a window',
    endpoint: '_search',
    request: (rng) => ({
      query: { range: { '@timestamp': pickWindow(rng, 1, 24) } },
      sort: ['_doc'],
      size: 100,
    }),
    // Index order is engine-internal (segments, merges), so which 100 come first may differ: the
    // total and the page length must not.
    signal: (response) => ({ total: totalOf(response), lists: { page_length: [idsOf(response).length] } }),
  },
  {
    id: 'query.paginate_deep',
    group: 'query',
    breadth: true,
    family: 'pagination',
    title: 'deep page: from 500, size 10, in a 1-7 day window (sort @timestamp)',
    endpoint: '_search',
    request: (rng) => ({
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      sort: [{ '@timestamp': { order: 'asc' } }],
      from: 500,
      size: 10,
    }),
    signal: (response) => ({ total: totalOf(response), ids: idsOf(response) }),
  },
];
