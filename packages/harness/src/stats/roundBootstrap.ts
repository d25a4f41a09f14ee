import { Rng } from '../rng.js';
import type { BootstrapOptions, Interval } from './bootstrap.js';
import { percentileSorted } from './percentile.js';
import { normalQuantile, studentTQuantile } from './quantiles.js';

/** One paired round: both engines' timed samples of that round, each in time order. */
export interface RoundPair {
  numerator: ArrayLike<number>;
  denominator: ArrayLike<number>;
}

export interface RoundInterval extends Interval {
  /** The statistic's ratio within each round, in round order: the paired evidence the verdict counts. */
  roundRatios: number[];
  /** The factor the replicates' spread was widened by for few rounds (1: not widened). */
  widening: number;
}

/**
 * Circular-block resample of `values` appended into `into` from `at` (Politis and Romano): a block
 * may wrap from the round's end to its start, so the first and last requests of a round are drawn
 * as often as any (plain moving blocks under-draw the edges, which matters for a tail statistic).
 * At least 10 blocks per round, or a resample is a reshuffle of two or three blocks.
 */
function appendBlocks(
  values: Float64Array,
  rng: Rng,
  into: Float64Array,
  at: number,
  blockSize: number,
): number {
  const n = values.length;
  const block = Math.max(1, Math.min(blockSize, Math.floor(n / 10)));
  const end = at + n;
  for (let i = at; i < end; ) {
    const start = rng.int(0, n - 1);
    for (let j = 0; j < block && i < end; j++, i++) into[i] = values[(start + j) % n] as number;
  }
  return end;
}

/**
 * How much wider than its own spread a bootstrap over R rounds must be to cover as a t interval
 * on R paired values would: the bootstrap sees the rounds' spread with divisor R instead of R - 1
 * (sqrt(R / (R - 1))) and a normal tail where R - 1 degrees of freedom give a t tail
 * (t / z). This is Hesterberg's expanded-percentile correction, applied by scaling the replicates
 * around the estimate rather than by moving the percentiles (1000 replicates have no stable
 * 0.01% tail). 2 rounds: x9.2; 4: x1.87; 6: x1.44; 10: x1.2; one round: no round level, 1.
 */
export function roundWidening(rounds: number, confidence: number): number {
  if (rounds < 2) return 1;
  const p = 1 - (1 - confidence) / 2;
  return (Math.sqrt(rounds / (rounds - 1)) * studentTQuantile(p, rounds - 1)) / normalQuantile(p);
}

/**
 * Two-level (hierarchical) percentile bootstrap of statistic(numerator) / statistic(denominator)
 * over paired rounds: each replicate draws R rounds with replacement, then within each drawn
 * round resamples blocks of each engine's samples, pools the drawn rounds per engine and takes
 * the ratio. Resampling rounds first is what lets the interval see drift between rounds (JIT, GC,
 * a neighbour's load): samples within a round share its conditions, so resampling them alone
 * treats one lucky round as hundreds of independent requests. Resampling inside the rounds as
 * well is slightly conservative (within-round noise is counted at both levels); that is the
 * direction a benchmark gate should err in.
 *
 * The interval is the percentile interval of the log ratios, widened around the estimate by
 * roundWidening (few rounds). Estimate: the ratio over all samples pooled, as before.
 * Seeded: the same rounds always give the same interval.
 */
export function roundBootstrapRatio(
  rounds: readonly RoundPair[],
  statistic: (values: Float64Array) => number,
  options: BootstrapOptions = {},
): RoundInterval {
  const { resamples = 1000, seed = 1, confidence = 0.95, blockSize = 1 } = options;
  const pairs = rounds
    .map((r) => ({ num: Float64Array.from(r.numerator), den: Float64Array.from(r.denominator) }))
    .filter((r) => r.num.length > 0 && r.den.length > 0);
  if (pairs.length === 0) throw new Error('round bootstrap needs a round with samples on both sides');
  // The estimate pools every sample, a round with one side empty included (as the p50s do);
  // only complete pairs can be resampled as pairs.
  const pooled = (side: 'numerator' | 'denominator') =>
    Float64Array.from(rounds.flatMap((r) => Array.from(r[side])));
  const estimate = statistic(pooled('numerator')) / statistic(pooled('denominator'));
  const roundRatios = pairs.map(
    (p) => statistic(Float64Array.from(p.num)) / statistic(Float64Array.from(p.den)),
  );

  const rng = new Rng(seed);
  const R = pairs.length;
  // Drawn rounds differ in size; a buffer for the largest possible draw is reused, then cut.
  const maxNum = Math.max(...pairs.map((p) => p.num.length)) * R;
  const maxDen = Math.max(...pairs.map((p) => p.den.length)) * R;
  const bufNum = new Float64Array(maxNum);
  const bufDen = new Float64Array(maxDen);
  const logs = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let n = 0;
    let d = 0;
    for (let k = 0; k < R; k++) {
      const pair = pairs[rng.int(0, R - 1)] as (typeof pairs)[number];
      n = appendBlocks(pair.num, rng, bufNum, n, blockSize);
      d = appendBlocks(pair.den, rng, bufDen, d, blockSize);
    }
    logs[r] = Math.log(statistic(bufNum.subarray(0, n)) / statistic(bufDen.subarray(0, d)));
  }
  logs.sort();
  const tail = ((1 - confidence) / 2) * 100;
  const widening = roundWidening(R, confidence);
  const center = Math.log(estimate);
  const widen = (x: number) => Math.exp(center + widening * (x - center));
  return {
    estimate,
    low: widen(percentileSorted(logs, tail)),
    high: widen(percentileSorted(logs, 100 - tail)),
    roundRatios,
    widening,
  };
}

/** Median of a scratch buffer (sorted in place: the bootstrap owns it). */
export const medianInPlace = (values: Float64Array): number => percentileSorted(values.sort(), 50);

/** Split samples tagged with their round into paired rounds, in round order (a round missing a side is kept empty). */
export function pairRounds<T extends { round: number }>(
  numerator: readonly T[],
  denominator: readonly T[],
  value: (s: T) => number,
): RoundPair[] {
  const byRound = new Map<number, { numerator: number[]; denominator: number[] }>();
  const slot = (round: number) => {
    let s = byRound.get(round);
    if (!s) {
      s = { numerator: [], denominator: [] };
      byRound.set(round, s);
    }
    return s;
  };
  for (const s of numerator) slot(s.round).numerator.push(value(s));
  for (const s of denominator) slot(s.round).denominator.push(value(s));
  return [...byRound.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}
