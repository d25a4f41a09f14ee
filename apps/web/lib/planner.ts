/**
 * The capacity planner (throughput page): from a run's rate sweeps, whether one node of the
 * machine that ran it holds a request rate under a p99 target, per engine and swept family, the
 * headroom, and the cores the rate costs at the measured CPU per request. Pure, and small enough
 * for the page's script: it imports only the harness's rule for a sustained rate.
 */
import { sustained } from '@everycell/harness/saturation';
import type { SweepSide } from './definitions';

export type Engine = 'candidate' | 'baseline';

/** One engine's figures the planner reads, per swept family. */
export interface PlannerSide {
  /** Engine CPU per request on the family's read row (ms), when the run measured it. */
  cpuMsPerRequest?: number;
  points: { offeredRate: number; requests: number; side: SweepSide }[];
}

/** One swept family, as the page embeds it for its script. */
export interface PlannerFamily {
  family: string;
  /** The read row the sweep sends (its CPU per request is the cost used). */
  sourceRowId?: string;
  candidate: PlannerSide;
  baseline: PlannerSide;
}

export interface PlannerData {
  cores: number;
  cpuModel: string;
  runId: string;
  /** A failed point's share of errors and drops the harness allows (its collapse rate). */
  maxFailure: number;
  families: PlannerFamily[];
}

export interface PlannerInput {
  rate: number;
  p99Ms: number;
}

/** The answer for one engine and family. */
export interface EngineAnswer {
  /**
   * yes: a measured rate at or above the asked one met the target, and every lower one did;
   * no: a rate at or below it missed; beyond: it met every rate the sweep offered, all below the
   * asked one (its limit was not reached, so the sweep cannot say).
   */
  holds: 'yes' | 'no' | 'beyond';
  /** The highest offered rate met, with every lower one (undefined: not even the lowest). */
  sustainedRate?: number;
  /** sustainedRate over the asked rate. */
  headroom?: number;
  /** Cores busy at the asked rate: rate x CPU per request (the utilization law). */
  cores?: number;
  /** Requests in flight at the asked rate by Little's law: rate x mean latency at the nearest point met. */
  inFlight?: number;
  /** The mean latency used for inFlight (ms) and the offered rate it was measured at. */
  meanMs?: number;
  meanAt?: number;
}

/**
 * The requests of a point in a card written before points kept them: the sweep's own rule
 * (3 s of the rate, at least 200, at most 6,000: DEFAULT_SWEEP in the harness's measure/sweep.ts).
 */
export const pointRequests = (rate: number, kept?: number): number =>
  kept ?? Math.min(6000, Math.max(200, Math.round(rate * 3)));

export function answerFor(side: PlannerSide, input: PlannerInput, maxFailure: number): EngineAnswer {
  const points = [...side.points].sort((a, b) => a.offeredRate - b.offeredRate);
  // The harness's own rule for a sustained rate (p99 within the target, >= 95% of the rate
  // achieved, failures within the collapse rate), at the reader's target, from the lowest rate
  // up; a skipped rate was past the engine's knee.
  const met: typeof points = [];
  for (const p of points) {
    if (p.side.skipped || !sustained(p.side, p.offeredRate, p.requests, input.p99Ms, maxFailure)) break;
    met.push(p);
  }
  const sustainedRate = met.at(-1)?.offeredRate;
  const top = points.at(-1)?.offeredRate ?? 0;
  const holds =
    sustainedRate !== undefined && sustainedRate >= input.rate
      ? 'yes'
      : sustainedRate !== undefined && sustainedRate === top && points.length > 0
        ? 'beyond'
        : 'no';
  const answer: EngineAnswer = { holds };
  if (sustainedRate !== undefined) {
    answer.sustainedRate = sustainedRate;
    answer.headroom = sustainedRate / input.rate;
  }
  if (side.cpuMsPerRequest !== undefined) answer.cores = (input.rate * side.cpuMsPerRequest) / 1000;
  // Little's law at the nearest rate measured at or above the asked one (only when it holds).
  const nearest = holds === 'yes' ? met.find((p) => p.offeredRate >= input.rate) : undefined;
  const mean = nearest?.side.meanMs;
  if (nearest && typeof mean === 'number' && Number.isFinite(mean)) {
    answer.meanMs = mean;
    answer.meanAt = nearest.offeredRate;
    answer.inFlight = (input.rate * mean) / 1000;
  }
  return answer;
}

/** Reads the inputs as the form gives them: a rate and a target above zero, else why not. */
/**
 * Machines of `perMachine` cores that `cores` take, counted from the figure as the page shows it
 * (two decimals), so "4.00 cores" never reads as three machines of two.
 */
export function machinesFor(cores: number, perMachine: number): number {
  return Math.max(1, Math.ceil(Number(cores.toFixed(2)) / perMachine));
}

export function parsePlannerInput(rate: string, p99Ms: string): PlannerInput | string {
  const r = Number(rate);
  const t = Number(p99Ms);
  if (!(rate.trim() !== '' && Number.isFinite(r) && r > 0)) return 'Enter a request rate above 0 req/s.';
  if (!(p99Ms.trim() !== '' && Number.isFinite(t) && t > 0)) return 'Enter a p99 target above 0 ms.';
  return { rate: r, p99Ms: t };
}
