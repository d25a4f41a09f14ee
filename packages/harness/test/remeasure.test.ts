import { describe, expect, it } from 'vitest';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { ReadRowRaw } from '../src/model/raw.js';
import type { Sample } from '../src/model/samples.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { Rng } from '../src/rng.js';
import { readRowResult } from '../src/verdict/readRowResult.js';
import { wantsMoreRounds } from '../src/verdict/remeasure.js';

const settings = { ...DEFAULT_SETTINGS, rate: 200 };
const family = ALL_FAMILIES[0] as (typeof ALL_FAMILIES)[number];

/** Timed samples over `rounds` rounds, in schedule order, from a latency generator. */
function timed(latencies: number[], rounds = 4): Sample[] {
  const per = Math.ceil(latencies.length / rounds);
  return latencies.map((latencyMs, i) => ({
    i,
    phase: 'timed',
    round: Math.floor(i / per),
    atMs: (i % per) * 5,
    outcome: 'ok',
    status: 200,
    lagMs: 0.01,
    latencyMs,
    serviceMs: latencyMs - 0.01,
  }));
}

function raw(c: number[], b: number[], rounds = 4): ReadRowRaw {
  return {
    family,
    probeBody: {},
    candidate: { supported: true, timed: timed(c, rounds), warmup: [] },
    baseline: { supported: true, timed: timed(b, rounds), warmup: [] },
    rounds,
    forks: 1,
    signalChecks: 20,
    signalMismatches: 0,
  };
}

const draw = (seed: number, n: number, median: number, sigma: number) => {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => rng.logNormal(median, sigma));
};

describe('verdicts on synthetic samples', () => {
  it('identical distributions: a decisive TIE, no re-measure', () => {
    const row = readRowResult(raw(draw(1, 1200, 2, 0.1), draw(2, 1200, 2, 0.1)), settings);
    expect(row.verdict).toBe('TIE');
    expect(row.ci?.[0]).toBeGreaterThan(1 / 1.05);
    expect(row.ci?.[1]).toBeLessThan(1.05);
    expect(wantsMoreRounds(row, settings.tieMargin)).toBe(false);
  });

  it('a clear shift: WIN one way, LOSE the other, neither re-measured', () => {
    const base = draw(3, 1200, 2, 0.1);
    const win = readRowResult(raw(draw(4, 1200, 1.5, 0.1), base), settings);
    expect(win.verdict).toBe('WIN');
    expect(wantsMoreRounds(win, settings.tieMargin)).toBe(false);
    const lose = readRowResult(raw(draw(5, 1200, 2.7, 0.1), base), settings);
    expect(lose.verdict).toBe('LOSE');
    expect(wantsMoreRounds(lose, settings.tieMargin)).toBe(false);
    expect(lose.reason).toMatch(/; 1 fork, 4 rounds$/);
  });

  it('a wide interval asks for more rounds, whichever way it leans', () => {
    // Few, widely spread samples: the interval straddles a threshold.
    const leansWin = readRowResult(raw(draw(6, 60, 1.8, 0.8), draw(7, 60, 2, 0.8)), settings);
    expect(leansWin.ci?.[0]).toBeLessThan(1.05);
    expect(leansWin.ci?.[1]).toBeGreaterThan(1.05);
    expect(wantsMoreRounds(leansWin, settings.tieMargin)).toBe(true);
    const leansLose = readRowResult(raw(draw(8, 60, 2.2, 0.8), draw(9, 60, 2, 0.8)), settings);
    expect(wantsMoreRounds(leansLose, settings.tieMargin)).toBe(true);
  });

  it('the stop rule is symmetric and skips rows more rounds cannot change', () => {
    const row = readRowResult(raw(draw(1, 300, 2, 0.1), draw(2, 300, 2, 0.1)), settings);
    // The interval alone (no per-round ratios): the paired-round rule is tested below.
    const at = (ci: [number, number], over: Partial<typeof row> = {}) =>
      wantsMoreRounds(
        { ...row, ratio: (ci[0] + ci[1]) / 2, ci, verdict: 'TIE', roundRatios: undefined, ...over },
        0.05,
      );
    expect(at([1.02, 1.2])).toBe(true); // a WIN on a wide interval is re-measured too
    expect(at([0.8, 0.97])).toBe(true);
    expect(at([1.06, 1.2])).toBe(false);
    expect(at([0.8, 0.94])).toBe(false);
    expect(at([0.97, 1.03])).toBe(false);
    expect(at([0.8, 1.2], { verdict: 'N/A' })).toBe(false);
    expect(at([0.8, 1.2], { belowResolution: true })).toBe(false);
    // Beyond a threshold but only half the paired rounds agree: more rounds decide which half is off.
    expect(at([1.06, 1.2], { roundRatios: [1.3, 1.2, 0.98, 0.99] })).toBe(true);
    expect(at([1.06, 1.2], { roundRatios: [1.3, 1.2, 1.1, 0.99] })).toBe(false);
    expect(at([0.8, 0.94], { roundRatios: [0.8, 1.01, 1.02, 0.9] })).toBe(true);
  });
});
