/**
 * Differential conformance: every case in cases/*.json runs against the candidate server and a
 * real OpenSearch 2.19.1 seeded with the same corpus. A case proves two things: its pinned
 * expectations hold on the baseline (so the case file is right), and the candidate's answer
 * matches the baseline's. Writes RESULTS.md; fails when the candidate's pass count per family
 * drops below the committed RESULTS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startOpenSearch } from '../../harness/src/engines/opensearch.js';
import type { RunningEngine } from '../../harness/src/engines/types.js';
import { type RunningServer, startServer } from '../test/server-process.js';
import { type ConformanceCase, loadFamilies, requestInit } from './cases.js';
import { firstDifference, project, type Reply, unmetExpectation } from './compare.js';
import { bulkBody, DOC_COUNT, INDEX, MAPPING } from './corpus.js';
import { NESTED_INDEX, NESTED_MAPPING, nestedBulkBody } from './nestedCorpus.js';
import { type CaseOutcome, committedFloor, countByFamily, renderResults, writeResults } from './results.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const RESULTS = join(HERE, 'RESULTS.md');
const FAMILIES = loadFamilies(join(HERE, 'cases'));
/** Exact comparison for exact algorithms; doubles summed in another order differ in the last bits. */
const DEFAULT_TOLERANCE = 1e-9;

async function send(base: string, c: ConformanceCase): Promise<Reply> {
  const res = await fetch(base + c.path, requestInit(c));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    // Non-JSON bodies (ES answers some errors with a bare string) are compared as text.
  }
  return { status: res.status, body };
}

/** Replies over 1 MB (runaway bucket lists) are summarised so the dump stays writable. */
function dumpable(reply: Reply): Reply {
  const size = JSON.stringify(reply.body)?.length ?? 0;
  return size > 1_000_000 ? { status: reply.status, body: `<${size} characters>` } : reply;
}

/** Creates `indexes` with `mapping`, then sends `bulk` (its lines name their index) with a refresh. */
async function createAndLoad(base: string, indexes: string[], mapping: unknown, bulk: string): Promise<void> {
  for (const index of indexes) {
    const created = await send(base, { name: 'create', method: 'PUT', path: `/${index}`, body: mapping });
    if (created.status !== 200)
      throw new Error(`${base}: creating ${index}: ${JSON.stringify(created.body)}`);
  }
  const res = await fetch(`${base}/_bulk?refresh=true`, {
    method: 'POST',
    body: bulk,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  const reply = (await res.json()) as { errors?: boolean };
  if (res.status !== 200 || reply.errors)
    throw new Error(
      `${base}: bulk into ${indexes.join(', ')} failed: ${JSON.stringify(reply).slice(0, 500)}`,
    );
}

/** The main corpus (plus the empty `_rw` index the write cases use), then the nested posts (`nestedCorpus.ts`). */
async function seed(base: string): Promise<void> {
  await createAndLoad(base, [INDEX, `${INDEX}_rw`], MAPPING, bulkBody());
  const count = (await send(base, { name: 'count', method: 'GET', path: `/${INDEX}/_count` })).body as {
    count?: number;
  };
  if (count.count !== DOC_COUNT)
    throw new Error(`${base}: expected ${DOC_COUNT} docs, counted ${count.count}`);
  await createAndLoad(base, [NESTED_INDEX], NESTED_MAPPING, nestedBulkBody());
}

describe('conformance: candidate vs OpenSearch 2.19.1', () => {
  let dir: string;
  let candidate: RunningServer | undefined;
  let baseline: RunningEngine | undefined;
  const outcomes: CaseOutcome[] = [];
  // CONFORMANCE_DUMP=<file> writes both engines' raw replies: how a new case's expectations are read.
  const dumped: unknown[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-conformance-'));
    [candidate, baseline] = await Promise.all([
      startServer(join(dir, 'candidate')),
      freePort().then((port) =>
        startOpenSearch({
          port,
          dataDir: join(dir, 'baseline'),
          logFile: join(dir, 'baseline.log'),
          heapMb: 512,
        }),
      ),
    ]);
    await Promise.all([seed(candidate.url), seed(baseline.url)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([candidate?.stop(), baseline?.stop()]);
    if (process.env.CONFORMANCE_DUMP)
      writeFileSync(process.env.CONFORMANCE_DUMP, JSON.stringify(dumped, null, 1));
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  for (const { family, cases } of FAMILIES) {
    it(`${family}: pinned expectations hold on the baseline`, async () => {
      const base = baseline as RunningEngine;
      const cand = candidate as RunningServer;
      for (const c of cases) {
        // Sequential on purpose: write cases (features) must see each other's effects in order.
        const [theirs, ours] = [await send(base.url, c), await send(cand.url, c)];
        const tolerance = c.tolerance ?? DEFAULT_TOLERANCE;
        const baselineProblem = unmetExpectation(theirs, c.expect ?? {}, tolerance);
        const candidateProblem =
          firstDifference(project(ours), project(theirs), tolerance) ??
          unmetExpectation(ours, c.expect ?? {}, tolerance);
        outcomes.push({ family, name: c.name, baselineProblem, candidateProblem, note: c.note });
        dumped.push({ family, name: c.name, baseline: dumpable(theirs), candidate: dumpable(ours) });
      }
      const wrong = outcomes.filter((o) => o.family === family && o.baselineProblem);
      expect(wrong.map((o) => `${o.name}: ${o.baselineProblem}`)).toEqual([]);
    }, 60_000);
  }

  it('candidate pass counts per family do not drop below RESULTS.md', () => {
    const counts = countByFamily(outcomes);
    const floor = committedFloor(RESULTS);
    const drops = counts
      .filter((c) => c.candidate < (floor.get(c.family) ?? 0))
      .map((c) => `${c.family}: ${c.candidate} < committed ${floor.get(c.family)}`);
    // Only a run that holds the line rewrites the table, so a drop cannot become the new floor.
    if (drops.length === 0) writeResults(RESULTS, renderResults(counts, outcomes));
    for (const o of outcomes.filter((x) => x.candidateProblem)) {
      console.log(`differs: ${o.family} / ${o.name}: ${o.candidateProblem}`);
    }
    expect(drops).toEqual([]);
  });
});
