import {
  pickLatencyBand,
  pickModel,
  pickModels,
  pickStatus,
  pickTenant,
  pickWindow,
  pickWord,
} from './params.js';
import { countOf, idsOf, sourceValuesOf, totalOf } from './signal.js';
import type { Family } from './types.js';

/** Query rows: hit counts must agree; ids only where the sort makes the order unique. */

const totalOnly = (response: unknown) => ({ total: totalOf(response) });

export const QUERY_FAMILIES: readonly Family[] = [
  {
    id: 'query.match_all',
    group: 'query',
    family: 'match_all',
    title: 'match_all, first 10 hits',
    endpoint: '_search',
    request: () => ({ query: { match_all: {} }, size: 10 }),
    signal: totalOnly,
  },
  {
    id: 'query.term',
    group: 'query',
    family: 'term',
    title: 'term on tenant (skewed)',
    endpoint: '_search',
    request: (rng) => ({ query: { term: { tenant: pickTenant(rng) } }, size: 10 }),
    signal: totalOnly,
  },
  {
    id: 'query.terms',
    group: 'query',
    family: 'terms',
    title: 'terms on 2-4 models',
    endpoint: '_search',
    request: (rng) => ({ query: { terms: { model: pickModels(rng, rng.int(2, 4)) } }, size: 10 }),
    signal: totalOnly,
  },
  {
    id: 'query.range_numeric',
    group: 'query',
    family: 'range',
    title: 'range on latency_ms',
    endpoint: '_search',
    request: (rng) => ({ query: { range: { latency_ms: pickLatencyBand(rng) } }, size: 10 }),
    signal: totalOnly,
  },
  {
    id: 'query.range_date',
    group: 'query',
    family: 'range',
    title: 'range on @timestamp (1-24 h window)',
    endpoint: '_search',
    request: (rng) => ({ query: { range: { '@timestamp': pickWindow(rng, 1, 24) } }, size: 10 }),
    signal: totalOnly,
  },
  {
    id: 'query.match',
    group: 'query',
    family: 'match',
    title: 'match on message (1-2 words)',
    endpoint: '_search',
    request: (rng) => {
      const words = rng.float() < 0.5 ? [pickWord(rng)] : [pickWord(rng), pickWord(rng)];
      return { query: { match: { message: words.join(' ') } }, size: 10 };
    },
    signal: totalOnly,
  },
  {
    id: 'query.bool',
    group: 'query',
    family: 'bool',
    title: 'bool: must match + filter model and window + must_not status',
    endpoint: '_search',
    request: (rng) => ({
      query: {
        bool: {
          must: [{ match: { message: pickWord(rng) } }],
          filter: [
            { term: { model: pickModel(rng) } },
            { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
          ],
          must_not: [{ term: { status: pickStatus(rng) } }],
        },
      },
      size: 10,
    }),
    signal: totalOnly,
  },
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
    id: 'query.count',
    group: 'query',
    family: 'count',
    title: '_count of a status for a model',
    endpoint: '_count',
    request: (rng) => ({
      query: {
        bool: { filter: [{ term: { status: pickStatus(rng) } }, { term: { model: pickModel(rng) } }] },
      },
    }),
    signal: (response) => ({ count: countOf(response) }),
  },
];
