import { pickDocIds, pickInstantMs, pickModel, pickTenant } from './params.js';
import { idsOf, totalOf } from './signal.js';
import type { Family } from './types.js';

/**
 * Non-scored (or constant-score) query rows. Each sorts on @timestamp, unique in the corpus, so
 * the top ids are fully determined and must agree along with the totals.
 */

const LATEST_FIRST = [{ '@timestamp': { order: 'desc' } }];
const totalAndIds = (response: unknown) => ({ total: totalOf(response), ids: idsOf(response) });

function structuredFamily(id: string, family: string, title: string, query: Family['request']): Family {
  return {
    id: `query.${id}`,
    group: 'query',
    breadth: true,
    family,
    title,
    endpoint: '_search',
    request: (rng) => ({ query: query(rng), sort: LATEST_FIRST, size: 10 }),
    signal: totalAndIds,
  };
}

/** An ISO minute inside the corpus, as the anchor of date math ("<anchor>||-6h/h"). */
const anchor = (ms: number) => new Date(ms).toISOString();

export const STRUCTURED_QUERY_FAMILIES: readonly Family[] = [
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
  structuredFamily('prefix', 'prefix', 'prefix on model (3-6 leading characters of a model name)', (rng) => {
    const model = pickModel(rng);
    return { prefix: { model: model.slice(0, rng.int(3, Math.min(6, model.length))) } };
  }),
  structuredFamily('wildcard', 'wildcard', 'wildcard on tenant (tenant-0?*<digit>)', (rng) => ({
    wildcard: { tenant: `tenant-0${rng.int(0, 4)}*${rng.int(0, 9)}` },
  })),
  structuredFamily('regexp', 'regexp', 'regexp on model (a model family and one or more -parts)', (rng) => {
    const family = pickModel(rng).split('-')[0] as string;
    return { regexp: { model: `${family}(-[a-z0-9.]+)+` } };
  }),
  structuredFamily('exists', 'exists', 'exists on a field, within a tenant', (rng) => ({
    bool: {
      filter: [
        { exists: { field: rng.pick(['latency_ms', 'cost_usd', 'region', 'message']) } },
        { term: { tenant: pickTenant(rng) } },
      ],
    },
  })),
  structuredFamily('ids', 'ids', 'ids: 5-20 event ids', (rng) => ({
    ids: { values: pickDocIds(rng, rng.int(5, 20)) },
  })),
  structuredFamily(
    'constant_score',
    'constant_score',
    'constant_score over a tenant term (boost 2)',
    (rng) => ({
      constant_score: { filter: { term: { tenant: pickTenant(rng) } }, boost: 2 },
    }),
  ),
  structuredFamily(
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
];
