import { describe, expect, it } from 'vitest';
import { aaFinding, plantFinding, plantIterations, plantSpec } from '../../src/calibrate/countsPlan.js';
import type { BuildCount, CountComparison, RowCountChange } from '../../src/workcount/types.js';

const reference: BuildCount = {
  tree: 't',
  wallMs: 1,
  cacheSim: false,
  rows: [
    { row: 'a', requests: 40, ok: 40, instructions: 40_000_000, instructionsPerRequest: 1_000_000 },
    { row: 'b', requests: 40, ok: 40, instructions: 4_000_000, instructionsPerRequest: 100_000 },
  ],
};

const comparison = (rows: Partial<RowCountChange>[]): CountComparison => ({
  baseRevision: 'x',
  headRevision: 'x',
  threshold: 0.03,
  corpus: { name: 'c', docs: 1, seed: 1 },
  sizes: { warmup: 1, timed: 1 },
  timings: {},
  rows: rows.map((r) => ({ row: 'r', verdict: 'SAME', reason: '', ...r })),
});

describe('the count calibration', () => {
  it('sizes a plant to at least its share of the row, from the loop cost per iteration', () => {
    expect(plantIterations(1_000_000, 0.03, 4)).toBe(7500);
    expect(plantIterations(1_000_001, 0.03, 4)).toBe(7501);
    expect(plantSpec(reference, ['a', 'b'], 0.2, 4)).toBe('a=50000,b=5000');
    expect(() => plantSpec(reference, ['nope'], 0.2, 4)).toThrow(/no count for row nope/);
  });

  it('counts what an A/A comparison shows: every flag and every 1% move is false', () => {
    const clean = aaFinding(
      comparison([
        { row: 'a', change: 0 },
        { row: 'b', change: 0 },
      ]),
    );
    expect(clean).toEqual({ maxAbsChange: 0, rowsChanged: 0, rowsAtOnePercent: 0, falseFlags: [] });
    const noisy = aaFinding(
      comparison([
        { row: 'a', change: -0.012 },
        { row: 'b', change: 0.04, verdict: 'REGRESSED' },
      ]),
    );
    expect(noisy).toMatchObject({
      maxAbsChange: 0.04,
      rowsChanged: 2,
      rowsAtOnePercent: 2,
      falseFlags: ['b'],
    });
  });

  it('tells a plant found on its rows from one found elsewhere or missed', () => {
    const found = plantFinding(
      comparison([
        { row: 'a', change: 0.0301, verdict: 'REGRESSED' },
        { row: 'b', change: 0 },
      ]),
      ['a'],
      0.03,
    );
    expect(found).toMatchObject({ found: ['a'], missed: [], falseFlags: [], maxUnplantedChange: 0 });
    expect(found.measured.a).toBeCloseTo(0.0301);
    const wrong = plantFinding(
      comparison([
        { row: 'a', change: 0.01 },
        { row: 'b', change: 0.05, verdict: 'REGRESSED' },
      ]),
      ['a'],
      0.03,
    );
    expect(wrong).toMatchObject({ missed: ['a'], falseFlags: ['b'], maxUnplantedChange: 0.05 });
  });
});
