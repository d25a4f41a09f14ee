/**
 * Nearest-rank percentiles, and the rule for which ones a sample supports: a p99 from 50
 * samples is the second-largest value dressed up as a tail, so it is not reported.
 */

/** The smallest sample count at which percentile p (0-100) is reported. */
export function minSamplesFor(p: number): number {
  if (p <= 50) return 1;
  if (p <= 90) return 10;
  if (p <= 99) return 100;
  if (p <= 99.9) return 1000;
  return 10_000;
}

/** Nearest-rank percentile of values already sorted ascending: the ceil(p/100 * n)-th value. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new Error('percentile of an empty sample');
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile must be in [0, 100], got ${p}`);
  // The epsilon keeps float noise (0.999 * 1000 = 999.0000000000001) from skipping a rank.
  const rank = Math.max(1, Math.ceil((p / 100) * n - 1e-9));
  return sorted[rank - 1] as number;
}

export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** Percentile p of values, or undefined when the sample is too small to support it. */
export function percentile(values: ArrayLike<number>, p: number): number | undefined {
  if (values.length < minSamplesFor(p) || values.length === 0) return undefined;
  return percentileSorted(sortedCopy(values), p);
}

export function median(values: ArrayLike<number>): number {
  return percentileSorted(sortedCopy(values), 50);
}
