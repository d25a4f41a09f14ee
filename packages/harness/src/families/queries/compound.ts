import { STATUSES } from '../../corpus/vocabulary.js';
import type { Rng } from '../../rng.js';
import { breadthQuery } from '../define.js';
import {
  pickDocIds,
  pickInstantMs,
  pickLatencyBand,
  pickModel,
  pickRegion,
  pickStatus,
  pickTenant,
  pickWindow,
  pickWord,
} from '../params.js';
import { totalAndIds, totalOf } from '../signals/core.js';
import { scoresOf, totalAndScores } from '../signals/hits.js';
import type { Family } from '../types.js';
import { latestFirstQuery, scoredQuery } from './shapes.js';

/**
 * Compound queries: clauses combined (bool, dis_max, boosting), scores replaced or reshaped
 * (constant_score, function_score) and results promoted (pinned). Scored rows compare totals and
 * their scored pages;
 * function_score replaces the text score with functions of field values, so its top scores are
 * determined and must agree to float precision (sorted, so tie order is free); pinned puts the
 * given ids first, in the given order: those ids must agree exactly.
 */

/**
 * Lucene computes a function score in double and stores the final score as a float (about 7
 * significant digits); 1e-5 relative leaves room for that rounding and the order functions are
 * combined in, and is far below what a wrong decay curve or modifier would change.
 */
export const FUNCTION_SCORE_TOLERANCE = 1e-5;

/** Distinct ids among the first 1000 documents, which exist in every corpus size the harness runs. */
function existingIds(rng: Rng, count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) out.add(pickDocIds(rng, 1, 1000)[0] as string);
  return [...out];
}

export const COMPOUND_ROWS: readonly Family[] = [
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
    signal: totalAndScores,
  },
  latestFirstQuery(
    'constant_score',
    'constant_score',
    'constant_score over a tenant term (boost 2)',
    (rng) => ({
      constant_score: { filter: { term: { tenant: pickTenant(rng) } }, boost: 2 },
    }),
  ),
  scoredQuery('boosting', 'boosting: match a word, demote status ok (negative_boost 0.2)', (rng) => ({
    boosting: {
      positive: { match: { message: pickWord(rng) } },
      negative: { term: { status: pickStatus(rng) } },
      negative_boost: 0.2,
    },
  })),
  scoredQuery('dis_max', 'dis_max over a message match and a status term (tie_breaker 0.3)', (rng) => ({
    dis_max: {
      queries: [
        { match: { message: pickWord(rng) } },
        { term: { status: rng.pick(STATUSES.slice(1)).name } },
      ],
      tie_breaker: 0.3,
    },
  })),
  breadthQuery({
    id: 'query.function_score',
    family: 'function_score',
    title:
      'function_score: field_value_factor(prompt_tokens, log1p) with a gauss decay on @timestamp, per tenant',
    request: (rng) => ({
      size: 10,
      query: {
        function_score: {
          // A constant query score of 1: every score below is the functions' and the modes'.
          query: { constant_score: { filter: { term: { tenant: pickTenant(rng) } } } },
          functions: [
            { field_value_factor: { field: 'prompt_tokens', factor: 1.2, modifier: 'log1p', missing: 1 } },
            {
              gauss: {
                '@timestamp': {
                  origin: new Date(pickInstantMs(rng)).toISOString(),
                  scale: rng.pick(['12h', '2d', '7d']),
                  offset: '1h',
                  decay: 0.5,
                },
              },
            },
          ],
          score_mode: rng.pick(['multiply', 'sum', 'avg', 'max', 'min']),
          boost_mode: rng.pick(['multiply', 'replace', 'sum']),
        },
      },
    }),
    signal: (response) => {
      const metrics = scoresOf(response);
      return {
        total: totalOf(response),
        metrics,
        tolerances: Object.fromEntries(Object.keys(metrics).map((k) => [k, FUNCTION_SCORE_TOLERANCE])),
      };
    },
  }),
  breadthQuery({
    id: 'query.pinned',
    family: 'pinned',
    // Elastic's pinned query (x-pack search-business-rules); OpenSearch 2.19 has none, so the
    // baseline refuses it and the row stays N/A until the baseline can answer it.
    title: 'pinned: 2-5 existing ids promoted above a tenant term, in the given order',
    request: (rng) => {
      const ids = existingIds(rng, rng.int(2, 5));
      return { size: ids.length, query: { pinned: { ids, organic: { term: { tenant: pickTenant(rng) } } } } };
    },
    // size = the pinned ids, which all exist: the page is exactly them, in the request's order.
    signal: totalAndIds,
  }),
  {
    id: 'query.bool_should',
    group: 'query',
    breadth: true,
    family: 'bool',
    title: 'bool: must match + filter model and window + should (status or slow, 1 of 2) + must_not region',
    endpoint: '_search',
    request: (rng) => ({
      query: {
        bool: {
          must: [{ match: { message: pickWord(rng) } }],
          filter: [
            { term: { model: pickModel(rng) } },
            { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
          ],
          should: [
            { term: { status: pickStatus(rng) } },
            { range: { latency_ms: { gte: pickLatencyBand(rng).gte } } },
          ],
          minimum_should_match: 1,
          must_not: [{ term: { region: pickRegion(rng) } }],
        },
      },
      size: 10,
    }),
    signal: totalAndScores,
  },
];
