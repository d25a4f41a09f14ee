import { createHash } from 'node:crypto';
import type { EngineRole } from '../engines/types.js';
import { INDEX_BODY } from './mapping.js';

export interface BulkBatch {
  /**
   * NDJSON body for POST /<index>/_bulk, newline-terminated, as UTF-8 bytes: a Buffer lives
   * outside V8's heap, so ten million documents (~3.6 GB of bodies) fit where strings would
   * pass the heap's ~4 GB limit, and undici writes it without re-encoding.
   */
  body: Buffer;
  docs: number;
}

export interface PreparedCorpus {
  batches: BulkBatch[];
  docs: number;
  /** sha256 of the concatenated bulk NDJSON (independent of batch size): proves both runs used the same data. */
  contentHash: string;
  /** The index settings and mapping these documents go into (PUT /<index>). */
  indexBody: object;
  /**
   * The body an engine in a given role gets instead, when it needs a setting to score like the
   * baseline (corpus/similarity.ts); set once the engines are known.
   */
  indexBodies?: Partial<Record<EngineRole, object>>;
  /** What each engine's index was given to score on the baseline's scale, for the manifest. */
  indexBodyNotes?: Partial<Record<EngineRole, string>>;
}

/** The index body for the engine in `role`: its aligned body if it has one, else the corpus's. */
export const indexBodyFor = (corpus: PreparedCorpus, role: EngineRole): object =>
  corpus.indexBodies?.[role] ?? corpus.indexBody;

/** Build every bulk body before the clock starts, so timing measures the engines, not JSON.stringify. */
export function prepareBulk(
  corpus: Iterable<{ id: string; source: object }>,
  batchSize: number,
  indexBody: object = INDEX_BODY,
): PreparedCorpus {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`batch size must be a positive integer, got ${batchSize}`);
  const hash = createHash('sha256');
  const batches: BulkBatch[] = [];
  let lines: string[] = [];
  let inBatch = 0;
  let docs = 0;
  const flush = () => {
    if (inBatch === 0) return;
    const body = Buffer.from(lines.join(''), 'utf8');
    hash.update(body);
    batches.push({ body, docs: inBatch });
    lines = [];
    inBatch = 0;
  };
  for (const doc of corpus) {
    lines.push(`${JSON.stringify({ index: { _id: doc.id } })}\n${JSON.stringify(doc.source)}\n`);
    inBatch++;
    docs++;
    if (inBatch === batchSize) flush();
  }
  flush();
  return { batches, docs, contentHash: hash.digest('hex'), indexBody };
}
