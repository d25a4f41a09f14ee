import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../src/engines/types.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { realClock } from '../src/load/clock.js';
import { Side } from '../src/load/side.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../src/model/settings.js';
import { measureReadRowAdaptive } from '../src/run/adaptiveReadRow.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const engine = (role: 'candidate' | 'baseline', url: string): RunningEngine => ({
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
  iterations: 40,
  warmup: 2,
  rounds: 2,
  maxRounds: 5,
  cacheProbe: 10,
  maxSendLagP99Ms: 10_000,
};
const term = ALL_FAMILIES.find((f) => f.id === 'query.term') as Family;

async function sides() {
  const fc = await startFakeEs({ name: 'c' });
  const fb = await startFakeEs({ name: 'b' });
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

describe('adaptive re-measurement against fake engines', () => {
  it('adds rounds two at a time up to the budget, order continuing, then probes the cache', async () => {
    const { fc, fb, sides: s } = await sides();
    const looks: number[] = [];
    const { raw, row } = await measureReadRowAdaptive(term, s, 'idx', settings, realClock, {
      wantsMore: (r) => {
        looks.push(r.rounds ?? 0);
        return true;
      },
    });
    expect(looks).toEqual([2, 4]); // 5 is the budget: no look after it
    expect(raw.rounds).toBe(5);
    expect(row.rounds).toBe(5);
    expect(row.remeasured).toBe(true);
    expect(raw.candidate.timed).toHaveLength(100);
    expect(new Set(raw.candidate.timed.map((x) => x.i)).size).toBe(100);
    expect(row.reason).toMatch(/5 rounds \(re-measured: 2 were not decisive\)$/);
    // Round 3 (index 2) runs candidate first, round 4 baseline first: A B B A continues.
    const searches = (f: FakeEs) => f.requests.filter((r) => r.url.includes('_search'));
    const roundSpan = (f: FakeEs, r: number) =>
      searches(f)
        .slice(1 + r * 22, 1 + (r + 1) * 22)
        .map((x) => x.at);
    expect(Math.max(...roundSpan(fc, 2))).toBeLessThan(Math.min(...roundSpan(fb, 2)));
    expect(Math.max(...roundSpan(fb, 3))).toBeLessThan(Math.min(...roundSpan(fc, 3)));
    // Cache probe: the probe body repeated, on both engines, after the rounds.
    const probeBody = searches(fc)[0]?.body;
    expect(
      searches(fc)
        .slice(-10)
        .every((r) => r.body === probeBody),
    ).toBe(true);
    expect(raw.baseline.repeated).toHaveLength(10);
    expect(row.candidate.cache?.variedP50).toBe(row.candidate.p50);
  });

  it('stops at the configured rounds when the interval is decisive', async () => {
    const { sides: s } = await sides();
    const { raw, row } = await measureReadRowAdaptive(term, s, 'idx', settings, realClock, {
      wantsMore: () => false,
    });
    expect(raw.rounds).toBe(2);
    expect(row.remeasured).toBe(false);
    expect(row.reason).toMatch(/; 2 rounds$/);
  });
});
