import { Rng } from '../../src/rng.js';
import type { RoundPair } from '../../src/stats/nestedInterval.js';

export interface SynthRow {
  /** Process executions; each gets its own level per engine (forkDrift). Default 1. */
  forks?: number;
  /** Log-space sd of each engine's level per fork (a process's JIT and heap luck). */
  forkDrift?: number;
  /** Rounds per fork. */
  rounds: number;
  /** Timed samples per engine per round. */
  perRound: number;
  /** Baseline median / candidate median: > 1 means the candidate is truly faster. */
  trueRatio: number;
  /** Log-space sd of each engine's level per round (drift: JIT, GC, a neighbour's load). */
  drift: number;
  /** Log-space sd of single requests around their burst's level. */
  noise: number;
  /** Share of 25-request bursts that run 1.3x slow (a neighbour's load); 0: no bursts. */
  bursts: number;
}

/**
 * A read row's latencies as the runner records them, in rounds: each engine's slot in each round
 * gets its own drifted level, and inside it bursts of 25 requests share a slow or normal regime
 * (the machine's noise is bursty), each request log-normal around its burst.
 */
export function synthRow(seed: number, row: SynthRow): RoundPair[] {
  const rng = new Rng(seed);
  const slot = (median: number) => {
    const level = median * Math.exp(row.drift * rng.normal());
    const out: number[] = [];
    while (out.length < row.perRound) {
      const regime = rng.float() < row.bursts ? 1.3 : 1;
      for (let j = 0; j < 25 && out.length < row.perRound; j++)
        out.push(level * regime * rng.logNormal(1, row.noise));
    }
    return out;
  };
  return Array.from({ length: row.forks ?? 1 }, (_, fork) => {
    const num = 10 * row.trueRatio * Math.exp((row.forkDrift ?? 0) * rng.normal());
    const den = 10 * Math.exp((row.forkDrift ?? 0) * rng.normal());
    return Array.from({ length: row.rounds }, () => ({ numerator: slot(num), denominator: slot(den), fork }));
  }).flat();
}
