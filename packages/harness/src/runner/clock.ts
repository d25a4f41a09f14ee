import { setTimeout as delay } from 'node:timers/promises';

/** Time source for the runner; tests swap in a fake one so schedules are checked exactly. */
export interface Clock {
  /** Monotonic nanoseconds. */
  now(): bigint;
  /** Resolve as close to (and never before) the given instant as the clock allows. */
  sleepUntil(targetNs: bigint): Promise<void>;
}

const NS_PER_MS = 1_000_000n;

/**
 * Sleep until an absolute monotonic instant: a coarse timer for the bulk of the wait (timers
 * wake up to ~1 ms late), then yield-spin on hrtime for the final stretch so a send is not
 * late. The spin yields with setImmediate so in-flight responses are still read meanwhile.
 */
export async function preciseSleepUntil(
  targetNs: bigint,
  now: () => bigint = process.hrtime.bigint,
  spinNs: bigint = NS_PER_MS,
): Promise<void> {
  const coarse = targetNs - spinNs - now();
  if (coarse > NS_PER_MS) await delay(Number(coarse / NS_PER_MS));
  while (now() < targetNs) await new Promise<void>((resolve) => setImmediate(resolve));
}

export const realClock: Clock = {
  now: () => process.hrtime.bigint(),
  sleepUntil: (targetNs) => preciseSleepUntil(targetNs),
};
