import { existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { prepareBulk } from '../corpus/bulk.js';
import type { CorpusSpec } from '../corpus/corpora.js';
import { alignedIndexBody } from '../corpus/similarity.js';
import { CANDIDATE_SERVER, startCandidate } from '../engines/candidate.js';
import { freePort } from '../engines/ports.js';
import { Side } from '../load/side.js';
import { loadUntimed } from '../measure/ingest.js';
import { DEFAULT_SETTINGS } from '../model/settings.js';

/**
 * The index the count replays requests against: the corpus loaded into a candidate data directory
 * the way the bench loads it (the candidate's own HTTP service, `_bulk` batches of the bench's
 * size, `_refresh`, `_count` checked), then the service stopped so the data directory is at rest.
 * Every count then opens a copy of it, so two builds (or two runs of one build) read the very same
 * segments: the count of a row cannot differ by how a load happened to split them.
 */
export interface CorpusIndexSpec {
  corpus: CorpusSpec;
  docs: number;
  seed: number;
  bulkSize?: number;
}

/**
 * The candidate's index as the default bench builds it: scored on the legacy BM25 scale of the
 * OpenSearch 2.19 baseline the harness starts (corpus/similarity.ts), so scored rows run the
 * same similarity the bench's candidate does.
 */
export const REFERENCE_BASELINE = 'OpenSearch 2.19.1';

const KEY_FILE = 'workcount-index.json';

/**
 * Load the corpus through the service at `server` into `dir` (reused when it already holds this
 * corpus, size and seed). Returns the data directory.
 */
export async function buildCorpusIndex(
  spec: CorpusIndexSpec,
  dir: string,
  server: string | undefined,
  log: (line: string) => void,
): Promise<string> {
  const key = JSON.stringify({
    corpus: spec.corpus.id,
    docs: spec.docs,
    seed: spec.seed,
    bulkSize: spec.bulkSize,
    build: buildStamp(server ?? CANDIDATE_SERVER),
  });
  const data = join(dir, 'data');
  if (existsSync(join(dir, KEY_FILE)) && (await readFile(join(dir, KEY_FILE), 'utf8')) === key) {
    log(`index: reusing ${data}`);
    return data;
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const settings = {
    ...DEFAULT_SETTINGS,
    docs: spec.docs,
    seed: spec.seed,
    bulkSize: spec.bulkSize ?? DEFAULT_SETTINGS.bulkSize,
  };
  const corpus = prepareBulk(
    spec.corpus.documents(spec.seed, spec.docs),
    settings.bulkSize,
    spec.corpus.indexBody,
  );
  const engine = await startCandidate({
    ...(server ? { server } : {}),
    dataDir: data,
    logFile: join(dir, 'engine.log'),
    port: await freePort(),
  });
  try {
    const aligned = alignedIndexBody(spec.corpus.indexBody, engine.product, REFERENCE_BASELINE);
    corpus.indexBodies = { candidate: aligned.body };
    const side = new Side(engine, 1, settings.timeoutMs, new AbortController().signal);
    const t0 = performance.now();
    await loadUntimed(side, corpus, spec.corpus.index, settings);
    log(
      `index: ${corpus.docs} ${spec.corpus.id} documents loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    await engine.stop();
  }
  await writeFile(join(dir, KEY_FILE), key);
  return data;
}

/**
 * Which build loads the index: its addon files' sizes and times. An index another build loaded is
 * loaded again (its segments are that build's: another ingest path would count other work).
 */
function buildStamp(server: string): string {
  const pkg = dirname(dirname(server));
  if (!existsSync(pkg)) return server;
  const addons = readdirSync(pkg).filter((f) => f.endsWith('.node'));
  return [
    server,
    ...addons.map((f) => `${f}:${statSync(join(pkg, f)).size}:${statSync(join(pkg, f)).mtimeMs}`),
  ].join(' ');
}

/** A private copy of the data directory for one count (the engine takes a lock on its folder). */
export async function copyIndex(data: string, to: string): Promise<string> {
  await rm(to, { recursive: true, force: true });
  await cp(data, to, { recursive: true });
  await rm(join(to, 'engine.lock'), { force: true });
  return to;
}
