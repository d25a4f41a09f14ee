import { describe, expect, it } from 'vitest';
import type { RowResult } from '../src/scorecard/schema.js';
import { medianInterval } from '../src/stats/medianInterval.js';
import { baseOverall } from '../src/verdict/baseOverall.js';

const BASE = 'c'.repeat(40);
const SETTINGS = { confidence: 0.99, regressionMargin: 0.1 };

/** Read rows whose only content here is a CPU ratio against the merge-base build. */
function rows(cpuRatios: readonly number[]): RowResult[] {
  return cpuRatios.map(
    (cpuRatio, i) =>
      ({
        id: `query.r${i}`,
        versusBase: { baseRevision: BASE, ratio: 1, cpuRatio, verdict: 'SAME', reason: '' },
      }) as unknown as RowResult,
  );
}

/** n ratios spread evenly (in log space) by +/- spread around centre: a deterministic "noisy" run. */
const around = (centre: number, spread: number, n: number) =>
  Array.from({ length: n }, (_, i) => centre * Math.exp(spread * (2 * (i / (n - 1)) - 1)));

describe('medianInterval', () => {
  it('takes the sign-test order statistics: wider at higher confidence, never outside the data', () => {
    const xs = Array.from({ length: 85 }, (_, i) => i + 1);
    const at95 = medianInterval(xs, 0.95);
    const at99 = medianInterval(xs, 0.99);
    expect(at95?.median).toBe(43);
    // n = 85 at 95%: ranks 33 and 53 (P(B(85, 1/2) <= 32) = 0.0147 <= 0.025 < P(<= 33) = 0.0251).
    expect([at95?.low, at95?.high]).toEqual([33, 53]);
    expect(at99 && at95 && at99.low < at95.low && at99.high > at95.high).toBe(true);
    expect(medianInterval([5, 1, 3], 0.99)).toEqual({ median: 3, low: 1, high: 5, n: 3 });
    expect(medianInterval([], 0.99)).toBeUndefined();
  });
});

describe('baseOverall', () => {
  it('finds a regression every row shares, which no single row resolves', () => {
    // 20% more CPU in every request: ratios around 1/1.2 with +/-15% noise per row.
    const overall = baseOverall(rows(around(1 / 1.2, 0.15, 85)), SETTINGS, BASE);
    expect(overall.verdict, overall.reason).toBe('REGRESSED');
    expect(overall.cpuCi[1]).toBeLessThan(1 / 1.05);
  });

  it('leaves a clean run alone, even with a few-percent offset between the two processes and a row the change did slow', () => {
    const ratios = around(0.965, 0.15, 84);
    ratios.push(0.01);
    const overall = baseOverall(rows(ratios), SETTINGS, BASE);
    expect(overall.verdict, overall.reason).toBe('SAME');
  });

  it('calls a shared improvement IMPROVED and too few rows N/A', () => {
    expect(baseOverall(rows(around(1.25, 0.1, 40)), SETTINGS, BASE).verdict).toBe('IMPROVED');
    const few = baseOverall(rows([0.5, 0.5, 0.5]), SETTINGS, BASE);
    expect(few.verdict).toBe('N/A');
    expect(few.reason).toMatch(/fewer than 8/);
  });
});
