import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../src/engines/types.js';
import { EngineFailure } from '../src/load/errors.js';
import { Side } from '../src/load/side.js';
import type { RowMeta } from '../src/model/rowMeta.js';
import { RowGuard } from '../src/run/guard.js';
import type { RowResult } from '../src/scorecard/schema.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

const meta = (id: string): RowMeta => ({
  id,
  group: 'query',
  family: id,
  title: id,
  unit: 'ms',
  betterIs: 'lower',
});

function measured(id: string): RowResult {
  return {
    ...meta(id),
    candidate: { supported: true, samples: 10, errors: 0, p50: 1 },
    baseline: { supported: true, samples: 10, errors: 0, p50: 1 },
    ratio: 1,
    ci: [0.9, 1.1],
    verdict: 'TIE',
    reason: 'ratio 1',
  };
}

/** A fake engine with a process-like exit that the test triggers, and a restart that starts a new fake. */
async function killable(role: 'candidate' | 'baseline', restartable: boolean) {
  const fake = await startFakeEs({ name: role });
  fakes.push(fake);
  // The fake's `_count` without a match_all body answers 7: the count the guards below expect back.
  let die: () => void = () => {};
  const engine: RunningEngine = {
    role,
    product: role,
    version: '0',
    url: fake.url,
    pid: undefined,
    exited: new Promise((r) => {
      die = () => r({ code: null, signal: 'SIGKILL' });
    }),
    stop: async () => {},
  };
  let restarts = 0;
  if (restartable)
    (engine as { restart?: () => Promise<RunningEngine> }).restart = async () => {
      restarts++;
      return { ...engine, exited: new Promise(() => {}) };
    };
  return { engine, die: () => die(), restarts: () => restarts };
}

const abort = new AbortController().signal;
const sidesOf = (c: RunningEngine, b: RunningEngine) => ({
  candidate: new Side(c, 4, 2000, abort),
  baseline: new Side(b, 4, 2000, abort),
});

describe('RowGuard: a run that survives a dead or hung engine', () => {
  it('collapses the candidate on the row it died in (LOSE), restarts it, measures the next row', async () => {
    const c = await killable('candidate', true);
    const b = await killable('baseline', true);
    const sides = sidesOf(c.engine, b.engine);
    const guard = new RowGuard(sides, 'idx', 7, () => {});
    const dead = await guard.row(meta('query.a'), async () => {
      c.die();
      await new Promise((r) => setImmediate(r));
      sides.candidate.check();
      return measured('query.a');
    });
    expect(dead.verdict).toBe('LOSE');
    expect(dead.candidate.collapsed).toBe(true);
    expect(dead.baseline.collapsed).toBeUndefined();
    expect(dead.ratio).toBeUndefined();
    expect(dead.reason).toMatch(
      /^candidate collapsed: candidate: engine process exited .* restarted on the same data \(_count 7\)/,
    );
    expect(c.restarts()).toBe(1);
    const next = await guard.row(meta('query.b'), async () => measured('query.b'));
    expect(next.verdict).toBe('TIE');
    expect(guard.summary()).toMatch(/^candidate: engine process exited .*\(during query.a\); restarted/);
  });

  it('makes a baseline crash N/A, not a free WIN', async () => {
    const c = await killable('candidate', true);
    const b = await killable('baseline', true);
    const sides = sidesOf(c.engine, b.engine);
    const guard = new RowGuard(sides, 'idx', 7, () => {});
    const row = await guard.row(meta('query.a'), async () => {
      throw new EngineFailure('baseline', 'connection refused (test)');
    });
    expect(row.verdict).toBe('N/A');
    expect(row.baseline.collapsed).toBe(true);
    expect(row.reason).toMatch(/^not comparable, baseline collapsed: baseline: connection refused/);
  });

  it('collapses every later row when the engine cannot come back', async () => {
    const c = await killable('candidate', false);
    const b = await killable('baseline', true);
    await fakes[0]?.close(); // the candidate's port stops answering, and nobody can restart it
    const sides = sidesOf(c.engine, b.engine);
    const guard = new RowGuard(sides, 'idx', 7, () => {});
    let measuredAfter = 0;
    const first = await guard.row(meta('query.a'), async () => {
      await sides.candidate.send('GET', '/');
      return measured('query.a');
    });
    const later = await guard.row(meta('query.b'), async () => {
      measuredAfter++;
      return measured('query.b');
    });
    expect(first.verdict).toBe('LOSE');
    expect(first.candidate.error).toMatch(/not started by the harness, so not restarted/);
    expect(later.verdict).toBe('LOSE');
    expect(later.candidate.collapsed).toBe(true);
    expect(later.reason).toMatch(/engine is gone since an earlier crash/);
    expect(measuredAfter).toBe(0);
  });

  it('treats an engine that stops answering as hung: collapsed on that row, then restarted', async () => {
    // Accepts connections, never answers.
    const hung = createServer(() => {});
    servers.push(hung);
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const b = await killable('baseline', true);
    const fresh = await startFakeEs({ name: 'fresh' });
    fakes.push(fresh);
    let restarted = 0;
    const candidate: RunningEngine = {
      role: 'candidate',
      product: 'c',
      version: '0',
      url: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
      pid: undefined,
      exited: new Promise(() => {}),
      stop: async () => {},
      restart: async () => {
        restarted++;
        return { ...candidate, url: fresh.url };
      },
    };
    const sides = sidesOf(candidate, b.engine);
    const guard = new RowGuard(sides, 'idx', 7, () => {});
    const row = await guard.row(meta('query.a'), async () => measured('query.a'));
    expect(row.verdict).toBe('LOSE');
    expect(row.candidate.error).toMatch(/stopped answering .* restarted on the same data/);
    expect(restarted).toBe(1);
    expect(sides.candidate.engine.url).toBe(fresh.url);
    expect(await sides.candidate.alive()).toBe(true);
  }, 20_000);
});
