import { STATUSES } from '../../corpus/vocabulary.js';
import type { Rng } from '../../rng.js';
import { breadthQuery } from '../define.js';
import { LATEST_FIRST, pickMisspelledWord, pickPhrase, pickStatus, pickWord } from '../params.js';
import { totalAndIds, totalOf } from '../signals/core.js';
import { totalAndScores } from '../signals/hits.js';
import type { Family } from '../types.js';
import { scoredQuery } from './shapes.js';

/**
 * Full-text queries on `message` (analyzed text). What each row compares, and why:
 * - scored rows compare hit totals and the scored page: scores to float precision, and the ids of
 *   each run of tied scores (the order inside a tie is engine-specific);
 * - rows whose match set is fully determined (query_string, more_like_this) sort on the unique
 *   @timestamp, so totals AND top ids must agree.
 */

/** 2-3 words of an error phrase with the last cut to its first 3+ letters (a prefix to expand). */
function phraseWithPrefix(rng: Rng): string {
  const words = pickPhrase(rng).split(' ');
  const last = words.pop() as string;
  return [...words, last.slice(0, Math.max(3, Math.ceil(last.length / 2)))].join(' ');
}

export const FULL_TEXT_ROWS: readonly Family[] = [
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
    signal: totalAndScores,
  },
  scoredQuery('match_phrase', 'match_phrase on message (2-3 words of a real error phrase)', (rng) => ({
    match_phrase: { message: pickPhrase(rng) },
  })),
  scoredQuery(
    'match_phrase_prefix',
    'match_phrase_prefix on message (phrase, last word cut to 3+ letters)',
    (rng) => ({ match_phrase_prefix: { message: phraseWithPrefix(rng) } }),
  ),
  scoredQuery('multi_match', 'multi_match best_fields over message and status', (rng) => ({
    multi_match: {
      // Status names also occur in error phrases ("timeout"), so both fields contribute.
      query: rng.float() < 0.3 ? rng.pick(STATUSES).name : pickWord(rng),
      fields: ['message', 'status'],
      type: 'best_fields',
    },
  })),
  scoredQuery('fuzzy', 'fuzzy on message (a corpus word with one letter changed, fuzziness 1)', (rng) => ({
    fuzzy: { message: { value: pickMisspelledWord(rng), fuzziness: 1 } },
  })),
  scoredQuery(
    'simple_query_string',
    'simple_query_string: word AND word NOT word over message (default_operator and)',
    (rng) => ({
      simple_query_string: {
        query: `${pickWord(rng)} ${pickWord(rng)} -${pickWord(rng)}`,
        fields: ['message'],
        default_operator: 'and',
      },
    }),
  ),
  breadthQuery({
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
  breadthQuery({
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
  breadthQuery({
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
  breadthQuery({
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
