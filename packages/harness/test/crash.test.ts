import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_SERVER } from '../src/engines/candidate.js';
import { historyPath, listRuns, withHistory } from '../src/history/db.js';
import type { RowResult, Scorecard } from '../src/scorecard/schema.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';
import { startCli } from './helpers/runCli.js';

/**
 * The candidate (the real engine-napi server, started by the harness) is SIGKILLed while it is
 * being measured on a read row. The run must record that row collapsed for the candidate,
 * restart the engine on its data, measure the rows after it, write the scorecard, and exit 2.
 * The baseline is a fake: it keeps the test fast, and its answers differ from the engine's, so
 * read rows are N/A by mismatch, which does not matter here: the plumbing is under test.
 */
const candidateBuilt = existsSync(CANDIDATE_SERVER);
if (!candidateBuilt) console.warn(`crash test skipped: ${CANDIDATE_SERVER} is missing`);

const KILLED_ROW = 'query.match';

describe.skipIf(!candidateBuilt)('an engine killed mid-run (real candidate)', () => {
  let out: string;
  let baseline: FakeEs;
  let code: number | null;
  let stdout = '';
  let card: Scorecard;
  let killedPid: number | undefined;
  let runs: Awaited<ReturnType<typeof listRuns>> = [];

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'everycell-crash-'));
    baseline = await startFakeEs({ name: 'fake-baseline' });
    const { child, done } = startCli(
      [
        '--baseline-url',
        baseline.url,
        '--docs',
        '2000',
        '--iterations',
        '400',
        '--warmup',
        '3',
        '--prewarm',
        '0',
        '--rate',
        '200',
        '--max-send-lag-ms',
        '10000',
        '--families',
        `query.term,${KILLED_ROW},metric.avg`,
        '--out',
        out,
      ],
      180_000,
    );
    // Kill the candidate once it is being timed on the chosen row (fork 1, round 1 measures it first).
    let pid: number | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // Each fork restarts the engines: the pid to kill is the last one the run printed.
      const pids = [...stdout.matchAll(/candidate(?::| restarted on its data) .*\(pid (\d+)\)/g)];
      pid = Number(pids.at(-1)?.[1]) || undefined;
      if (killedPid === undefined && pid && stdout.includes(`read ${KILLED_ROW} candidate fork 1 round 1`)) {
        killedPid = pid;
        setTimeout(() => process.kill(pid as number, 'SIGKILL'), 300);
      }
    });
    ({ code } = await done);
    const runId = (await readdir(out)).find((f) => /^\d{8}T\d{6}Z-/.test(f)) as string;
    card = JSON.parse(await readFile(join(out, runId, 'scorecard.json'), 'utf8')) as Scorecard;
    runs = await withHistory(historyPath(out), (conn) => listRuns(conn));
  }, 200_000);

  afterAll(async () => {
    await baseline?.close();
    await rm(out, { recursive: true, force: true });
  });

  const row = (id: string) => card.rows.find((r) => r.id === id) as RowResult;

  it('killed the candidate during the chosen row', () => {
    expect(killedPid, stdout).toBeGreaterThan(0);
  });

  it('exits 2 with a failed scorecard naming the crash and the restart', () => {
    expect(code, stdout).toBe(2);
    expect(card.status).toBe('failed');
    expect(card.exitCode).toBe(2);
    // Whichever shows first: the refused connection or the process's exit.
    expect(card.failure).toMatch(
      /^candidate: (connection refused|engine process exited \(code null, signal SIGKILL\))/,
    );
    expect(card.failure).toContain(`(during ${KILLED_ROW} (fork 1))`);
    expect(card.failure).toMatch(/restarted on the same data \(_count 2000\)/);
    expect(runs.map((r) => r.run_id)).toEqual([card.runId]);
  });

  it('records the killed row collapsed on the candidate: LOSE', () => {
    const killed = row(KILLED_ROW);
    expect(killed.candidate.collapsed).toBe(true);
    expect(killed.baseline.collapsed).not.toBe(true);
    expect(killed.verdict).toBe('LOSE');
    expect(killed.reason).toMatch(
      /^candidate collapsed: candidate: (connection refused|engine process exited)/,
    );
  });

  it('measured the rows before and after the kill on the restarted engine', () => {
    expect(card.rows.map((r) => r.id)).toEqual([
      'ingest.1-client',
      'query.term',
      KILLED_ROW,
      'metric.avg',
      'memory.rss',
      'disk.store',
    ]);
    for (const id of ['query.term', 'metric.avg']) {
      // Measured, not recorded as crashed (on a loaded box a row may still collapse by drops).
      expect(row(id).candidate.samples, id).toBe(400);
      expect(row(id).reason, id).not.toMatch(/engine process exited|connection refused|gone since/);
    }
    // The disk row counts the restarted engine's documents: all 2000 survived the SIGKILL.
    expect(row('disk.store').candidate.value).toBeGreaterThan(0);
    expect(row('disk.store').candidate.collapsed).not.toBe(true);
    // Memory is read from the restarted process, and the row says it did not serve the whole run;
    // the baseline (a URL) has no process to read, so there is no verdict.
    const memory = row('memory.rss');
    expect(memory.candidate.value).toBeGreaterThan(0);
    expect(memory.candidate.memory?.processes[0]?.pid).not.toBe(killedPid);
    expect(memory.reason).toMatch(/candidate node pid \d+: .*restarted 1 time during the run/);
    expect(memory.verdict).toBe('N/A');
  });
});
