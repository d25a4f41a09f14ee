import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Scorecard } from '../src/scorecard/schema.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const temps: string[] = [];
/** A fresh temporary folder, removed after the file's tests. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The CI gate runner end to end: it spawns the real bench through npm (against two fake
 * engines, so it takes seconds), finds the new run, and judges it with the waivers and the
 * previous runs folder, as `npm run ci:gate` does in the workflow.
 */

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
// Overrides of the CI scale, so the runner's pass-through of bench flags is exercised too.
const TINY = ['--docs', '2000', '--iterations', '60', '--warmup', '3', '--prewarm', '5', '--rate', '300'];

function runGate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/gate/run.ts', ...args], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ARTIFACT_URL: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

describe('ci:gate runner', () => {
  it('runs the bench, judges the new run, and honours waivers and the previous run', async () => {
    const candidate = await startFakeEs({ name: 'fake-slow', delayMs: 40 });
    const baseline = await startFakeEs({ name: 'fake-fast' });
    fakes.push(candidate, baseline);
    const dir = tempDir('gate-run-');
    const engines = ['--candidate-url', candidate.url, '--baseline-url', baseline.url];
    const base = [
      '--out',
      join(dir, 'ci-out'),
      '--scorecards',
      join(dir, 'scorecards'),
      '--families',
      'query.count',
      // Eight bulks, so the ingest row has eight paired rounds to be decided on.
      '--bulk-size',
      '250',
      ...engines,
      ...TINY,
    ];
    mkdirSync(join(dir, 'scorecards'));
    writeFileSync(join(dir, 'waivers.json'), JSON.stringify({ waivers: [] }));

    // 1. A slower candidate (every request delayed, bulk too): ingest and query.count LOSE, exit 1; summary = gate verdict then SCORECARD.md; comment written.
    const lose = await runGate([
      ...base,
      '--waivers',
      join(dir, 'waivers.json'),
      '--summary',
      join(dir, 'summary.md'),
      '--comment',
      join(dir, 'comment.md'),
    ]);
    expect(lose.code, lose.stdout + lose.stderr).toBe(1);
    expect(lose.stdout).toContain(
      '--docs 20000 --iterations 300 --prewarm 100 --no-sweep --families query.count --bulk-size 250',
    );
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/^## ❌ everycell gate failed: LOSE \(exit 1\)/);
    expect(summary).toContain('| `query.count` |');
    expect(summary).toContain('# everycell scorecard');
    expect(readFileSync(join(dir, 'comment.md'), 'utf8')).toContain('2 LOSE rows not waived');
    const [runId] = readdirSync(join(dir, 'ci-out')).filter((n) => n !== 'history.duckdb');
    const card = JSON.parse(
      readFileSync(join(dir, 'ci-out', runId as string, 'scorecard.json'), 'utf8'),
    ) as Scorecard;
    expect(card.manifest.corpus.docs).toBe(2000);

    // 2. The same LOSEs with waivers, against a previous run (outside git: every run counts) that
    //    had one more row on the same corpus: the waiver holds, but coverage fell: exit 3.
    writeFileSync(
      join(dir, 'waivers.json'),
      JSON.stringify({
        waivers: ['ingest.1-client', 'query.count'].map((row) => ({
          row,
          reason: 'fake engines',
          who: '@test',
          expires: '2999-01-01',
        })),
      }),
    );
    const previous: Scorecard = {
      ...card,
      runId: '20200101T000000Z-0000000',
      createdAt: '2020-01-01T00:00:00.000Z',
      rows: [...card.rows, { ...(card.rows.at(-1) as Scorecard['rows'][number]), id: 'query.extra' }],
    };
    mkdirSync(join(dir, 'scorecards', previous.runId));
    writeFileSync(join(dir, 'scorecards', previous.runId, 'scorecard.json'), JSON.stringify(previous));
    const dropped = await runGate([...base, '--waivers', join(dir, 'waivers.json')]);
    expect(dropped.code, dropped.stdout + dropped.stderr).toBe(3);
    expect(dropped.stdout).toContain('### Waived rows');
    expect(dropped.stdout).toContain('Rows missing since the previous run: `query.extra`');
  }, 120_000);

  it('exits 2 with the summary saying so when the bench writes no scorecard', async () => {
    const dir = tempDir('gate-run-');
    // A bench flag the bench rejects: it exits 2 before writing anything.
    // --no-base: what is tested is the missing scorecard, not the merge-base build (minutes on a clean clone).
    const r = await runGate([
      '--no-base',
      '--out',
      join(dir, 'ci-out'),
      '--summary',
      join(dir, 's.md'),
      '--docs',
      'lots',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--docs must be a whole number');
    expect(readFileSync(join(dir, 's.md'), 'utf8')).toContain('no scorecard (exit 2)');
  }, 60_000);

  it('rejects its own flags without a value in one line', async () => {
    const r = await runGate(['--out']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      'ci:gate: --out needs a value, e.g. --out ci-out; run with --help for the flags',
    );
  });
});
