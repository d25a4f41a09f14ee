import type { Scorecard } from '../scorecard/schema.js';

/**
 * Variance at each level of the design, from A/A runs (Kalibera & Jones): per read row, the
 * spread of its fork log ratios and of its round log ratios within forks; then the rounds per
 * fork that minimise the cost of a given precision, r* = sqrt((c_fork / c_round) x
 * (s2_round / s2_fork)), where s2_fork is the fork-level variance component.
 */
export interface VarianceComponents {
  /** Rows with at least two forks measured. */
  rows: number;
  /** Medians over rows, of log ratios (about the relative sd). */
  forkSd: number;
  roundSdWithinFork: number;
  /** Fork-level component: fork means vary beyond what their rounds explain (0 when they do not). */
  forkComponentSd: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? (s[m] as number)
      : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const variance = (xs: number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
};

export function varianceComponents(cards: readonly Scorecard[]): VarianceComponents {
  const fork: number[] = [];
  const round: number[] = [];
  const component: number[] = [];
  for (const card of cards) {
    const perFork = card.manifest.design?.roundsPerFork ?? 2;
    for (const row of card.rows) {
      const forks = (row.forkRatios ?? []).filter((x) => x > 0).map(Math.log);
      const rounds = (row.roundRatios ?? []).filter((x) => x > 0).map(Math.log);
      if (forks.length < 2 || rounds.length !== forks.length * perFork) continue;
      const within: number[] = [];
      for (let f = 0; f < forks.length; f++) {
        const mine = rounds.slice(f * perFork, (f + 1) * perFork);
        if (mine.length >= 2) within.push(variance(mine));
      }
      const vFork = variance(forks);
      const vRound = within.length > 0 ? within.reduce((a, b) => a + b, 0) / within.length : Number.NaN;
      fork.push(Math.sqrt(vFork));
      if (Number.isFinite(vRound)) {
        round.push(Math.sqrt(vRound));
        component.push(Math.sqrt(Math.max(0, vFork - vRound / perFork)));
      }
    }
  }
  const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    rows: fork.length,
    forkSd: r4(median(fork)),
    roundSdWithinFork: r4(median(round)),
    forkComponentSd: r4(median(component)),
  };
}

/** K&J's optimal rounds per fork for measured costs (s per fork restart+prewarm, s per round). */
export function optimalRoundsPerFork(v: VarianceComponents, forkCostS: number, roundCostS: number): number {
  if (!(v.forkComponentSd > 0)) return 10;
  const r = Math.sqrt((forkCostS / roundCostS) * (v.roundSdWithinFork ** 2 / v.forkComponentSd ** 2));
  return Math.max(1, Math.min(10, Math.round(r)));
}
