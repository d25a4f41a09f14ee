import { LATEST_FIRST, pickTenant, pickWord } from './params.js';
import { idsOf, totalOf } from './signals/core.js';
import { highlightsOf, sourcesOf } from './signals/hits.js';
import type { Family } from './types.js';

/**
 * What a hit carries back besides its id: filtered `_source`, highlighted fragments. Both sort on
 * the unique @timestamp, so the hits are fixed and what each carries must agree exactly.
 */

const SOURCE_SHAPES = [
  ['model', 'latency_ms'],
  ['tenant', 'status', 'cost_usd'],
  { includes: ['model', 'provider', 'region'], excludes: ['provider'] },
  { excludes: ['message'] },
] as const;

export const HIT_CONTENT_ROWS: readonly Family[] = [
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
    id: 'feature.highlight',
    group: 'feature',
    breadth: true,
    family: 'highlight',
    title: 'highlight: a word matched in message, fragments of the latest 10 events that hold it',
    endpoint: '_search',
    request: (rng) => ({
      query: { match: { message: pickWord(rng) } },
      sort: LATEST_FIRST,
      size: 10,
      highlight: { fields: { message: {} } },
    }),
    // The sort on the unique @timestamp fixes the hits; each hit's fragments must then agree.
    signal: (response) => ({
      total: totalOf(response),
      ids: idsOf(response),
      lists: { highlights: highlightsOf(response, 'message') },
    }),
  },
];
