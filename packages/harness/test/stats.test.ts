import { describe, expect, it } from 'vitest';
import { Rng } from '../src/rng.js';
import { bootstrapMedianRatio, bootstrapRatio, throughputStatistic } from '../src/stats/bootstrap.js';
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

function lognormalSample(seed: number, n: number, median: number): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => rng.logNormal(median, 0.5));
}

describe('bootstrap CI of a ratio of medians', () => {
  it('contains 1 when both sides come from the same distribution', () => {
    const a = lognormalSample(1, 400, 10);
    const b = lognormalSample(2, 400, 10);
    const ci = bootstrapMedianRatio(a, b, { seed: 7 });
    expect(ci.low).toBeLessThan(1);
    expect(ci.high).toBeGreaterThan(1);
    expect(ci.low).toBeLessThanOrEqual(ci.estimate);
    expect(ci.high).toBeGreaterThanOrEqual(ci.estimate);
  });
  it('excludes 1 for a clear shift, with the estimate near the true ratio', () => {
    const baseline = lognormalSample(3, 400, 12);
    const candidate = lognormalSample(4, 400, 10);
    const ci = bootstrapMedianRatio(baseline, candidate, { seed: 7 });
    expect(ci.low).toBeGreaterThan(1);
    expect(ci.estimate).toBeGreaterThan(1.1);
    expect(ci.estimate).toBeLessThan(1.3);
  });
  it('is reproducible from its seed and changes with it', () => {
    const a = lognormalSample(5, 200, 10);
    const b = lognormalSample(6, 200, 10);
    expect(bootstrapMedianRatio(a, b, { seed: 11 })).toEqual(bootstrapMedianRatio(a, b, { seed: 11 }));
    expect(bootstrapMedianRatio(a, b, { seed: 11 })).not.toEqual(bootstrapMedianRatio(a, b, { seed: 12 }));
  });
  it('widens the interval for bursty (autocorrelated) samples when resampling blocks', () => {
    // Bursts: runs of 50 requests share a slow or fast regime.
    const rng = new Rng(9);
    const bursty = (m: number) =>
      Array.from({ length: 12 }, () => m * (rng.float() < 0.5 ? 1 : 1.6)).flatMap((level) =>
        Array.from({ length: 50 }, () => level * rng.logNormal(1, 0.1)),
      );
    const a = bursty(10);
    const b = bursty(10);
    const iid = bootstrapMedianRatio(a, b, { seed: 3 });
    const blocked = bootstrapMedianRatio(a, b, { seed: 3, blockSize: 50 });
    expect(blocked.high - blocked.low).toBeGreaterThan(1.5 * (iid.high - iid.low));
    expect(blocked.estimate).toBe(iid.estimate);
  });

  it('gives a throughput ratio from per-bulk latencies', () => {
    // Candidate bulks take 10 ms, baseline 20 ms, same docs, no fixed time: exactly 2x.
    const c = Array.from({ length: 50 }, () => 10);
    const b = Array.from({ length: 50 }, () => 20);
    const ci = bootstrapRatio(c, b, throughputStatistic(5000, 0), { seed: 1 }, throughputStatistic(5000, 0));
    expect(ci.estimate).toBeCloseTo(2, 10);
    expect(ci.low).toBeCloseTo(2, 10);
    expect(throughputStatistic(1000, 500)(Float64Array.from([250, 250]))).toBe(1000);
  });
});
