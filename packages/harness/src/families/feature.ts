import { pickDocIds, pickInstantMs, pickModel, pickTenant, pickWindow } from './params.js';
import { arr, idsOf, obj, totalOf } from './signal.js';
import { canonicalJson, sourcesOf } from './signalAggs.js';
import type { Family } from './types.js';

/** Search features beyond queries and aggregations: source filtering, paging, multi-get/search. */

const SOURCE_SHAPES = [
  ['model', 'latency_ms'],
  ['tenant', 'status', 'cost_usd'],
  { includes: ['model', 'provider', 'region'], excludes: ['provider'] },
  { excludes: ['message'] },
] as const;

export const FEATURE_FAMILIES: readonly Family[] = [
  {
    id: 'feature.source_filtering',
    group: 'feature',
    breadth: true,
    family: '_source',
    title: '_source includes/excludes on the latest 10 events of a tenant',
    endpoint: '_search',
    request: (rng) => ({
      query: { bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } },
      sort: [{ '@timestamp': { order: 'desc' } }],
      _source: rng.pick(SOURCE_SHAPES),
      size: 10,
    }),
    // The order is determined (unique @timestamp), so each hit's filtered source must be identical.
    signal: (response) => ({
      total: totalOf(response),
      ids: idsOf(response),
      lists: { _source: sourcesOf(response) },
    }),
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
    id: 'feature.mget',
    group: 'feature',
    breadth: true,
    family: '_mget',
    title: '_mget of 5-50 event ids',
    endpoint: '_mget',
    request: (rng) => ({ ids: pickDocIds(rng, rng.int(5, 50)) }),
    signal: (response) => ({
      lists: {
        docs: arr(obj(response, 'body').docs, 'docs').map((d, i) => {
          const doc = obj(d, `docs[${i}]`);
          return `${String(doc._id)} ${doc.found === true ? canonicalJson(doc._source) : 'not found'}`;
        }),
      },
    }),
  },
  {
    id: 'feature.msearch',
    group: 'feature',
    breadth: true,
    family: '_msearch',
    title: '_msearch of 4 dashboard searches (tenant, model, window, tenant x window)',
    endpoint: '_msearch',
    request: (rng) => {
      const window = pickWindow(rng, 1, 24);
      const tenant = pickTenant(rng);
      return {
        searches: [
          { query: { term: { tenant } }, size: 0 },
          { query: { term: { model: pickModel(rng) } }, size: 0 },
          { query: { range: { '@timestamp': window } }, size: 0 },
          {
            query: { bool: { filter: [{ term: { tenant } }, { range: { '@timestamp': window } }] } },
            size: 0,
          },
        ],
      };
    },
    signal: (response) => ({
      lists: {
        totals: arr(obj(response, 'body').responses, 'responses').map((r, i) => {
          const error = obj(r, `responses[${i}]`).error;
          return error === undefined ? totalOf(r).value : `error: ${canonicalJson(error)}`;
        }),
      },
    }),
  },
];
