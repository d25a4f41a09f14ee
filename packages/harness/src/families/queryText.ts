import { STATUSES } from '../corpus/vocabulary.js';
import { pickMisspelledWord, pickPhrase, pickStatus, pickWord } from './params.js';
import { totalOf } from './signal.js';
import type { Family } from './types.js';

/**
 * Full-text query rows on `message`. They are scored and have no deterministic order, so (as in
 * `query.match`) only the hit totals must agree: scores and tie order are engine-specific.
 */

const totalOnly = (response: unknown) => ({ total: totalOf(response) });

function textFamily(id: string, title: string, query: Family['request']): Family {
  return {
    id: `query.${id}`,
    group: 'query',
    breadth: true,
    family: id,
    title,
    endpoint: '_search',
    request: (rng) => ({ query: query(rng), size: 10 }),
    signal: totalOnly,
  };
}

export const TEXT_QUERY_FAMILIES: readonly Family[] = [
  textFamily('match_phrase', 'match_phrase on message (2-3 words of a real error phrase)', (rng) => ({
    match_phrase: { message: pickPhrase(rng) },
  })),
  textFamily(
    'match_phrase_prefix',
    'match_phrase_prefix on message (phrase, last word cut to 3+ letters)',
    (rng) => {
      const words = pickPhrase(rng).split(' ');
      const last = words.pop() as string;
      const cut = last.slice(0, Math.max(3, Math.ceil(last.length / 2)));
      return { match_phrase_prefix: { message: [...words, cut].join(' ') } };
    },
  ),
  textFamily('multi_match', 'multi_match best_fields over message and status', (rng) => ({
    multi_match: {
      // Status names also occur in error phrases ("timeout"), so both fields contribute.
      query: rng.float() < 0.3 ? rng.pick(STATUSES).name : pickWord(rng),
      fields: ['message', 'status'],
      type: 'best_fields',
    },
  })),
  textFamily('fuzzy', 'fuzzy on message (a corpus word with one letter changed, fuzziness 1)', (rng) => ({
    fuzzy: { message: { value: pickMisspelledWord(rng), fuzziness: 1 } },
  })),
  textFamily(
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
  textFamily('boosting', 'boosting: match a word, demote status ok (negative_boost 0.2)', (rng) => ({
    boosting: {
      positive: { match: { message: pickWord(rng) } },
      negative: { term: { status: pickStatus(rng) } },
      negative_boost: 0.2,
    },
  })),
  textFamily('dis_max', 'dis_max over a message match and a status term (tie_breaker 0.3)', (rng) => ({
    dis_max: {
      queries: [
        { match: { message: pickWord(rng) } },
        { term: { status: rng.pick(STATUSES.slice(1)).name } },
      ],
      tie_breaker: 0.3,
    },
  })),
];
