import { describe, expect, it } from 'vitest';
import {
  medianInPlace,
  nestedRatioInterval,
  nestedRatioOfSums,
  pairRounds,
  tInterval,
} from '../src/stats/nestedInterval.js';
import { type SynthRow, synthRow } from './helpers/synthRounds.js';

/** A row shaped like the default design: 5 forks x 2 rounds x 60 requests, bursty noise. */
const design = (over: Partial<SynthRow>): SynthRow => ({
  forks: 5,
  forkDrift: 0.1,
  rounds: 2,
  perRound: 60,
  trueRatio: 1,
  drift: 0.05,
  noise: 0.3,
  bursts: 0.1,
  ...over,
});

const decided = (row: SynthRow, seed: number, confidence: number) => {
  const ci = nestedRatioInterval(synthRow(seed, row), medianInPlace, confidence);
  return ci.low > 1 ? 'WIN' : ci.high < 1 ? 'LOSE' : 'TIE';
};

describe('nested interval over forks', () => {
  it('A/A with a 10% fork-to-fork spread: the interval excludes 1 about as often as its confidence allows', () => {
    // 400 rows of the same engine on both sides; each fork is a new pair of processes whose
    // levels differ by ~10% (the JVM finding). A rounds-only interval calls many of these.
    const runs = 400;
    let excluded = 0;
    for (let seed = 1; seed <= runs; seed++) if (decided(design({}), seed, 0.99) !== 'TIE') excluded++;
    // 1% expected; binomial sd ~0.5%: a broken interval (rounds as units) excludes 1 in ~30%.
    expect(excluded / runs).toBeLessThan(0.03);
  });

  it('treating rounds as independent would call those A/A rows: the fork level matters', () => {
    let excluded = 0;
    for (let seed = 1; seed <= 200; seed++) {
      // The same kind of synthetic forks (3 processes of 6 rounds each), every round labelled as
      // one process: the rounds-only interval sees 18 "independent" units.
      const flat = synthRow(seed, design({ forks: 3, rounds: 6 })).map(({ numerator, denominator }) => ({
        numerator,
        denominator,
      }));
      const ci = nestedRatioInterval(flat, medianInPlace, 0.99);
      if (ci.low > 1 || ci.high < 1) excluded++;
    }
    expect(excluded / 200).toBeGreaterThan(0.1);
  });

  it('finds a 10% slowdown when processes of the engine agree and requests vary moderately', () => {
    // A Rust build against itself: forks within 1%, requests log-normal with sd 0.15.
    let found = 0;
    for (let seed = 1; seed <= 100; seed++)
      if (
        decided(
          design({ trueRatio: 0.9, forkDrift: 0.01, drift: 0.02, noise: 0.15, bursts: 0 }),
          seed,
          0.99,
        ) === 'LOSE'
      )
        found++;
    // 99% intervals over 5 forks find it about 3 times in 4 (measured: 76 of 100 seeds).
    expect(found).toBeGreaterThanOrEqual(65);
  });

  it('reports the ratio per fork and per round, and which level the interval rests on', () => {
    const rounds = synthRow(7, design({ trueRatio: 2 }));
    const ci = nestedRatioInterval(rounds, medianInPlace, 0.95);
    expect(ci.level).toBe('forks');
    expect(ci.units).toBe(5);
    expect(ci.forkRatios).toHaveLength(5);
    expect(ci.roundRatios).toHaveLength(10);
    expect(ci.low).toBeLessThan(ci.estimate);
    expect(ci.high).toBeGreaterThan(ci.estimate);
    expect(ci.estimate).toBeGreaterThan(1.5);
  });

  it('with one fork the rounds are the top level; one unit gives no interval', () => {
    const one = synthRow(3, design({ forks: 1, rounds: 6 }));
    expect(nestedRatioInterval(one, medianInPlace, 0.95)).toMatchObject({ level: 'rounds', units: 6 });
    expect(tInterval(1.2, [1.2], 0.95)).toEqual({ low: 0, high: Number.POSITIVE_INFINITY });
  });

  it('is a t interval on the log ratios around the estimate', () => {
    // Units 1.1 and 1.3 around 1.2: sd of logs 0.118, se 0.0835, t(1, 0.975) 12.71.
    const { low, high } = tInterval(1.2, [1.1, 1.3], 0.95);
    const half = 12.706 * (Math.abs(Math.log(1.3) - Math.log(1.1)) / Math.SQRT2 / Math.SQRT2);
    expect(Math.log(high / 1.2)).toBeCloseTo(half, 2);
    expect(Math.log(1.2 / low)).toBeCloseTo(half, 2);
  });

  it('CPU per request: a ratio of sums per fork', () => {
    const rounds = [0, 1, 2, 3].flatMap((fork) => [
      {
        fork,
        num: [2_000_000 * (1 + fork / 100), 100] as [number, number],
        den: [1_000_000, 100] as [number, number],
      },
      { fork, num: [4_000_000, 200] as [number, number], den: [2_000_000, 200] as [number, number] },
    ]);
    const ci = nestedRatioOfSums(rounds, 0.95);
    expect(ci.estimate).toBeCloseTo(2.01, 2);
    expect(ci.forkRatios).toHaveLength(4);
    expect(ci.low).toBeGreaterThan(1.9);
    expect(ci.high).toBeLessThan(2.1);
  });

  it('pairs samples by their round, keeping the fork', () => {
    const s = (round: number, v: number, fork = 0) => ({ round, v, fork });
    const pairs = pairRounds([s(1, 10, 1), s(0, 1), s(1, 11, 1)], [s(0, 2), s(1, 20, 1)], (x) => x.v);
    expect(pairs).toEqual([
      { numerator: [1], denominator: [2], fork: 0 },
      { numerator: [10, 11], denominator: [20], fork: 1 },
    ]);
  });
});
