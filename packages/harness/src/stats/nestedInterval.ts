import { percentileSorted } from './percentile.js';
import { studentTQuantile } from './quantiles.js';

/** One paired round: both engines' timed samples of that round, and the fork it ran in. */
export interface RoundPair {
  numerator: ArrayLike<number>;
  denominator: ArrayLike<number>;
  /** The process execution (fork) the round ran in; absent: all in one. */
  fork?: number;
}

export interface NestedInterval {
  /** The statistic's ratio over every sample pooled (what the scorecard calls the ratio). */
  estimate: number;
  low: number;
  high: number;
  /** The ratio within each paired round, in round order. */
  roundRatios: number[];
  /** The ratio within each fork (its rounds pooled), in fork order. */
  forkRatios: number[];
  /** What the interval's spread came from: forks, or rounds when everything ran in one fork. */
  level: 'forks' | 'rounds';
  /** Units at that level, and the t quantile's degrees of freedom (units - 1). */
  units: number;
}

/**
 * The interval of a ratio measured in nested levels (forks x rounds x requests), from the top
 * level alone, as Kalibera and Jones prescribe ("Rigorous benchmarking in reasonable time",
 * ISMM 2013): each fork's ratio already carries the noise of every level below it (its rounds,
 * its requests), and forks are the independent replications: two processes of one JVM differ
 * by 7-35% on a row for their whole life, and rounds within one process share its JIT, heap and
 * GC state. So the interval is a t interval on the forks' log ratios, with forks - 1 degrees of
 * freedom, centred on the pooled estimate. With a single fork (rows whose index lives in one
 * process: kNN, read-under-write), the rounds are the top level.
 *
 * Few units mean a wide interval by design: the t quantile pays for not knowing the top level's
 * variance. `confidence` is two-sided.
 */
export function nestedRatioInterval(
  rounds: readonly RoundPair[],
  statistic: (values: Float64Array) => number,
  confidence: number,
): NestedInterval {
  const pairs = rounds
    .map((r) => ({ fork: r.fork ?? 0, num: Array.from(r.numerator), den: Array.from(r.denominator) }))
    .filter((r) => r.num.length > 0 && r.den.length > 0);
  if (pairs.length === 0) throw new Error('a ratio interval needs a round with samples on both sides');
  const ratioOf = (group: readonly (typeof pairs)[number][]) =>
    statistic(Float64Array.from(group.flatMap((p) => p.num))) /
    statistic(Float64Array.from(group.flatMap((p) => p.den)));
  const estimate =
    statistic(Float64Array.from(rounds.flatMap((r) => Array.from(r.numerator)))) /
    statistic(Float64Array.from(rounds.flatMap((r) => Array.from(r.denominator))));
  const roundRatios = pairs.map((p) => ratioOf([p]));
  const forkRatios = groupByFork(pairs).map(ratioOf);
  const level = forkRatios.length > 1 ? 'forks' : 'rounds';
  const units = level === 'forks' ? forkRatios : roundRatios;
  return {
    estimate,
    ...tInterval(estimate, units, confidence),
    roundRatios,
    forkRatios,
    level,
    units: units.length,
  };
}

/**
 * The same for a ratio of sums with one value per engine per round (engine CPU per request:
 * cpu ns and requests of each timed phase): per fork, sum/sum over its rounds.
 */
export function nestedRatioOfSums(
  rounds: readonly { fork: number; num: [number, number]; den: [number, number] }[],
  confidence: number,
): NestedInterval {
  if (rounds.length === 0) throw new Error('a ratio of sums needs at least one round');
  const ratio = (group: readonly (typeof rounds)[number][]) => {
    let [num, numN, den, denN] = [0, 0, 0, 0];
    for (const r of group) {
      num += r.num[0];
      numN += r.num[1];
      den += r.den[0];
      denN += r.den[1];
    }
    return num / numN / (den / denN);
  };
  const estimate = ratio(rounds);
  const roundRatios = rounds.map((r) => ratio([r]));
  const forkRatios = groupByFork(rounds).map(ratio);
  const level = forkRatios.length > 1 ? 'forks' : 'rounds';
  const units = level === 'forks' ? forkRatios : roundRatios;
  return {
    estimate,
    ...tInterval(estimate, units, confidence),
    roundRatios,
    forkRatios,
    level,
    units: units.length,
  };
}

function groupByFork<T extends { fork: number }>(items: readonly T[]): T[][] {
  const forks = [...new Set(items.map((p) => p.fork))].sort((a, b) => a - b);
  return forks.map((f) => items.filter((p) => p.fork === f));
}

/**
 * exp(log(estimate) +/- t * sd(log units) / sqrt(n)); a single unit gives no interval ([0, inf]:
 * nothing can be decided from one replication).
 */
export function tInterval(estimate: number, units: readonly number[], confidence: number) {
  const logs = units.filter((u) => u > 0 && Number.isFinite(u)).map(Math.log);
  const n = logs.length;
  if (n < 2 || !(estimate > 0)) return { low: 0, high: Number.POSITIVE_INFINITY };
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * (sd / Math.sqrt(n));
  const center = Math.log(estimate);
  return { low: Math.exp(center - half), high: Math.exp(center + half) };
}

/** Median of a scratch buffer (sorted in place: the caller owns it). */
export const medianInPlace = (values: Float64Array): number => percentileSorted(values.sort(), 50);

/** Split samples tagged with their round (and fork) into paired rounds, in round order (a round missing a side is kept empty). */
export function pairRounds<T extends { round: number; fork?: number }>(
  numerator: readonly T[],
  denominator: readonly T[],
  value: (s: T) => number,
): RoundPair[] {
  const byRound = new Map<number, { numerator: number[]; denominator: number[]; fork: number }>();
  const slot = (s: T) => {
    let r = byRound.get(s.round);
    if (!r) {
      r = { numerator: [], denominator: [], fork: s.fork ?? 0 };
      byRound.set(s.round, r);
    }
    return r;
  };
  for (const s of numerator) slot(s).numerator.push(value(s));
  for (const s of denominator) slot(s).denominator.push(value(s));
  return [...byRound.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}
