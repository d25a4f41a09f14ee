import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EngineRole, RunningEngine } from '../src/engines/types.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { defaultBaseRevision, engineChanged } from '../src/gate/baseBuild.js';
import { realClock } from '../src/load/clock.js';
import { Side } from '../src/load/side.js';
import { measureRounds, probeReadRow, roundOrder, sizeTookAside } from '../src/measure/readRow.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../src/model/settings.js';
import { readRowResult } from '../src/verdict/readRowResult.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const engine = (role: EngineRole, url: string): RunningEngine => ({
  role,
  product: role,
  version: '0',
  url,
  pid: undefined,
  exited: new Promise(() => {}),
  stop: async () => {},
});

const settings: RunSettings = {
  ...DEFAULT_SETTINGS,
  rate: 400,
  iterations: 160,
  warmup: 2,
  forks: 4,
  rounds: 2,
  confidence: 0.95,
  maxSendLagP99Ms: 10_000,
};
const family = ALL_FAMILIES.find((f) => f.id === 'query.term') as Family;

/** Measure a row on three fake engines in 4 "forks" of 2 rounds, as the read stage would. */
async function measure(
  delays: { candidate: number; baseline: number; base: number },
  base: { total?: number; searchExtra?: Record<string, unknown> } = {},
) {
  const abort = new AbortController().signal;
  const side = async (role: EngineRole, delayMs: number) => {
    const fake = await startFakeEs({
      name: role,
      delayMs,
      ...(role === 'base' ? base : {}),
    });
    fakes.push(fake);
    return new Side(engine(role, fake.url), 16, 5000, abort);
  };
  const sides = {
    candidate: await side('candidate', delays.candidate),
    baseline: await side('baseline', delays.baseline),
    base: await side('base', delays.base),
  };
  const raw = await probeReadRow(family, sides, 'idx', settings);
  for (let fork = 0; fork < settings.forks; fork++)
    await measureRounds(raw, sides, 'idx', settings, realClock, { fork, rounds: settings.rounds });
  return { raw, row: readRowResult(raw, settings, undefined, 'b'.repeat(40)) };
}

describe('the merge-base build as a third engine', () => {
  it('rotates every engine through every position of a round', () => {
    expect(roundOrder(['candidate', 'baseline'], 0)).toEqual(['candidate', 'baseline']);
    expect(roundOrder(['candidate', 'baseline'], 1)).toEqual(['baseline', 'candidate']);
    expect([0, 1, 2].map((r) => roundOrder(['candidate', 'baseline', 'base'], r).join(' '))).toEqual([
      'candidate baseline base',
      'baseline base candidate',
      'base candidate baseline',
    ]);
  });

  it('finds this build slower than the merge-base build (REGRESSED), whatever the baseline does', async () => {
    const { raw, row } = await measure({ candidate: 25, baseline: 60, base: 1 });
    expect(raw.base?.timed).toHaveLength(160);
    expect(row.verdict).toBe('WIN');
    expect(row.versusBase?.verdict, row.versusBase?.reason).toBe('REGRESSED');
    expect(row.versusBase?.ratio).toBeLessThan(0.5);
    // Far past the 25% fail margin: this row alone fails the gate.
    expect(row.versusBase?.blocking).toBe(true);
    expect(row.versusBase?.reason).toMatch(/against bbbbbbb .*: latency worse beyond the margin/);
  }, 60_000);

  it('leaves a row out of the A/B (N/A) when the merge-base build answers differently', async () => {
    const { row } = await measure({ candidate: 5, baseline: 30, base: 1 }, { total: 7 });
    expect(row.verdict).toBe('WIN');
    expect(row.versusBase?.verdict).toBe('N/A');
    expect(row.versusBase?.reason).toMatch(
      /^the merge-base build answered differently from this build: hits.total: \d+ \(eq\) vs 7 \(eq\)/,
    );
  }, 60_000);

  it('leaves a row out when the answers agree on what the row compares but differ in size', async () => {
    const { row } = await measure(
      { candidate: 5, baseline: 30, base: 1 },
      { searchExtra: { note: 'x'.repeat(40) } },
    );
    expect(row.versusBase?.verdict).toBe('N/A');
    expect(row.versusBase?.reason).toMatch(
      /answered differently from this build: \d+ bytes of reply against \d+ \(took aside\)/,
    );
  }, 60_000);

  it('sets every took aside when it sizes a reply (an _msearch has one per response)', () => {
    expect(sizeTookAside('{"took":5,"responses":[{"took":12,"hits":1}]}')).toBe(
      sizeTookAside('{"took":123,"responses":[{"took":1,"hits":1}]}'),
    );
    expect(sizeTookAside('{"took":5,"hits":12}')).not.toBe(sizeTookAside('{"took":5,"hits":1}'));
  });

  it('calls the same build against itself SAME', async () => {
    const { row } = await measure({ candidate: 5, baseline: 5, base: 5 });
    expect(row.versusBase?.verdict, row.versusBase?.reason).toBe('SAME');
  }, 60_000);
});

describe('which revision a pull request is measured against', () => {
  const repo = mkdtempSync(join(tmpdir(), 'everycell-base-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();
  const commit = (file: string, text: string) => {
    execFileSync('mkdir', ['-p', join(repo, file, '..')]);
    writeFileSync(join(repo, file), text);
    git('add', '-A');
    git('commit', '-qm', file);
    return git('rev-parse', 'HEAD');
  };

  it('is the merge base with main on a branch, and HEAD^ on main itself; only engine sources count as a change', () => {
    git('init', '-q', '-b', 'main');
    const first = commit('README.md', 'a');
    const second = commit('packages/engine-core/src/lib.rs', 'fn a() {}');
    expect(defaultBaseRevision(repo)).toBe(first);
    git('checkout', '-q', '-b', 'pr');
    const third = commit('packages/engine-core/src/lib.rs', 'fn b() {}');
    expect(defaultBaseRevision(repo)).toBe(second);
    expect(engineChanged(second, third, repo)).toBe(true);
    const docsOnly = commit('README.md', 'b');
    expect(engineChanged(third, docsOnly, repo)).toBe(false);
  });
});
