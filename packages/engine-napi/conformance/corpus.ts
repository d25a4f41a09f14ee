/**
 * The conformance corpus: one fixed mapping and 300 documents generated from a fixed seed, so
 * both engines index exactly the same bytes on every run and case files can pin exact answers.
 */

export const INDEX = 'conf';

export const MAPPING = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
  mappings: {
    properties: {
      seq: { type: 'integer' }, // unique 0..299: the `_id`-free sort tiebreak every case uses
      status: { type: 'keyword' },
      host: { type: 'keyword' },
      tags: { type: 'keyword' }, // 0..3 values: exercises multi-valued fields
      title: { type: 'text' },
      summary: { type: 'text' }, // a few docs only: sentences long enough to cut into fragments
      bytes: { type: 'long' },
      price: { type: 'double' }, // missing on every 17th doc: exercises missing/exists
      retries: { type: 'integer' },
      ts: { type: 'date' },
      active: { type: 'boolean' },
    },
  },
};

export const DOC_COUNT = 300;

const STATUSES = ['ok', 'ok', 'ok', 'warn', 'error', 'info'];
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
const WORDS = [
  'quick',
  'brown',
  'fox',
  'lazy',
  'dog',
  'jumps',
  'over',
  'red',
  'blue',
  'search',
  'engine',
  'fast',
];
/**
 * Longer English texts for highlighting (sentence breaks, fragment_size cuts, several values),
 * on docs whose seq is 7 mod 50. Fixed strings, so the seeded generator's sequence (and every
 * other field) is unchanged. They avoid `quick`, which a case queries across all fields.
 */
const SUMMARIES: readonly (string | string[])[] = [
  'The swift brown fox jumps over the lazy dog. It was a sunny day in the forest, and the fox was very swift indeed. Nobody saw the dog again.',
  'Search engines index documents so that queries run fast. An inverted index maps each term to the documents that contain it; ranking then orders the matches by relevance, usually with BM25 or a similar formula.',
  'Red and blue are colours. Is the sky blue? Yes! The sea is blue too, but the sunset is red.',
  'e.g. the engine (a fast one) answers in milliseconds. Dr. Smith said so. "Fast engines win," he added.',
  'a very long sentence without any full stop that keeps going past the fragment size so that the highlighter has to cut it at word boundaries around the engine term somewhere in the middle and then goes on for a while longer',
  [
    'first value mentions the fox',
    'second value is about search engines',
    'third value has nothing of interest',
  ],
];
const START_MS = Date.UTC(2024, 0, 1);
const HOUR_MS = 3_600_000;

/** Park–Miller minimal standard generator: tiny, deterministic, good enough for test data. */
export function rng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

export interface CorpusDoc {
  id: string;
  source: Record<string, unknown>;
}

export function corpus(): CorpusDoc[] {
  const next = rng(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return Array.from({ length: DOC_COUNT }, (_, seq) => {
    const words = Array.from({ length: 3 + Math.floor(next() * 4) }, () => pick(WORDS));
    const tagCount = Math.floor(next() * 4);
    const tags = [...new Set(Array.from({ length: tagCount }, () => pick(TAGS)))].sort();
    const source: Record<string, unknown> = {
      seq,
      status: pick(STATUSES),
      host: `host-${String(Math.floor(next() * 12)).padStart(2, '0')}`,
      tags,
      title: words.join(' '),
      bytes: Math.floor(next() * 100_000),
      retries: Math.floor(next() * 10),
      // About 29 hours apart plus jitter: spans a year, crossing month and DST-free UTC edges.
      ts: new Date(START_MS + seq * 29 * HOUR_MS + Math.floor(next() * 60) * 60_000).toISOString(),
      active: next() < 0.6,
    };
    if (seq % 17 !== 0) source.price = Math.round(next() * 50_000) / 100;
    if (seq % 50 === 7) source.summary = SUMMARIES[Math.floor(seq / 50)];
    return { id: `doc-${String(seq).padStart(3, '0')}`, source };
  });
}

/** The corpus as one `_bulk` NDJSON body with explicit `_id`s. */
export function bulkBody(): string {
  return corpus()
    .map((d) => `${JSON.stringify({ index: { _index: INDEX, _id: d.id } })}\n${JSON.stringify(d.source)}\n`)
    .join('');
}
