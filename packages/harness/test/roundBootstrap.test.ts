import { describe, expect, it } from 'vitest';
import type { RowResult } from '../src/scorecard/schema.js';
import { bootstrapMedianRatio } from '../src/stats/bootstrap.js';
import { normalQuantile, studentTQuantile } from '../src/stats/quantiles.js';
import {
  medianInPlace,
  pairRounds,
  roundBootstrapRatio,
  roundWidening,
} from '../src/stats/roundBootstrap.js';
import { decideVerdict } from '../src/verdict/decide.js';
import { wantsMoreRounds } from '../src/verdict/remeasure.js';
import { type SynthRow, synthRow } from './helpers/synthRounds.js';

const side = { supported: true, samples: 600, errors: 0, dropped: 0 };
/** Fewer resamples than a run's 1000 keep 200-row sweeps fast; the tails are a little noisier. */
const RESAMPLES = 200;
const ROWS = 200;

function verdictOf(seed: number, row: SynthRow) {
  const rounds = synthRow(seed, row);
  const ci = roundBootstrapRatio(rounds, medianInPlace, { seed, blockSize: 50, resamples: RESAMPLES });
  return {
    rounds,
    ci,
    verdict: decideVerdict({
      candidate: side,
      baseline: side,
      ratio: ci.estimate,
      ci: [ci.low, ci.high],
      roundRatios: ci.roundRatios,
      tieMargin: 0.05,
      collapseErrorRate: 0.01,
    }).verdict,
  };
}

const rate = (n: number) => n / ROWS;

describe('quantiles for the small-sample widening', () => {
  it('match the published t and normal tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959964, 5);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentTQuantile(0.975, 3)).toBeCloseTo(3.1824, 3);
    expect(studentTQuantile(0.975, 9)).toBeCloseTo(2.2622, 3);
    expect(studentTQuantile(0.95, 5)).toBeCloseTo(2.015, 3);
  });

  it('widen less as rounds are added, not at all with one round', () => {
    expect(roundWidening(1, 0.95)).toBe(1);
    expect(roundWidening(2, 0.95)).toBeCloseTo(9.17, 2);
    expect(roundWidening(4, 0.95)).toBeCloseTo(1.875, 2);
    expect(roundWidening(6, 0.95)).toBeCloseTo(1.437, 2);
    expect(roundWidening(40, 0.95)).toBeLessThan(1.1);
  });
});

describe('two-level bootstrap over paired rounds', () => {
  it('pairs samples by their round, in round order', () => {
    const s = (round: number, v: number) => ({ round, v });
    const pairs = pairRounds([s(1, 10), s(0, 1), s(1, 11)], [s(0, 2), s(1, 20)], (x) => x.v);
    expect(pairs).toEqual([
      { numerator: [1], denominator: [2] },
      { numerator: [10, 11], denominator: [20] },
    ]);
  });

  it('is reproducible from its seed, and reports each round ratio', () => {
    const rounds = synthRow(5, {
      rounds: 4,
      perRound: 150,
      trueRatio: 1,
      drift: 0.05,
      noise: 0.3,
      bursts: 0.2,
    });
    const a = roundBootstrapRatio(rounds, medianInPlace, { seed: 3, blockSize: 50, resamples: RESAMPLES });
    expect(
      roundBootstrapRatio(rounds, medianInPlace, { seed: 3, blockSize: 50, resamples: RESAMPLES }),
    ).toEqual(a);
    expect(
      roundBootstrapRatio(rounds, medianInPlace, { seed: 4, blockSize: 50, resamples: RESAMPLES }),
    ).not.toEqual(a);
    expect(a.roundRatios).toHaveLength(4);
    expect(a.low).toBeLessThanOrEqual(a.estimate);
    expect(a.high).toBeGreaterThanOrEqual(a.estimate);
    // The estimate is the pooled ratio of medians, as before the rounds were resampled.
    const pooled = (k: 'numerator' | 'denominator') => rounds.flatMap((r) => Array.from(r[k]));
    expect(a.estimate).toBeCloseTo(
      bootstrapMedianRatio(pooled('numerator'), pooled('denominator')).estimate,
      12,
    );
  });

  it('A/A with drift between rounds: at most 2% false WIN/LOSE where the block bootstrap gave many', () => {
    // Each engine's slot in each round sits at its own level (log-sd 6%), with bursty noise inside.
    const row: SynthRow = { rounds: 4, perRound: 150, trueRatio: 1, drift: 0.06, noise: 0.3, bursts: 0.2 };
    let falseVerdicts = 0;
    let falseBefore = 0;
    for (let seed = 1; seed <= ROWS; seed++) {
      const { rounds, verdict } = verdictOf(seed, row);
      if (verdict !== 'TIE') falseVerdicts++;
      // The interval this replaces: blocks of samples resampled, rounds ignored.
      const pool = (k: 'numerator' | 'denominator') => rounds.flatMap((r) => Array.from(r[k]));
      const old = bootstrapMedianRatio(pool('numerator'), pool('denominator'), {
        seed,
        blockSize: 50,
        resamples: RESAMPLES,
      });
      const oldVerdict = decideVerdict({
        candidate: side,
        baseline: side,
        ratio: old.estimate,
        ci: [old.low, old.high],
        tieMargin: 0.05,
        collapseErrorRate: 0.01,
      }).verdict;
      if (oldVerdict !== 'TIE') falseBefore++;
    }
    console.log(
      `A/A: false verdicts ${falseVerdicts}/${ROWS} (block bootstrap alone: ${falseBefore}/${ROWS})`,
    );
    expect(rate(falseVerdicts)).toBeLessThanOrEqual(0.02);
    // The drift is material: the old interval is fooled by it often.
    expect(rate(falseBefore)).toBeGreaterThan(0.1);
  });

  it('detects a clear 10% shift with low noise in >= 95% of rows, either way', () => {
    const low = { rounds: 4, perRound: 150, drift: 0.01, noise: 0.1, bursts: 0 };
    let wins = 0;
    let loses = 0;
    for (let seed = 1; seed <= ROWS; seed++) {
      if (verdictOf(seed, { ...low, trueRatio: 1.1 }).verdict === 'WIN') wins++;
      if (verdictOf(seed + 10_000, { ...low, trueRatio: 1 / 1.1 }).verdict === 'LOSE') loses++;
    }
    console.log(`power at 10%: ${wins}/${ROWS} WIN, ${loses}/${ROWS} LOSE`);
    expect(rate(wins)).toBeGreaterThanOrEqual(0.95);
    expect(rate(loses)).toBeGreaterThanOrEqual(0.95);
  });

  it('two rounds cannot estimate drift: even a 20% shift is re-measured, and 8 rounds decide it', () => {
    const row = { rounds: 2, perRound: 300, trueRatio: 1.2, drift: 0.02, noise: 0.2, bursts: 0.1 };
    const asRow = (r: ReturnType<typeof verdictOf>): RowResult => ({
      id: 'query.term',
      group: 'query',
      family: 'term',
      title: 'term',
      unit: 'ms',
      betterIs: 'lower',
      candidate: side,
      baseline: side,
      verdict: r.verdict,
      reason: '',
      ratio: r.ci.estimate,
      ci: [r.ci.low, r.ci.high],
      roundRatios: r.ci.roundRatios,
    });
    let remeasured = 0;
    let decisiveAfter = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const two = verdictOf(seed, row);
      if (wantsMoreRounds(asRow(two), 0.05)) remeasured++;
      // The same engines over 8 rounds, as re-measurement reaches: the interval narrows.
      const eight = verdictOf(seed, { ...row, rounds: 8, perRound: 150 });
      if (!wantsMoreRounds(asRow(eight), 0.05)) decisiveAfter++;
    }
    expect(remeasured).toBe(20);
    console.log(`re-measure: ${remeasured}/20 at 2 rounds, ${decisiveAfter}/20 decisive at 8`);
    expect(decisiveAfter).toBeGreaterThanOrEqual(15);
  });
});
