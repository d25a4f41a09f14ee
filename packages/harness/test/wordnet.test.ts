import { describe, expect, it } from 'vitest';
import { loadSynsets, parseDataLine, wordnetCorpus } from '../src/corpus/wordnet.js';
import { WORDNET_FAMILIES } from '../src/families/corpora/wordnet.js';
import { Rng } from '../src/rng.js';

describe('the wordnet corpus', () => {
  it('parses a data line: words, lexicographer file, pointers, definition and examples', () => {
    const s = parseDataLine(
      '00002137 03 n 02 abstraction 0 abstract_entity 0 001 @ 00001740 n 0000 | a general concept; "a good abstraction"; "another one"  ',
      'noun',
    );
    expect(s).toEqual({
      synset: 'n00002137',
      pos: 'noun',
      lexname: 'noun.Tops',
      words: ['abstraction', 'abstract entity'],
      lemma: 'abstraction abstract entity',
      gloss: 'a general concept',
      examples: 'a good abstraction another one',
      pointers: 1,
      word_count: 2,
    });
  });

  it('drops adjective position markers from words', () => {
    const s = parseDataLine('00004413 00 a 01 sole(p) 0 000 | being the only one', 'adj');
    expect(s.words).toEqual(['sole']);
    expect(s.lexname).toBe('adj.all');
  });

  it('rejects a malformed line with a message', () => {
    expect(() => parseDataLine('garbage without a gloss', 'noun')).toThrow(/no gloss/);
  });

  it('loads all 117,791 synsets of WordNet 3.1 in one fixed order with unique ids', () => {
    const all = loadSynsets();
    expect(all).toHaveLength(117_791);
    expect(new Set(all.map((s) => s.synset)).size).toBe(all.length);
    const again = [...wordnetCorpus(5)].map((d) => d.id);
    expect(again).toEqual(all.slice(0, 5).map((s) => s.synset));
    // The shuffled order mixes parts of speech in any prefix.
    expect(new Set(all.slice(0, 1000).map((s) => s.pos)).size).toBe(4);
  });

  it('asks for fewer documents than it has, with the fix in the message', () => {
    expect(() => [...wordnetCorpus(200_000)]).toThrow(/use --docs 117791 or fewer/);
  });
});

describe('the wordnet rows', () => {
  it('draw phrases that occur in the corpus and are deterministic per seed', () => {
    const phrase = WORDNET_FAMILIES.find((f) => f.id === 'text.match_phrase');
    if (!phrase) throw new Error('text.match_phrase is missing');
    const glosses = loadSynsets()
      .slice(0, 10_000)
      .map((s) => (s.gloss.toLowerCase().match(/[a-z0-9]+/g) ?? []).join(' '));
    for (let i = 0; i < 20; i++) {
      const body = phrase.request(new Rng(i)) as { query: { match_phrase: { gloss: string } } };
      const text = body.query.match_phrase.gloss;
      expect(glosses.some((g) => ` ${g} `.includes(` ${text} `))).toBe(true);
      expect(phrase.request(new Rng(i))).toEqual(body);
    }
  });

  it('every row builds a request with a query or aggregation, and ids are unique', () => {
    const rng = new Rng(7);
    for (const f of WORDNET_FAMILIES) {
      const body = f.request(rng);
      expect(body.query ?? body.aggs, f.id).toBeDefined();
    }
    expect(new Set(WORDNET_FAMILIES.map((f) => f.id)).size).toBe(WORDNET_FAMILIES.length);
  });
});
