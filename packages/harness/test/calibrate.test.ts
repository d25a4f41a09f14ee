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
  c.rows = [c.rows[0] as RowResult, ...rows]; // keep the ingest row: it must not count
  return c;
}

describe('calibration tallies', () => {
  it('A/A: every WIN or LOSE on a read row is false; other rows do not count', () => {
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
  });

  it('power: LOSE share of comparable rows whose unslowed p50 is above 1 ms', () => {
    const t = powerTally(
      card([
        read('query.a', 'LOSE', 2),
        read('query.b', 'TIE', 3),
        read('query.c', 'LOSE', 0.8), // below 1 ms: not eligible
        read('query.d', 'N/A', 5),
      ]),
      0.1,
    );
    expect(t).toMatchObject({ eligible: 2, detected: 1, power: 0.5, notComparable: 1, slowdown: 0.1 });
    expect(t.missed).toEqual(['query.b TIE (0.9 [0.85, 0.95])']);
    expect(powerTally(card([]), 0.1).power).toBeNull();
  });
});
