import { Rng } from '../rng.js';
import { percentileSorted } from './percentile.js';

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** Two-sided coverage, e.g. 0.95. */
  confidence?: number;
  /**
   * Consecutive samples resampled together (moving-block bootstrap). Latency noise on a shared
   * box comes in bursts; resampling single requests would treat a burst as independent luck
   * and give an interval that is too narrow. 1 = ordinary bootstrap.
   */
  blockSize?: number;
}

function resample(values: Float64Array, rng: Rng, into: Float64Array, blockSize: number): Float64Array {
  // At least 10 blocks per side, or the resamples are just reshuffles of two or three blocks.
  const block = Math.max(1, Math.min(blockSize, Math.floor(values.length / 10)));
  const lastStart = values.length - block;
  for (let i = 0; i < into.length; ) {
    const start = rng.int(0, lastStart);
    for (let j = 0; j < block && i < into.length; j++, i++) into[i] = values[start + j] as number;
  }
  return into;
}

function medianInPlace(values: Float64Array): number {
  return percentileSorted(values.sort(), 50);
}

/**
 * Percentile bootstrap of a ratio statistic between two independent samples (in time order): each side is
 * resampled with replacement and its statistic is applied to the resample (the denominator's
 * defaults to the numerator's). Seeded, so the same
 * samples always give the same interval.
 */
export function bootstrapRatio(
  numerator: ArrayLike<number>,
  denominator: ArrayLike<number>,
  statistic: (resampled: Float64Array) => number,
  options: BootstrapOptions = {},
  denominatorStatistic: (resampled: Float64Array) => number = statistic,
): Interval {
  const { resamples = 1000, seed = 1, confidence = 0.95, blockSize = 1 } = options;
  if (numerator.length === 0 || denominator.length === 0)
    throw new Error('bootstrap needs samples on both sides');
  const num = Float64Array.from(numerator);
  const den = Float64Array.from(denominator);
  const estimate = statistic(Float64Array.from(num)) / denominatorStatistic(Float64Array.from(den));
  const rng = new Rng(seed);
  const bufNum = new Float64Array(num.length);
  const bufDen = new Float64Array(den.length);
  const ratios = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    ratios[r] =
      statistic(resample(num, rng, bufNum, blockSize)) /
      denominatorStatistic(resample(den, rng, bufDen, blockSize));
  }
  ratios.sort();
  const tail = ((1 - confidence) / 2) * 100;
  return { estimate, low: percentileSorted(ratios, tail), high: percentileSorted(ratios, 100 - tail) };
}

/** CI of median(numerator) / median(denominator). For latency pass (baseline, candidate) so > 1 favours the candidate. */
export function bootstrapMedianRatio(
  numerator: ArrayLike<number>,
  denominator: ArrayLike<number>,
  options: BootstrapOptions = {},
): Interval {
  return bootstrapRatio(numerator, denominator, medianInPlace, options);
}

/**
 * Throughput of a run from its per-bulk latencies: docs / (sum of bulk times + the fixed rest,
 * i.e. refresh and gaps). Resampling the bulks gives an interval for the run's docs/s.
 */
export function throughputStatistic(docs: number, fixedMs: number): (bulkMs: Float64Array) => number {
  return (bulkMs) => {
    let sum = fixedMs;
    for (const ms of bulkMs) sum += ms;
    return docs / (sum / 1000);
  };
}
