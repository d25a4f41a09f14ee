import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../src/engines/types.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { realClock } from '../src/load/clock.js';
import { Side } from '../src/load/side.js';
import { measureReadRow } from '../src/measure/readRow.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../src/model/settings.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

function engine(role: 'candidate' | 'baseline', url: string): RunningEngine {
  return {
    role,
    product: role,
    version: '0',
    url,
    pid: undefined,
    exited: new Promise(() => {}),
    stop: async () => {},
  };
}

const settings: RunSettings = {
  ...DEFAULT_SETTINGS,
  rate: 400,
  iterations: 40,
  warmup: 3,
  forks: 1,
  rounds: 2,
  signalEvery: 5,
};
const family = (id: string) => ALL_FAMILIES.find((f) => f.id === id) as Family;

async function sides(c: Parameters<typeof startFakeEs>[0], b: Parameters<typeof startFakeEs>[0]) {
  const fc = await startFakeEs(c);
  const fb = await startFakeEs(b);
  fakes.push(fc, fb);
  const abort = new AbortController().signal;
  return {
    fc,
    fb,
    sides: {
      candidate: new Side(engine('candidate', fc.url), 8, 2000, abort),
      baseline: new Side(engine('baseline', fb.url), 8, 2000, abort),
    },
  };
}

describe('measureReadRow against fake engines', () => {
  it('sends identical bodies with track_total_hits and request_cache=false, alternating order per round', async () => {
    const { fc, fb, sides: s } = await sides({ name: 'c' }, { name: 'b' });
    const raw = await measureReadRow(family('query.term'), s, 'idx', settings, realClock);
    expect(raw.candidate.timed).toHaveLength(40);
    expect(raw.baseline.timed).toHaveLength(40);
    expect(raw.candidate.warmup).toHaveLength(6);
    expect(raw.candidate.timed.every((x) => x.outcome === 'ok' && x.latencyMs >= x.serviceMs)).toBe(true);
    const searches = (f: FakeEs) => f.requests.filter((r) => r.url.includes('_search'));
    const bodies = (f: FakeEs) => searches(f).map((r) => r.body);
    expect(bodies(fc)).toHaveLength(1 + 2 * (3 + 20));
    expect(bodies(fc).sort()).toEqual(bodies(fb).sort());
    // Round 1: candidate then baseline; round 2: baseline then candidate.
    const round = (f: FakeEs, r: 0 | 1) =>
      searches(f)
        .slice(1 + r * 23, 1 + (r + 1) * 23)
        .map((x) => x.at);
    expect(Math.max(...round(fc, 0))).toBeLessThan(Math.min(...round(fb, 0)));
    expect(Math.max(...round(fb, 1))).toBeLessThan(Math.min(...round(fc, 1)));
    for (const r of searches(fc)) {
      expect(r.url).toBe('/idx/_search?request_cache=false');
      expect(JSON.parse(r.body).track_total_hits).toBe(true);
    }
    // Probe + every 5th of 20 per round x 2 rounds.
    expect(raw.signalChecks).toBe(1 + 8);
    expect(raw.mismatch).toBeUndefined();
    // Tenants vary per request: the parameters are drawn, not fixed.
    expect(new Set(searches(fc).map((r) => r.body)).size).toBeGreaterThan(5);
  });

  it('reports an unsupported side with the ES error and skips timing', async () => {
    const { sides: s } = await sides({ name: 'c', searchStatus: 400 }, { name: 'b' });
    const raw = await measureReadRow(family('metric.avg'), s, 'idx', settings, realClock);
    expect(raw.candidate).toMatchObject({
      supported: false,
      error: 'HTTP 400 parsing_exception: fake refuses',
    });
    expect(raw.baseline.timed).toHaveLength(0);
  });

  it('detects differing results on the probe and sampled responses', async () => {
    const { sides: s } = await sides({ name: 'c', total: 41 }, { name: 'b', total: 42 });
    const raw = await measureReadRow(family('query.match'), s, 'idx', settings, realClock);
    expect(raw.mismatch?.summary).toBe('hits.total: 41 (eq) vs 42 (eq)');
    expect(raw.signalMismatches).toBe(raw.signalChecks);
  });

  it('fails the run when an engine refuses connections', async () => {
    const { fc, sides: s } = await sides({ name: 'c' }, { name: 'b' });
    await fc.close();
    await expect(measureReadRow(family('query.term'), s, 'idx', settings, realClock)).rejects.toThrow(
      /candidate: connection refused/,
    );
  });

  it('fails the run when the engine process exits, even if its port still answers', async () => {
    const { fb, fc } = await sides({ name: 'c' }, { name: 'b' });
    let exit: (v: { code: number | null; signal: string | null }) => void = () => {};
    const dying: RunningEngine = { ...engine('candidate', fc.url), exited: new Promise((r) => (exit = r)) };
    const abort = new AbortController().signal;
    const s = {
      candidate: new Side(dying, 8, 2000, abort),
      baseline: new Side(engine('baseline', fb.url), 8, 2000, abort),
    };
    exit({ code: 137, signal: null });
    await new Promise((r) => setImmediate(r));
    await expect(measureReadRow(family('query.term'), s, 'idx', settings, realClock)).rejects.toThrow(
      /candidate: engine process exited \(code 137/,
    );
  });
});
