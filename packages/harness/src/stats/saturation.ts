import type { SweepSide } from '../scorecard/schema.js';
import { median } from './percentile.js';

/** What saturation detection needs of a timed request (a subset of the runner's Sample). */
export interface TimedRequest {
  round: number;
  /** Intended send instant, ms after its phase started. */
  atMs: number;
  latencyMs: number;
  ok: boolean;
}

/** Achieved below this share of the offered rate: the engine did not keep up. */
export const ACHIEVED_SHARE = 0.95;
/** Last-third p50 above this multiple of the first-third p50: latency climbed through the phase. */
export const CLIMB_FACTOR = 2;
/** Fewer samples than this in a pooled third: too few to call a climb. */
const MIN_THIRD = 10;

const byRound = (requests: readonly TimedRequest[]): TimedRequest[][] => {
  const rounds = new Map<number, TimedRequest[]>();
  for (const r of requests) {
    if (!r.ok) continue;
    const list = rounds.get(r.round) ?? [];
    list.push(r);
    rounds.set(r.round, list);
  }
  return [...rounds.values()].map((list) => list.sort((a, b) => a.atMs - b.atMs));
};

/**
 * Successful responses per second: per round, answers after the first over the time from the
 * first answer to the last. An engine that keeps up answers at the offered rate whatever its
 * latency; one that queues answers at its capacity. (Dividing by the whole phase instead would
 * charge a long final latency to the rate.)
 */
export function achievedRate(requests: readonly TimedRequest[]): number | undefined {
  let answered = 0;
  let spanMs = 0;
  for (const round of byRound(requests)) {
    if (round.length < 2) continue;
    const ends = round.map((r) => r.atMs + r.latencyMs);
    answered += round.length - 1;
    spanMs += Math.max(...ends) - Math.min(...ends);
  }
  return spanMs > 0 ? answered / (spanMs / 1000) : undefined;
}

/**
 * Latency climbing through the phases: the p50 of the last third of every round (pooled) against
 * the p50 of the first thirds. Compared within rounds so that drift between rounds (the other
 * engine ran in between) is not mistaken for a queue building up.
 */
export function latencyClimb(requests: readonly TimedRequest[]): { first: number; last: number } | undefined {
  const first: number[] = [];
  const last: number[] = [];
  for (const round of byRound(requests)) {
    const third = Math.floor(round.length / 3);
    if (third === 0) continue;
    first.push(...round.slice(0, third).map((r) => r.latencyMs));
    last.push(...round.slice(round.length - third).map((r) => r.latencyMs));
  }
  if (first.length < MIN_THIRD) return undefined;
  return { first: median(first), last: median(last) };
}

/** Why this engine was saturated on the row, or undefined when it kept up. */
export function saturationReason(
  requests: readonly TimedRequest[],
  offeredRate: number,
  achieved = achievedRate(requests),
): string | undefined {
  if (achieved !== undefined && achieved < ACHIEVED_SHARE * offeredRate) {
    return `achieved ${achieved.toFixed(0)} of ${offeredRate} req/s offered (< ${ACHIEVED_SHARE * 100}%)`;
  }
  const climb = latencyClimb(requests);
  if (climb && climb.last > CLIMB_FACTOR * climb.first) {
    return `latency climbed through the phase: p50 ${climb.first.toFixed(2)} ms in the first third, ${climb.last.toFixed(2)} ms in the last`;
  }
  return undefined;
}

/**
 * Did an engine sustain an offered rate: it answered at least 95% of it, at most
 * `maxFailure` of the requests failed or were dropped, and its p99 stayed within the bound.
 */
export function sustained(
  side: Pick<SweepSide, 'achievedRate' | 'errors' | 'dropped' | 'p99'>,
  offered: number,
  requests: number,
  p99BoundMs: number,
  maxFailure: number,
): boolean {
  const bad = (side.errors + side.dropped) / Math.max(1, requests);
  return (
    side.achievedRate >= ACHIEVED_SHARE * offered &&
    bad <= maxFailure &&
    side.p99 !== null &&
    Number.isFinite(side.p99) &&
    side.p99 <= p99BoundMs
  );
}
