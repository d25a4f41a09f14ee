import { describe, expect, it } from 'vitest';
import { mobileCpuSlowdown } from '../scripts/cpuSlowdown';

describe('mobileCpuSlowdown (Lighthouse throttling guide calculator)', () => {
  it("gives Lighthouse's default 4x on the host the default assumes", () => {
    expect(mobileCpuSlowdown(1533)).toBeCloseTo(4, 2);
  });
  it('slows a faster host more and a slower host less, continuously at the bracket edges', () => {
    expect(mobileCpuSlowdown(2000)).toBeCloseTo(6, 1);
    expect(mobileCpuSlowdown(1300)).toBeCloseTo(3, 5);
    expect(mobileCpuSlowdown(1299.999)).toBeCloseTo(3, 2);
    expect(mobileCpuSlowdown(800)).toBeCloseTo(2, 5);
    expect(mobileCpuSlowdown(799.999)).toBeCloseTo(2, 2);
    expect(mobileCpuSlowdown(475)).toBeCloseTo(1.5, 5);
    expect(mobileCpuSlowdown(100)).toBe(1);
  });
  it('refuses a missing BenchmarkIndex instead of guessing', () => {
    expect(() => mobileCpuSlowdown(Number.NaN)).toThrow(/BenchmarkIndex/);
    expect(() => mobileCpuSlowdown(0)).toThrow(/BenchmarkIndex/);
  });
});
