import { describe, expect, it } from 'vitest';
import { median, minSamplesFor, percentile, percentileSorted } from '../src/stats/percentile.js';

describe('nearest-rank percentiles', () => {
  it('picks the ceil(p/100 * n)-th value', () => {
    const xs = [15, 20, 35, 40, 50];
    expect(percentileSorted(xs, 5)).toBe(15);
    expect(percentileSorted(xs, 30)).toBe(20);
    expect(percentileSorted(xs, 40)).toBe(20);
    expect(percentileSorted(xs, 50)).toBe(35);
    expect(percentileSorted(xs, 100)).toBe(50);
    expect(percentileSorted(xs, 0)).toBe(15);
  });
  it('sorts unsorted input and computes the median', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2);
  });
  it('reports p99 only when the sample supports it', () => {
    expect(minSamplesFor(99)).toBe(100);
    const xs99 = Array.from({ length: 99 }, (_, i) => i);
    const xs100 = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs99, 99)).toBeUndefined();
    expect(percentile(xs100, 99)).toBe(99);
    expect(percentile(xs99, 50)).toBe(49);
    expect(percentile([], 50)).toBeUndefined();
  });
  it('rejects nonsense', () => {
    expect(() => percentileSorted([], 50)).toThrow();
    expect(() => percentileSorted([1], 101)).toThrow();
  });
});
