import {
  pickCostBand,
  pickDocIds,
  pickInstantMs,
  pickLatencyBand,
  pickModel,
  pickModels,
  pickStatus,
  pickTenant,
  pickWindow,
} from '../params.js';
import { countOf, totalAndIds } from '../signals/core.js';
import { totalAndScores } from '../signals/hits.js';
import type { Family } from '../types.js';
import { latestFirstQuery } from './shapes.js';

/**
 * Term-level queries: exact values of keyword, numeric, date and boolean fields (term, terms,
 * ranges, prefix, wildcard, regexp, exists, ids) and the fixed cost of a search (match_all,
 * match_none, _count). Not scored, or scored constantly: hit counts must agree, and ids where the
 * sort makes the order unique.
 */

/** An ISO minute inside the corpus, as the anchor of date math ("<anchor>||-6h/h"). */
const anchor = (ms: number) => new Date(ms).toISOString();

export const TERM_LEVEL_ROWS: readonly Family[] = [
  {
    id: 'query.match_all',
    group: 'query',
    family: 'match_all',
    title: 'match_all, first 10 hits',
    endpoint: '_search',
    request: () => ({ query: { match_all: {} }, size: 10 }),
    signal: totalAndScores,
  },
  {
    id: 'query.match_none',
    group: 'query',
    breadth: true,
    family: 'match_none',
    title: 'match_none (nothing matches; measures the fixed cost of a search)',
    endpoint: '_search',
    request: () => ({ query: { match_none: {} }, size: 10 }),
    signal: totalAndIds,
  },
  {
    id: 'query.term',
    group: 'query',
    family: 'term',
    title: 'term on tenant (skewed)',
    endpoint: '_search',
    request: (rng) => ({ query: { term: { tenant: pickTenant(rng) } }, size: 10 }),
    signal: totalAndScores,
  },
  {
    id: 'query.terms',
    group: 'query',
    family: 'terms',
    title: 'terms on 2-4 models',
    endpoint: '_search',
    request: (rng) => ({ query: { terms: { model: pickModels(rng, rng.int(2, 4)) } }, size: 10 }),
    signal: totalAndScores,
  },
  {
    id: 'query.range_numeric',
    group: 'query',
    family: 'range',
    title: 'range on latency_ms',
    endpoint: '_search',
    request: (rng) => ({ query: { range: { latency_ms: pickLatencyBand(rng) } }, size: 10 }),
    signal: totalAndScores,
  },
  {
    id: 'query.range_date',
    group: 'query',
    family: 'range',
    title: 'range on @timestamp (1-24 h window)',
    endpoint: '_search',
    request: (rng) => ({ query: { range: { '@timestamp': pickWindow(rng, 1, 24) } }, size: 10 }),
    signal: totalAndScores,
  },
  latestFirstQuery(
    'range_date_math',
    'range',
    'range on @timestamp with anchored date math and rounding (<t>||-Nh/h to <t>||/h)',
    (rng) => {
      const t = anchor(pickInstantMs(rng));
      const unit = rng.pick(['h', 'd'] as const);
      const back = unit === 'h' ? rng.int(1, 12) : rng.int(1, 3);
      return { range: { '@timestamp': { gte: `${t}||-${back}${unit}/${unit}`, lt: `${t}||/${unit}` } } };
    },
  ),
  latestFirstQuery('prefix', 'prefix', 'prefix on model (3-6 leading characters of a model name)', (rng) => {
    const model = pickModel(rng);
    return { prefix: { model: model.slice(0, rng.int(3, Math.min(6, model.length))) } };
  }),
  latestFirstQuery('wildcard', 'wildcard', 'wildcard on tenant (tenant-0?*<digit>)', (rng) => ({
    wildcard: { tenant: `tenant-0${rng.int(0, 4)}*${rng.int(0, 9)}` },
  })),
  latestFirstQuery('regexp', 'regexp', 'regexp on model (a model family and one or more -parts)', (rng) => {
    const family = pickModel(rng).split('-')[0] as string;
    return { regexp: { model: `${family}(-[a-z0-9.]+)+` } };
  }),
  latestFirstQuery('exists', 'exists', 'exists on a field, within a tenant', (rng) => ({
    bool: {
      filter: [
        { exists: { field: rng.pick(['latency_ms', 'cost_usd', 'region', 'message']) } },
        { term: { tenant: pickTenant(rng) } },
      ],
    },
  })),
  latestFirstQuery('ids', 'ids', 'ids: 5-20 event ids', (rng) => ({
    ids: { values: pickDocIds(rng, rng.int(5, 20)) },
  })),
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
  {
    id: 'query.range_double',
    group: 'query',
    breadth: true,
    family: 'range',
    title: 'range on cost_usd (a double: a band from $0.0001 to $0.1)',
    endpoint: '_search',
    request: (rng) => ({ query: { range: { cost_usd: pickCostBand(rng) } }, size: 10 }),
    signal: totalAndScores,
  },
  {
    id: 'query.term_boolean',
    group: 'query',
    breadth: true,
    family: 'term',
    title: 'term on cache_hit (a boolean: true on ~22% of calls)',
    endpoint: '_search',
    request: (rng) => ({ query: { term: { cache_hit: rng.pick([true, false]) } }, size: 10 }),
    signal: totalAndScores,
  },
];
