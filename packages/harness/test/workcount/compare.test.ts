import { describe, expect, it } from 'vitest';
import { byChangeSize, COUNT_THRESHOLD, compareCounts, compareRow } from '../../src/workcount/compare.js';
import type { BuildCount, RowCount } from '../../src/workcount/types.js';

const count = (row: string, perRequest: number, ok = 40): RowCount => ({
  row,
  requests: 40,
  ok,
  instructions: perRequest * 40,
  instructionsPerRequest: perRequest,
});

const build = (rows: RowCount[]): BuildCount => ({ tree: 't', rows, wallMs: 1, cacheSim: false });
const context = {
  baseRevision: 'a'.repeat(40),
  headRevision: 'b'.repeat(40),
  corpus: { name: 'llm-telemetry', docs: 20_000, seed: 42 },
  sizes: { warmup: 10, timed: 40 },
  timings: {},
};

describe('the count rule', () => {
  it('is a regression from 3% more instructions per request, an improvement from 3% fewer', () => {
    expect(COUNT_THRESHOLD).toBe(0.03);
    const verdict = (head: number) =>
      compareRow('r', count('r', 1_000_000), count('r', head), COUNT_THRESHOLD).verdict;
    expect(verdict(1_029_999)).toBe('SAME');
    expect(verdict(1_030_000)).toBe('REGRESSED');
    expect(verdict(1_200_000)).toBe('REGRESSED');
    expect(verdict(970_001)).toBe('SAME');
    expect(verdict(970_000)).toBe('IMPROVED');
    expect(verdict(1_000_000)).toBe('SAME');
  });

  it('says the figures: both counts and the change', () => {
    const r = compareRow('r', count('r', 1_000_000), count('r', 1_031_000), COUNT_THRESHOLD);
    expect(r.change).toBeCloseTo(0.031, 10);
    expect(r.reason).toBe('1,031,000 against 1,000,000 instructions per request (+3.10%)');
  });

  it('does not compare a row the builds answered differently, or one only a build counted', () => {
    const differs = compareRow('r', count('r', 100, 40), count('r', 100, 39), COUNT_THRESHOLD);
    expect(differs.verdict).toBe('N/A');
    expect(differs.reason).toMatch(/answered differently: 39 of 40/);
    const replied = (bytes: number | undefined): RowCount => ({
      ...count('r', 100),
      ...(bytes === undefined ? {} : { replyBytes: bytes }),
    });
    const otherReply = compareRow('r', replied(4_000), replied(1_600), COUNT_THRESHOLD);
    expect(otherReply.verdict).toBe('N/A');
    expect(otherReply.reason).toBe(
      'the builds answered differently: 40 bytes of reply per request against 100 on the merge base',
    );
    expect(compareRow('r', replied(4_000), replied(4_000), COUNT_THRESHOLD).verdict).toBe('SAME');
    expect(compareRow('r', replied(undefined), replied(1_600), COUNT_THRESHOLD).verdict).toBe('SAME');
    expect(compareRow('r', undefined, count('r', 1), COUNT_THRESHOLD).reason).toMatch(/merge-base build/);
    expect(compareRow('r', count('r', 1), undefined, COUNT_THRESHOLD).reason).toMatch(/pull request build/);
  });

  it('compares every row of either build and sorts the moved ones by the size of the change', () => {
    const c = compareCounts(
      build([count('a', 100), count('b', 100), count('c', 100), count('gone', 5)]),
      build([count('a', 101), count('b', 90), count('c', 100), count('new', 5)]),
      context,
    );
    expect(c.rows.map((r) => [r.row, r.verdict])).toEqual([
      ['a', 'SAME'],
      ['b', 'IMPROVED'],
      ['c', 'SAME'],
      ['new', 'N/A'],
      ['gone', 'N/A'],
    ]);
    expect(byChangeSize(c.rows).map((r) => r.row)).toEqual(['b', 'a']);
  });
});
