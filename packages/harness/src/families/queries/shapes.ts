import { LATEST_FIRST } from '../params.js';
import { totalAndIds } from '../signals/core.js';
import { totalAndScores } from '../signals/hits.js';
import type { Family } from '../types.js';

/**
 * A non-scored (or constant-score) query row, sorted on @timestamp: unique in the corpus, so the
 * top ids are fully determined and must agree along with the totals.
 */
export function latestFirstQuery(
  id: string,
  family: string,
  title: string,
  query: Family['request'],
): Family {
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

/**
 * A scored query row, first 10 hits: totals, scores and the ids of each run of tied scores must
 * agree (families/compare.ts); only the order within a tie is engine-specific.
 */
export function scoredQuery(id: string, title: string, query: Family['request']): Family {
  return {
    id: `query.${id}`,
    group: 'query',
    breadth: true,
    family: id,
    title,
    endpoint: '_search',
    request: (rng) => ({ query: query(rng), size: 10 }),
    signal: totalAndScores,
  };
}
