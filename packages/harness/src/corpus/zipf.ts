import type { Rng } from '../rng.js';

/**
 * Draws items with Zipf-like skew: the item at rank r (1-based) has weight 1 / r^s.
 * Real telemetry looks like this: a few models and tenants produce most of the traffic.
 */
export class ZipfPicker<T> {
  private readonly cumulative: number[];

  constructor(
    readonly items: readonly T[],
    readonly exponent: number,
  ) {
    if (items.length === 0) throw new Error('ZipfPicker needs at least one item');
    let total = 0;
    this.cumulative = items.map((_, i) => {
      total += 1 / (i + 1) ** exponent;
      return total;
    });
  }

  /** The probability of the item at index i, for tests and for weighting query parameters. */
  probability(i: number): number {
    const total = this.cumulative[this.cumulative.length - 1] as number;
    const prev = i === 0 ? 0 : (this.cumulative[i - 1] as number);
    return ((this.cumulative[i] as number) - prev) / total;
  }

  pick(rng: Rng): T {
    const total = this.cumulative[this.cumulative.length - 1] as number;
    const target = rng.float() * total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}
