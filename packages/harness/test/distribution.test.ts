import { describe, expect, it } from 'vitest';
import { ECDF_QUANTILES, ecdf, timeline } from '../src/stats/distribution.js';
import { hdrPercentile } from '../src/stats/hdr.js';
import { achievedRate, saturationReason, type TimedRequest } from '../src/stats/saturation.js';

describe('p99.9 from an HDR histogram', () => {
  it('needs 1,000 samples and is accurate to 3 significant digits', () => {
    expect(
      hdrPercentile(
        Array.from({ length: 999 }, () => 1),
        99.9,
      ),
    ).toBeUndefined();
    const xs = Array.from({ length: 10_000 }, (_, i) => (i + 1) / 100); // 0.01 .. 100 ms
    const p = hdrPercentile(xs, 99.9) as number;
    expect(Math.abs(p - 99.9) / 99.9).toBeLessThan(0.002);
  });
});

describe('compact ECDF', () => {
  it('keeps only the quantiles the sample supports, in order', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => i + 1);
    const full = ecdf(xs);
    expect(full?.q).toEqual(ECDF_QUANTILES);
    expect(full?.ms[full.q.indexOf(0.5)]).toBe(500);
    expect(full?.ms.at(-1)).toBe(999);
    expect(ecdf(xs.slice(0, 50))?.q.at(-1)).toBe(0.9);
    expect(ecdf([])).toBeUndefined();
  });
});

describe('timeline', () => {
  it('bins latency by intended send time and exposes a stall', () => {
    const points = Array.from({ length: 300 }, (_, i) => ({
      atMs: i * 10,
      latencyMs: i >= 150 && i < 160 ? 50 : 1,
    }));
    const t = timeline(points, 3000, 30);
    expect(t?.binMs).toBe(100);
    expect(t?.count).toEqual(Array.from({ length: 30 }, () => 10));
    expect(t?.p50[15]).toBe(50);
    expect(t?.p50[14]).toBe(1);
  });
});

/** One round of open-loop requests at `rate`, with latency per index. */
function round(rate: number, n: number, latency: (i: number) => number, r = 0): TimedRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    round: r,
    atMs: (i * 1000) / rate,
    latencyMs: latency(i),
    ok: true,
  }));
}

describe('saturation', () => {
  it('an engine that keeps up achieves the offered rate, whatever its latency', () => {
    const reqs = [...round(200, 300, () => 80, 0), ...round(200, 300, () => 2, 1)];
    expect(achievedRate(reqs)).toBeCloseTo(200, 5);
    expect(saturationReason(reqs, 200)).toBeUndefined();
  });
  it('an engine that queues answers at its capacity: short of the offered rate', () => {
    // Capacity 100/s: request i finishes at i * 10 ms, so latency grows by 5 ms per request.
    const reqs = round(200, 300, (i) => i * 10 - i * 5 + 1);
    expect(achievedRate(reqs)).toBeCloseTo(100, 5);
    expect(saturationReason(reqs, 200)).toMatch(/achieved 100 of 200 req\/s/);
  });
  it('latency climbing through a phase is saturation even at the offered rate', () => {
    const reqs = [
      ...round(200, 300, (i) => (i < 200 ? 1 : 3), 0),
      ...round(200, 300, (i) => (i < 200 ? 1 : 3), 1),
    ];
    expect(saturationReason(reqs, 200)).toMatch(
      /climbed.*p50 1\.00 ms in the first third, 3\.00 ms in the last/,
    );
    // Drift between rounds (the other engine ran in between) is not a climb.
    const drift = [...round(200, 300, () => 1, 0), ...round(200, 300, () => 3, 1)];
    expect(saturationReason(drift, 200)).toBeUndefined();
  });
});
