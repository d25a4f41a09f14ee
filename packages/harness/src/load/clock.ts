import { setTimeout as delay } from 'node:timers/promises';

/** Time source for the runner; tests swap in a fake one so schedules are checked exactly. */
export interface Clock {
  /** Monotonic nanoseconds. */
  now(): bigint;
  /**
   * Resolve as close to (and never before) the given instant as the clock allows. While
   * `inFlight()` is true the wait yield-spins instead of sleeping, so a response that arrives
   * meanwhile is read at once rather than after the process wakes from an idle epoll wait.
   */
  sleepUntil(targetNs: bigint, inFlight?: () => boolean): Promise<void>;
}

const NS_PER_MS = 1_000_000n;

export const yieldOnce = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Yield-spin while a request is in flight. Each turn of the event loop then polls its sockets
 * without blocking, so a response is read the moment it lands. Sleeping instead would charge
 * every request the wake-up of an idle process (0.15-0.4 ms on this 2-core VM at 200 req/s,
 * against a 0.06 ms round trip): a constant that compresses every ratio toward 1.
 */
export async function spinWhileInFlight(
  targetNs: bigint,
  inFlight: () => boolean,
  now: () => bigint = process.hrtime.bigint,
): Promise<void> {
  while (inFlight() && now() < targetNs) await yieldOnce();
}

/**
 * Sleep until an absolute monotonic instant: spin while a request is in flight (above), then a
 * coarse timer for the bulk of the idle wait (timers wake up to ~1 ms late), then yield-spin on
 * hrtime for the final stretch so a send is not late. The spins yield with setImmediate so
 * in-flight responses are still read meanwhile.
 */
export async function preciseSleepUntil(
  targetNs: bigint,
  now: () => bigint = process.hrtime.bigint,
  spinNs: bigint = NS_PER_MS,
  inFlight: () => boolean = () => false,
): Promise<void> {
  await spinWhileInFlight(targetNs, inFlight, now);
  const coarse = targetNs - spinNs - now();
  if (coarse > NS_PER_MS) await delay(Number(coarse / NS_PER_MS));
  while (now() < targetNs) await yieldOnce();
}

export const realClock: Clock = {
  now: () => process.hrtime.bigint(),
  sleepUntil: (targetNs, inFlight) => preciseSleepUntil(targetNs, process.hrtime.bigint, NS_PER_MS, inFlight),
};
