import { loadSynsets, type Synset } from '../../corpus/wordnet.js';
import type { Rng } from '../../rng.js';
import { bucketsOf, totalOf } from '../signals/core.js';
import { highlightsOf, totalAndScores } from '../signals/hits.js';
import type { Family } from '../types.js';

/**
 * Full-text rows on a real text corpus (`--corpus wordnet`): WordNet's definitions and usage
 * examples. Query terms are drawn from the text of documents that are in the index (the first
 * SAMPLE_DOCS of the corpus order, indexed by any --docs >= SAMPLE_DOCS), so their frequencies
 * follow real English: a few very common words, a long tail of rare ones. Scored rows compare
 * hit totals and the scored page (scores, and the ids of each run of tied scores);
 * aggregations compare buckets.
 */

const SAMPLE_DOCS = 10_000;
/** Words shorter than this are mostly stopwords; real queries rarely consist of them alone. */
const MIN_WORD = 4;

function sample(rng: Rng): Synset {
  const all = loadSynsets();
  return all[rng.int(0, Math.min(SAMPLE_DOCS, all.length) - 1)] as Synset;
}

/** Lower-cased word tokens, roughly as the standard analyzer splits them. */
function tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** A gloss with at least `n` tokens (most have many; a few are one word). */
function glossTokens(rng: Rng, n: number): string[] {
  for (;;) {
    const t = tokens(sample(rng).gloss);
    if (t.length >= n) return t;
  }
}

function pickGlossWord(rng: Rng): string {
  for (;;) {
    const words = glossTokens(rng, 1).filter((w) => w.length >= MIN_WORD);
    if (words.length > 0) return rng.pick(words);
  }
}

/** `n` consecutive tokens of one real gloss: a phrase that exists in the index. */
function pickPhrase(rng: Rng, n: number): string[] {
  const t = glossTokens(rng, n);
  const at = rng.int(0, t.length - n);
  return t.slice(at, at + n);
}

/** Some words, then the first three letters of the next one (for the *_prefix queries). */
function pickPhraseWithPrefix(rng: Rng): string {
  for (;;) {
    const phrase = pickPhrase(rng, rng.int(2, 3));
    const last = phrase.pop() as string;
    if (last.length >= 3) return [...phrase, last.slice(0, 3)].join(' ');
  }
}

function textQuery(id: string, family: string, title: string, query: (rng: Rng) => unknown): Family {
  return {
    id: `text.${id}`,
    group: 'query',
    family,
    title: `${title} (wordnet)`,
    endpoint: '_search',
    request: (rng) => ({ query: query(rng), size: 10 }),
    signal: totalAndScores,
  };
}

export const WORDNET_FAMILIES: readonly Family[] = [
  textQuery('match', 'match', 'match on gloss, 1-2 real words', (rng) => ({
    match: { gloss: Array.from({ length: rng.int(1, 2) }, () => pickGlossWord(rng)).join(' ') },
  })),
  textQuery('match_and', 'match', 'match on gloss, two words of one gloss, operator and', (rng) => {
    const t = glossTokens(rng, 2).filter((w) => w.length >= MIN_WORD);
    const words = t.length >= 2 ? [rng.pick(t), rng.pick(t)] : [pickGlossWord(rng), pickGlossWord(rng)];
    return { match: { gloss: { query: words.join(' '), operator: 'and' } } };
  }),
  textQuery('match_phrase', 'match_phrase', 'match_phrase on gloss, 2-3 consecutive words', (rng) => ({
    match_phrase: { gloss: pickPhrase(rng, rng.int(2, 3)).join(' ') },
  })),
  // Every expansion of the 3-letter prefix (max_expansions 1,000, past any prefix's count in
  // WordNet's glosses): with ES's default 50, the terms kept are the first 50 met segment by
  // segment, so the answer depends on where each engine's segments fell, not on the engine.
  textQuery(
    'match_phrase_prefix',
    'match_phrase_prefix',
    'match_phrase_prefix on gloss, every expansion of the prefix',
    (rng) => ({
      match_phrase_prefix: { gloss: { query: pickPhraseWithPrefix(rng), max_expansions: 1000 } },
    }),
  ),
  textQuery('match_bool_prefix', 'match_bool_prefix', 'match_bool_prefix on gloss', (rng) => ({
    match_bool_prefix: { gloss: pickPhraseWithPrefix(rng) },
  })),
  textQuery('multi_match', 'multi_match', 'multi_match best_fields over lemma^2, gloss, examples', (rng) => ({
    multi_match: { query: pickGlossWord(rng), fields: ['lemma^2', 'gloss', 'examples'] },
  })),
  textQuery('combined_fields', 'combined_fields', 'combined_fields over lemma, gloss, examples', (rng) => ({
    combined_fields: {
      query: [pickGlossWord(rng), pickGlossWord(rng)].join(' '),
      fields: ['lemma', 'gloss', 'examples'],
    },
  })),
  textQuery('query_string', 'query_string', 'query_string: (gloss:a AND gloss:b) OR lemma:c', (rng) => ({
    query_string: {
      query: `(gloss:${pickGlossWord(rng)} AND gloss:${pickGlossWord(rng)}) OR lemma:${pickGlossWord(rng)}`,
    },
  })),
  textQuery('simple_query_string', 'simple_query_string', 'simple_query_string: "phrase" | word', (rng) => ({
    simple_query_string: {
      query: `"${pickPhrase(rng, 2).join(' ')}" | ${pickGlossWord(rng)}`,
      fields: ['gloss'],
    },
  })),
  textQuery('more_like_this', 'more_like_this', 'more_like_this: documents like a real gloss', (rng) => ({
    more_like_this: { fields: ['gloss'], like: sample(rng).gloss, min_term_freq: 1, min_doc_freq: 2 },
  })),
  textQuery('fuzzy', 'fuzzy', 'fuzzy on gloss: a real word with one letter changed', (rng) => {
    const word = pickGlossWord(rng);
    const at = rng.int(1, word.length - 1);
    const typo = `${word.slice(0, at)}${word[at] === 'e' ? 'a' : 'e'}${word.slice(at + 1)}`;
    return { fuzzy: { gloss: { value: typo, fuzziness: 'AUTO' } } };
  }),
  textQuery('prefix', 'prefix', 'prefix on words (first 3 letters of a real word)', (rng) => ({
    prefix: { words: rng.pick(sample(rng).words).slice(0, 3) },
  })),
  {
    id: 'text.terms_lexname',
    group: 'bucket',
    family: 'terms',
    title: 'terms by lexicographer file of the glosses matching a word (wordnet)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { match: { gloss: pickGlossWord(rng) } },
      // 45 lexicographer files: size 50 returns every bucket, so counts are exact on any engine.
      aggs: { by_lexname: { terms: { field: 'lexname', size: 50 } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { by_lexname: bucketsOf(response, 'by_lexname') },
    }),
  },
  {
    id: 'text.significant_text',
    group: 'bucket',
    family: 'significant_text',
    title: 'significant_text of the glosses of one lexicographer file (wordnet)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { term: { lexname: sample(rng).lexname } },
      aggs: { keywords: { significant_text: { field: 'gloss', size: 10 } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { keywords: bucketsOf(response, 'keywords') },
    }),
  },
  {
    id: 'text.highlight',
    group: 'feature',
    family: 'highlight',
    title: 'match on gloss with highlighted fragments (wordnet)',
    endpoint: '_search',
    request: (rng) => ({
      query: { match: { gloss: pickGlossWord(rng) } },
      size: 10,
      sort: [{ synset: 'asc' }],
      highlight: { fields: { gloss: {} } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      lists: { highlights: highlightsOf(response, 'gloss') },
    }),
  },
];
