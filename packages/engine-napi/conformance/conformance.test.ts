/**
 * Differential conformance: every case in cases/*.json runs against the candidate server and a
 * real OpenSearch 2.19.1 seeded with the same corpus. A case proves two things: its pinned
 * expectations hold on the baseline (so the case file is right), and the candidate's answer
 * matches the baseline's (or, where a case pins Elasticsearch 8's answer, that one). Writes
 * RESULTS.md and results.json; fails when the candidate's pass count in any area drops below the
 * committed RESULTS.md.
 *
 * Environment knobs for writing cases:
 * - CONFORMANCE_ONLY=area,area runs only those areas (and leaves RESULTS.md alone);
 * - CONFORMANCE_PIN=1 replaces every `"<pin>"` expectation value with the baseline's answer and
 *   writes the case files back;
 * - CONFORMANCE_DUMP=<file> writes both engines' raw replies.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startOpenSearch } from '../../harness/src/engines/opensearch.js';
import type { RunningEngine } from '../../harness/src/engines/types.js';
import { type RunningServer, startServer } from '../test/server-process.js';
import { type ConformanceCase, type Family, loadFamilies, type Step, stepsOf } from './cases.js';
import { expectationValue, type Reply, unmetExpectation } from './compare.js';
import { bulkBody, DOC_COUNT, INDEX, MAPPING } from './corpus.js';
import { NESTED_INDEX, NESTED_MAPPING, nestedBulkBody } from './nestedCorpus.js';
import {
  type CaseOutcome,
  committedFloor,
  countByFamily,
  renderResults,
  summarise,
  writeResults,
} from './results.js';
import { candidateProblem, cleanUp, PIN, send, sharedSetup } from './runner.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const RESULTS = join(HERE, 'RESULTS.md');
const RESULTS_JSON = join(HERE, 'results.json');
const CASES = join(HERE, 'cases');
const ONLY = process.env.CONFORMANCE_ONLY?.split(',').filter((a) => a.length > 0);
const FAMILIES = loadFamilies(CASES).filter((f) => !ONLY || ONLY.includes(f.family));
const PINNING = process.env.CONFORMANCE_PIN === '1';
/** Exact comparison for exact algorithms; doubles summed in another order differ in the last bits. */
const DEFAULT_TOLERANCE = 1e-9;
const BASELINE_NAME = 'OpenSearch 2.19.1';
/** The indexes every run seeds; cleanup after a stateful case deletes every other one. */
const SEEDED = [INDEX, `${INDEX}_rw`, NESTED_INDEX];

/** Creates `indexes` with `mapping`, then sends `bulk` (its lines name their index) with a refresh. */
async function createAndLoad(base: string, indexes: string[], mapping: unknown, bulk: string): Promise<void> {
  for (const index of indexes) {
    const created = await send(base, { method: 'PUT', path: `/${index}`, body: mapping }, []);
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
  const count = (await send(base, { method: 'GET', path: `/${INDEX}/_count` }, [])).body as {
    count?: number;
  };
  if (count.count !== DOC_COUNT)
    throw new Error(`${base}: expected ${DOC_COUNT} docs, counted ${count.count}`);
  await createAndLoad(base, [NESTED_INDEX], NESTED_MAPPING, nestedBulkBody());
}

/**
 * Runs a case's requests in order on one engine (the candidate's variants where a step has them),
 * after `done`: the replies to its first steps when they were shared with the previous case.
 */
async function runSteps(
  base: string,
  c: ConformanceCase,
  isCandidate: boolean,
  done: Reply[],
): Promise<Reply[]> {
  const replies: Reply[] = [...done];
  for (const step of stepsOf(c).slice(done.length)) {
    const request = isCandidate && step.candidate ? { ...step, ...step.candidate } : step;
    replies.push(await send(base, request, replies));
  }
  return replies;
}

/** Replies over 1 MB (runaway bucket lists) are summarised so the dump stays writable. */
function dumpable(reply: Reply): Reply {
  const size = JSON.stringify(reply.body)?.length ?? 0;
  return size > 1_000_000 ? { status: reply.status, body: `<${size} characters>` } : reply;
}

/** Fills `"<pin>"` expectations of `step` from the baseline's reply. */
function pin(step: Step, theirs: Reply): void {
  for (const [path, value] of Object.entries(step.expect ?? {})) {
    if (value !== PIN) continue;
    const wanted = expectationValue(theirs, path, step.tiesInAnyOrder ? 'any' : 'engine');
    const expected = step.expect as Record<string, unknown>;
    if (wanted === undefined) {
      console.log(`pin: ${step.path}: ${path} is absent on the baseline`);
      delete expected[path];
    } else expected[path] = wanted;
  }
}

describe(`conformance: candidate vs ${BASELINE_NAME}`, () => {
  let dir: string;
  let candidate: RunningServer | undefined;
  let baseline: RunningEngine | undefined;
  const outcomes: CaseOutcome[] = [];
  const dumped: unknown[] = [];

  /** Runs one area's cases in order, recording an outcome per case. */
  async function runFamily({ family, cases }: Family): Promise<void> {
    const base = baseline as RunningEngine;
    const cand = candidate as RunningServer;
    // What the last stateful case left in place when its setup may be shared (see sharedSetup).
    let left: { key: string; theirs: Reply[]; ours: Reply[] } | undefined;
    let dirty = false;
    const clean = async (): Promise<void> => {
      if (dirty) await Promise.all([cleanUp(base.url, SEEDED, true), cleanUp(cand.url, SEEDED, false)]);
      dirty = false;
      left = undefined;
    };
    for (const c of cases) {
      // Cases run one after another (single-request write cases see each other's effects in
      // order); the two engines answer each case at the same time.
      const setup = c.steps ? sharedSetup(c) : undefined;
      const reuse = setup !== undefined && left?.key === setup.key;
      if (c.steps && !reuse) await clean();
      const started = performance.now();
      const [theirs, ours] = await Promise.all([
        runSteps(base.url, c, false, reuse ? (left?.theirs ?? []) : []),
        runSteps(cand.url, c, true, reuse ? (left?.ours ?? []) : []),
      ]);
      const ms = Math.round(performance.now() - started);
      if (c.steps) {
        dirty = true;
        if (setup && !reuse)
          left = { key: setup.key, theirs: theirs.slice(0, setup.length), ours: ours.slice(0, setup.length) };
        if (!setup) await clean();
      }
      let baselineProblem: string | undefined;
      let problem: string | undefined;
      stepsOf(c).forEach((step, n) => {
        const at = c.steps ? `step ${n}: ` : '';
        const b = theirs[n] as Reply;
        const o = ours[n] as Reply;
        if (PINNING) pin(step, b);
        const tolerance = step.tolerance ?? c.tolerance ?? DEFAULT_TOLERANCE;
        const unmet = unmetExpectation(
          b,
          step.expect ?? {},
          tolerance,
          step.tiesInAnyOrder ? 'any' : 'engine',
        );
        if (unmet && !baselineProblem) baselineProblem = at + unmet;
        const diff = candidateProblem(step, o, b, tolerance);
        if (diff && !problem) problem = at + diff;
      });
      outcomes.push({
        family,
        name: c.name,
        baselineProblem,
        candidateProblem: problem,
        note: c.note,
        accepted: c.accepted,
        missing: c.missing,
      });
      dumped.push({
        family,
        name: c.name,
        ms,
        baseline: theirs.map(dumpable),
        candidate: ours.map(dumpable),
      });
    }
    await clean();
    if (PINNING) writeFileSync(join(CASES, `${family}.json`), `${JSON.stringify(cases, null, 2)}\n`);
  }

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
    // Two lanes at once: the areas with stateful cases (their cleanup deletes every index but the
    // seeded ones, so they must not overlap each other), and the areas of single requests.
    const stateful = FAMILIES.filter((f) => f.cases.some((c) => c.steps));
    const single = FAMILIES.filter((f) => !stateful.includes(f));
    await Promise.all(
      [stateful, single].map(async (lane) => {
        for (const family of lane) await runFamily(family);
      }),
    );
    const order = FAMILIES.map((f) => f.family);
    outcomes.sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family));
  }, 900_000);

  afterAll(async () => {
    await Promise.all([candidate?.stop(), baseline?.stop()]);
    if (process.env.CONFORMANCE_DUMP)
      writeFileSync(process.env.CONFORMANCE_DUMP, JSON.stringify(dumped, null, 1));
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  for (const { family } of FAMILIES) {
    it(`${family}: pinned expectations hold on the baseline`, () => {
      const wrong = outcomes.filter((o) => o.family === family && o.baselineProblem);
      expect(wrong.map((o) => `${o.name}: ${o.baselineProblem}`)).toEqual([]);
    });
  }

  it('candidate pass counts per area do not drop below RESULTS.md', () => {
    const counts = countByFamily(outcomes);
    const floor = committedFloor(RESULTS);
    const drops = counts
      .filter((c) => c.candidate < (floor.get(c.family) ?? 0))
      .map((c) => `${c.family}: ${c.candidate} < committed ${floor.get(c.family)}`);
    // Only a full run that holds the line rewrites the tables, so a drop cannot become the new floor.
    if (drops.length === 0 && !ONLY) {
      const summary = summarise(BASELINE_NAME, counts, outcomes);
      writeResults(RESULTS, renderResults(summary, outcomes));
      writeResults(RESULTS_JSON, `${JSON.stringify(summary, null, 2)}\n`);
    }
    for (const o of outcomes.filter((x) => x.candidateProblem)) {
      console.log(`differs: ${o.family} / ${o.name}: ${o.candidateProblem}`);
    }
    expect(drops).toEqual([]);
  });
});
