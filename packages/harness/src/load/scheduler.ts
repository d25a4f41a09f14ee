/**
 * When request i is meant to leave, as an offset in ns from the start of the phase. Schedules
 * are tiny pure strategies so the runner can be tested with a fake clock.
 */
export interface Schedule {
  readonly name: string;
  next(i: number): bigint;
}

/** Open loop at a fixed arrival rate: request i is due at i / rate, whatever happened before it. */
export function constantRate(ratePerSecond: number): Schedule {
  if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond))
    throw new Error(`rate must be > 0, got ${ratePerSecond}`);
  return {
    name: `open-loop ${ratePerSecond}/s`,
    next: (i) => BigInt(Math.round((i * 1e9) / ratePerSecond)),
  };
}
