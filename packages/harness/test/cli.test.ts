import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyPath, listRuns, withHistory } from '../src/history/db.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';
import { runCli, startCli } from './helpers/runCli.js';

let out: string;
const fakes: FakeEs[] = [];
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'everycell-cli-'));
});
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await rm(out, { recursive: true, force: true });
});

// These tests check plumbing, not measurement quality: a busy test machine must not turn rows N/A.
const tiny = [
  '--docs',
  '2000',
  '--iterations',
  '160',
  '--warmup',
  '3',
  '--rate',
  '300',
  '--max-send-lag-ms',
  '10000',
  '--forks',
  '4',
  '--max-forks',
  '4',
  '--rounds',
  '2',
  '--prewarm',
  '20',
  '--confidence',
  '0.95',
];

describe('bench CLI', () => {
  it('prints help and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--candidate-url U');
  });

  it('exits 2 with a one-line fix for a bad flag', async () => {
    const r = await runCli(['--rate', 'fast']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('bench: --rate must be a number > 0, got "fast"');
  });

  it('exits 2 when the candidate URL is unreachable, writing no scorecard', async () => {
    const baseline = await startFakeEs({ name: 'fake-baseline' });
    fakes.push(baseline);
    const r = await runCli([
      '--candidate-url',
      'http://127.0.0.1:9',
      '--baseline-url',
      baseline.url,
      '--out',
      out,
      ...tiny,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/candidate at http:\/\/127.0.0.1:9 is unreachable/);
    expect(await readdir(out)).toEqual([]);
  });

  it('runs the whole loop against two ES-shaped servers: the faster one wins, exit 0, history appended', async () => {
    const candidate = await startFakeEs({
      name: 'fake-fast',
      storeBytesPerDoc: 60,
      nodeStats: { cpuMsPerSearch: 1, residentBytes: 100 << 20 },
    });
    const baseline = await startFakeEs({
      name: 'fake-slow',
      delayMs: 40,
      refuseForceMerge: true,
      nodeStats: { cpuMsPerSearch: 4, jvmCommittedBytes: 600 << 20 },
    });
    fakes.push(candidate, baseline);
    const r = await runCli([
      '--candidate-url',
      candidate.url,
      '--baseline-url',
      baseline.url,
      '--out',
      out,
      '--families',
      'query.term,metric.avg',
      '--clients',
      '1,4',
      ...tiny,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const [runId] = (await readdir(out)).filter((f) => f !== 'history.duckdb' && !f.endsWith('.wal'));
    const card = JSON.parse(
      await readFile(join(out, runId as string, 'scorecard.json'), 'utf8'),
    ) as Scorecard;
    expect(card.status).toBe('complete');
    expect(card.rows.map((x) => x.id)).toEqual([
      'ingest.1-client',
      'query.term',
      'metric.avg',
      'memory.rss',
      'disk.store',
      'ingest.4-clients',
    ]);
    expect(card.rows[0]?.candidate.value).toBeGreaterThan(0);
    // Disk: 60 vs 100 bytes/doc at equal _count is beyond the 10% margin; the refusal is named.
    // Both engines given by URL: memory from their node stats, the JVM's as a lower bound (its
    // committed heap + non-heap), which a 6x smaller candidate still beats.
    const memory = card.rows[3];
    expect(memory?.verdict, memory?.reason).toBe('WIN');
    expect(memory?.candidate.memory?.source).toBe('nodes-stats');
    expect(memory?.candidate.value).toBe(100 << 20);
    expect(memory?.baseline.memory?.lowerBound).toBe(true);
    expect(memory?.reason).toMatch(/baseline by URL, from _nodes\/stats jvm\.mem\..*a lower bound/);
    // CPU per request from node stats (whole ms, as ES reports them): 1 vs 4 ms per search, and
    // the row says where it came from.
    const term = card.rows[1];
    expect(term?.candidate.cpuSource).toBe('nodes-stats');
    expect(term?.candidate.cpuMsPerRequest).toBe(1);
    expect(term?.baseline.cpuMsPerRequest).toBe(4);
    const disk = card.rows[4];
    expect(disk?.verdict).toBe('WIN');
    expect(disk?.candidate.value).toBe(2000 * 60);
    expect(disk?.reason).toMatch(/baseline force-merge refused .* measured after refresh/);
    expect(disk?.reason).toMatch(/candidate 60.0 B\/doc, baseline 100.0 B\/doc/);
    // 4 clients on a fresh index: the count must be the corpus, each side measured once.
    const cell = card.rows[5];
    expect(cell?.reason).toMatch(/one measurement per engine/);
    expect(cell?.candidate.value).toBeGreaterThan(0);
    expect(cell?.mismatch).toBeUndefined();
    // Ingest of 2 bulks is noise-dominated; the read rows carry a 40 ms difference.
    for (const row of card.rows.slice(1, 3)) {
      expect(row.verdict).toBe('WIN');
      // 160 timed requests over 4 forks of 2 rounds (no re-measuring fork: --max-forks 4).
      expect(row.rounds, row.reason).toBe(8);
      expect(row.forks, row.reason).toBe(4);
      expect(row.candidate.samples, row.reason).toBe(160);
      expect(row.ci?.[0]).toBeGreaterThan(1);
    }
    expect(card.manifest.candidate.product).toBe('fake-fast 0.0.1');
    expect(card.manifest.corpus.docs).toBe(2000);
    expect(existsSync(join(out, runId as string, 'SCORECARD.md'))).toBe(true);
    expect(existsSync(join(out, runId as string, 'samples', 'query.term.json'))).toBe(true);
    expect(r.stdout).toMatch(/query.term .* WIN/);
    const runs = await withHistory(historyPath(out), (conn) => listRuns(conn));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.run_id).toBe(runId);
  }, 60_000);

  it('exits 1 when the candidate is slower', async () => {
    const candidate = await startFakeEs({ name: 'fake-slow', delayMs: 40 });
    const baseline = await startFakeEs({ name: 'fake-fast' });
    fakes.push(candidate, baseline);
    const r = await runCli([
      '--candidate-url',
      candidate.url,
      '--baseline-url',
      baseline.url,
      '--out',
      out,
      '--families',
      'query.count',
      ...tiny,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout, r.stdout).toMatch(/query.count .* LOSE/);
    // The run's last lines are the result and the next step, whatever the exit status.
    const tail = r.stdout.trimEnd().split('\n').slice(-10).join('\n');
    expect(tail).toMatch(/\d LOSE: WIN \d+, LOSE \d/);
    expect(tail).toMatch(/ {2}LOSE query\.count: /);
    expect(tail).toContain('npm run bisect -- --row query.count');
    expect(tail).toMatch(/exit status for scripts: 1\)$/);
  });

  it('exits 2 and writes a failed scorecard when an engine dies mid-run', async () => {
    const candidate = await startFakeEs({ name: 'fake-dies' });
    const baseline = await startFakeEs({ name: 'fake-ok' });
    fakes.push(baseline);
    const { child, done } = startCli([
      '--candidate-url',
      candidate.url,
      '--baseline-url',
      baseline.url,
      '--out',
      out,
      ...tiny,
      '--iterations',
      '2000',
      '--rate',
      '200',
      '--prewarm',
      '0',
    ]);
    // The candidate goes away once the read rows are under way.
    let closing: Promise<void> | undefined;
    child.stdout?.on('data', (c: Buffer) => {
      if (!closing && c.toString().includes('] read ')) closing = candidate.close();
    });
    const r = await done;
    await closing;
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const [runId] = (await readdir(out)).filter((f) => f !== 'history.duckdb' && !f.endsWith('.wal'));
    const card = JSON.parse(
      await readFile(join(out, runId as string, 'scorecard.json'), 'utf8'),
    ) as Scorecard;
    expect(card.status).toBe('failed');
    // Refused during a request, or found not answering right after the row: either way, gone.
    expect(card.failure).toMatch(/^candidate: (connection refused|stopped answering)/);
    expect(card.failure).toMatch(/not started by the harness, so not restarted/);
    expect(card.exitCode).toBe(2);
    // The run went on: every row is there (disk, throughput and mixed rows after the reads).
    // The candidate died in the first fork, so no read row could finish its forks: every row
    // after the load is collapsed on the candidate; the one it died in names the crash, every
    // other says the engine is gone.
    const ids = card.rows.map((x) => x.id);
    expect(ids[0]).toBe('ingest.1-client');
    expect(ids).toContain('disk.store');
    expect(ids.at(-1)).toBe('mixed.terms');
    const collapsed = card.rows.slice(1);
    expect(
      collapsed.every((x) => x.candidate.collapsed && x.verdict === 'LOSE' && !x.baseline.collapsed),
    ).toBe(true);
    const gone = collapsed.filter((x) => /engine is gone since an earlier crash/.test(x.reason));
    expect(gone.length).toBeGreaterThanOrEqual(collapsed.length - 1);
  }, 90_000);

  it('on Ctrl-C writes a partial scorecard with the rows measured so far and exits 2', async () => {
    const candidate = await startFakeEs({ name: 'fake-a' });
    const baseline = await startFakeEs({ name: 'fake-b' });
    fakes.push(candidate, baseline);
    const { child, done } = startCli([
      '--candidate-url',
      candidate.url,
      '--baseline-url',
      baseline.url,
      '--out',
      out,
      ...tiny,
      '--iterations',
      '2000',
      '--rate',
      '200',
      '--prewarm',
      '0',
    ]);
    // Interrupt once the read rows are under way (a fixed delay lands anywhere on a loaded box).
    let interrupted = false;
    child.stdout?.on('data', (c: Buffer) => {
      if (interrupted || !c.toString().includes('] read ')) return;
      interrupted = true; // once: a second Ctrl-C means "quit now"
      child.kill('SIGINT');
    });
    const r = await done;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('interrupted: stopping engines and writing a partial scorecard');
    const [runId] = (await readdir(out)).filter((f) => f !== 'history.duckdb' && !f.endsWith('.wal'));
    const card = JSON.parse(
      await readFile(join(out, runId as string, 'scorecard.json'), 'utf8'),
    ) as Scorecard;
    expect(card.status).toBe('partial');
    expect(card.failure).toBe('interrupted (Ctrl-C)');
    expect(card.rows[0]?.id).toBe('ingest.1-client');
    expect(await readFile(join(out, runId as string, 'SCORECARD.md'), 'utf8')).toContain(
      'This run is partial',
    );
  }, 60_000);
});
