import type { Rng } from '../rng.js';
import { pickDocIds, pickInstantMs, pickPhrase, pickStatus, pickTenant, pickWord } from './params.js';
import { idsOf, totalOf } from './signal.js';
import { scoresOf } from './signalMore.js';
import type { Family, Signal } from './types.js';

/**
 * The rest of the query surface. What each row compares, and why:
 * - matches that are fully determined (query_string, more_like_this) sort on the unique
 *   @timestamp, so totals AND top ids must agree;
 * - scored full-text rows (match_bool_prefix, combined_fields) compare totals only: BM25 details
 *   and tie order are engine-specific;
 * - function_score replaces the text score with functions of field values, so its scores are
 *   determined: the top scores must agree to float precision (sorted, so tie order is free);
 * - pinned puts the given ids first, in the given order: those ids must agree exactly.
 */

const LATEST_FIRST = [{ '@timestamp': { order: 'desc' } }];
const totalAndIds = (response: unknown): Signal => ({ total: totalOf(response), ids: idsOf(response) });

/**
 * Lucene computes a function score in double and stores the final score as a float (about 7
 * significant digits); 1e-5 relative leaves room for that rounding and the order functions are
 * combined in, and is far below what a wrong decay curve or modifier would change.
 */
export const FUNCTION_SCORE_TOLERANCE = 1e-5;

const queryFamily = (f: Omit<Family, 'group' | 'endpoint' | 'breadth'>): Family => ({
  ...f,
  group: 'query',
  endpoint: '_search',
  breadth: true,
});

/** 2-3 words of an error phrase with the last cut to its first 3+ letters (a prefix to expand). */
function phraseWithPrefix(rng: Rng): string {
  const words = pickPhrase(rng).split(' ');
  const last = words.pop() as string;
  return [...words, last.slice(0, Math.max(3, Math.ceil(last.length / 2)))].join(' ');
}

/** Distinct ids among the first 1000 documents, which exist in every corpus size the harness runs. */
function existingIds(rng: Rng, count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) out.add(pickDocIds(rng, 1, 1000)[0] as string);
  return [...out];
}

export const MORE_QUERY_FAMILIES: readonly Family[] = [
  queryFamily({
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
  queryFamily({
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
  queryFamily({
    id: 'query.match_bool_prefix',
    family: 'match_bool_prefix',
    title: 'match_bool_prefix on message (error phrase words, last one a prefix; or / and)',
    request: (rng) => ({
      size: 10,
      query: {
        match_bool_prefix: { message: { query: phraseWithPrefix(rng), operator: rng.pick(['or', 'and']) } },
      },
    }),
    signal: (response) => ({ total: totalOf(response) }),
  }),
  queryFamily({
    id: 'query.combined_fields',
    family: 'combined_fields',
    title: 'combined_fields over message (two corpus words; or / and)',
    request: (rng) => ({
      size: 10,
      query: {
        combined_fields: {
          query: `${pickWord(rng)} ${pickWord(rng)}`,
          fields: ['message'],
          operator: rng.pick(['or', 'and']),
        },
      },
    }),
    signal: (response) => ({ total: totalOf(response) }),
  }),
  queryFamily({
    id: 'query.query_string',
    family: 'query_string',
    title: 'query_string: message words OR-ed, AND a status, AND a latency_ms range (Lucene syntax)',
    request: (rng) => {
      const status = pickStatus(rng);
      const gte = rng.pick([100, 500, 1000, 5000]);
      return {
        size: 10,
        sort: LATEST_FIRST,
        query: {
          query_string: {
            query: `message:(${pickWord(rng)} OR ${pickWord(rng)}) AND status:${status} AND latency_ms:[${gte} TO *]`,
          },
        },
      };
    },
    signal: totalAndIds,
  }),
  queryFamily({
    id: 'query.more_like_this',
    family: 'more_like_this',
    // Every term of the short `like` text is selected (fewer than max_query_terms, each seen once,
    // min_term_freq 1), so the match set is determined: totals and the @timestamp-sorted ids agree.
    title: 'more_like_this on message: like 3-5 corpus words (min_term_freq 1, half should match)',
    request: (rng) => ({
      size: 10,
      sort: LATEST_FIRST,
      query: {
        more_like_this: {
          fields: ['message'],
          like: Array.from({ length: rng.int(3, 5) }, () => pickWord(rng)).join(' '),
          min_term_freq: 1,
          min_doc_freq: 1,
          max_query_terms: 25,
          minimum_should_match: '50%',
        },
      },
    }),
    signal: totalAndIds,
  }),
];
