import { describe, expect, it } from 'vitest';
import { addGcPauses, recordGcPauses, settleHeap } from '../src/load/harnessGc.js';
import { summarizeSide } from '../src/verdict/readRowResult.js';
import { okTimedSamples } from './helpers/samples.js';

/** Allocate enough short-lived objects to fill the young generation several times. */
function churn(objects: number): number {
  let kept = 0;
  for (let i = 0; i < objects; i++) {
    const o = { i, text: `object ${i}` };
    if (o.text.length === 0) kept++;
  }
  return kept;
}

describe("the harness's own GC around timed phases", () => {
  it('collects on demand, and counts the pauses inside a window but not those before it', async () => {
    expect(settleHeap()).toBe(true);
    churn(2_000_000);
    const before = recordGcPauses();
    const nothing = await before();
    expect(nothing.count).toBe(0);

    const window = recordGcPauses();
    churn(2_000_000);
    settleHeap();
    const inside = await window();
    expect(inside.count).toBeGreaterThanOrEqual(1);
    expect(inside.maxMs).toBeGreaterThan(0);
    expect(inside.totalMs).toBeGreaterThanOrEqual(inside.maxMs);
  });

  it('adds windows: counts and totals sum, the longest pause is kept', () => {
    const a = { count: 2, totalMs: 3, maxMs: 2 };
    expect(addGcPauses(undefined, a)).toEqual(a);
    expect(addGcPauses(a, { count: 1, totalMs: 5, maxMs: 5 })).toEqual({ count: 3, totalMs: 8, maxMs: 5 });
  });

  it("is published on the side's measurement of a read row", () => {
    const timed = okTimedSamples(50);
    const side = summarizeSide(
      { supported: true, timed, warmup: [], harnessGc: { count: 2, totalMs: 12.34567, maxMs: 9.87654 } },
      { rate: 200, collapseErrorRate: 0.01 },
    );
    expect(side.harnessGc).toEqual({ count: 2, totalMs: 12.346, maxMs: 9.877 });
  });
});
