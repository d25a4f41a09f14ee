import { describe, expect, it } from 'vitest';
import { aaTally, powerTally } from '../src/calibrate/tally.js';
import type { RowResult } from '../src/scorecard/schema.js';
import { sampleCard } from './helpers/card.js';

const read = (
  id: string,
  verdict: RowResult['verdict'],
  p50: number,
  over: Partial<RowResult> = {},
): RowResult => ({
  id,
  group: 'query',
  family: id,
  title: id,
  unit: 'ms',
  betterIs: 'lower',
  candidate: { supported: true, samples: 600, errors: 0, p50: p50 * 1.1 },
  baseline: { supported: true, samples: 600, errors: 0, p50 },
  ratio: 0.9,
  ci: [0.85, 0.95],
  verdict,
  reason: '',
  ...over,
});

function card(rows: RowResult[]) {
  const c = sampleCard();
  c.rows = [c.rows[0] as RowResult, ...rows]; // keep the ingest row: it is tallied apart
  return c;
}

describe('calibration tallies', () => {
  it('A/A: every WIN or LOSE on a read row is false; the ingest row is tallied apart', () => {
    const t = aaTally(
      card([
        read('query.a', 'TIE', 2),
        read('query.b', 'LOSE', 2),
        read('query.c', 'TIE', 0.4, { belowResolution: true }),
        read('query.d', 'N/A', 2, { remeasured: true }),
      ]),
    );
    expect(t.readRows).toBe(4);
    expect(t.counts).toEqual({ WIN: 0, LOSE: 1, TIE: 2, 'N/A': 1 });
    expect(t.falseVerdicts).toEqual(['query.b LOSE (0.9 [0.85, 0.95])']);
    expect(t.belowResolution).toBe(1);
    expect(t.remeasured).toBe(1);
    // The sample card's ingest row is a WIN: against itself, a false one.
    expect(t.ingest).toEqual({ row: 'ingest.1-client WIN (3 [2.5, 3.5])', false: true });
  });

  it('A/A: a tied ingest row is not false, and an N/A one is not tallied', () => {
    const tied = card([]);
    Object.assign(tied.rows[0] as RowResult, { verdict: 'TIE', ratio: 1.02, ci: [0.9, 1.15] });
    expect(aaTally(tied).ingest).toEqual({ row: 'ingest.1-client TIE (1.02 [0.9, 1.15])', false: false });
    const na = card([]);
    Object.assign(na.rows[0] as RowResult, { verdict: 'N/A' });
    expect(aaTally(na).ingest).toBeUndefined();
  });

  it('A/A by CPU per request: an interval clear of 1 beyond the margin is false', () => {
    const t = aaTally(
      card([
        read('query.a', 'TIE', 2, { cpuRatio: 0.9, cpuCi: [0.85, 0.95] }),
        read('query.b', 'TIE', 2, { cpuRatio: 0.97, cpuCi: [0.95, 0.99] }), // inside the 5% margin
        read('query.c', 'TIE', 2, { cpuRatio: 1.2, cpuCi: [0.9, 1.5] }),
        read('query.d', 'TIE', 2),
      ]),
    );
    expect(t.cpuRows).toBe(3);
    expect(t.falseCpuVerdicts).toEqual(['query.a LOSE (CPU 0.9 [0.85, 0.95])']);
  });

  it('power: LOSE share by latency (rows whose unslowed p50 is at least 1 ms) and by CPU (every comparable row)', () => {
    const t = powerTally(
      card([
        read('query.a', 'LOSE', 2, { cpuRatio: 0.9, cpuCi: [0.88, 0.92] }),
        read('query.b', 'TIE', 3, { cpuRatio: 0.91, cpuCi: [0.9, 0.93] }),
        read('query.c', 'LOSE', 0.8, { cpuRatio: 0.97, cpuCi: [0.9, 1.02] }), // below 1 ms for latency
        read('query.d', 'N/A', 5),
      ]),
      0.1,
    );
    expect(t).toMatchObject({ notComparable: 1, slowdown: 0.1 });
    expect(t.latency).toMatchObject({ eligible: 2, detected: 1, power: 0.5 });
    expect(t.latency.missed).toEqual(['query.b TIE (0.9 [0.85, 0.95])']);
    expect(t.cpu).toMatchObject({ eligible: 3, detected: 2, power: 0.667 });
    expect(powerTally(card([]), 0.1).latency.power).toBeNull();
  });
});

describe('variance at each level (Kalibera & Jones)', () => {
  it('separates the fork-level spread from the rounds within forks, and picks rounds per fork by cost', async () => {
    const { optimalRoundsPerFork, varianceComponents } = await import('../src/calibrate/variance.js');
    const c = card([
      // Forks 1.0, 1.2, 0.8 (a fork effect); rounds within each fork agree exactly.
      read('query.a', 'TIE', 2, { forkRatios: [1, 1.2, 0.8], roundRatios: [1, 1, 1.2, 1.2, 0.8, 0.8] }),
    ]);
    c.manifest.design = { forks: 3, roundsPerFork: 2, requestsPerRound: 60, basis: 'test' };
    const v = varianceComponents([c]);
    expect(v.rows).toBe(1);
    expect(v.roundSdWithinFork).toBe(0);
    expect(v.forkSd).toBeCloseTo(0.2, 1);
    expect(v.forkComponentSd).toBeCloseTo(v.forkSd, 4);
    // No within-fork noise: one round per fork is enough; pure within-fork noise wants many.
    expect(optimalRoundsPerFork(v, 60, 1)).toBe(1);
    expect(optimalRoundsPerFork({ ...v, forkComponentSd: 0, roundSdWithinFork: 0.1 }, 60, 1)).toBe(10);
  });
});
