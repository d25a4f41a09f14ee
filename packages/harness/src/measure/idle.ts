import type { EngineRole } from '../engines/types.js';
import type { Clock } from '../load/clock.js';
import type { Side } from '../load/side.js';

/** What "both engines idle" meant when a fork's timing started, for the scorecard. */
export interface IdleState {
  /** How long the harness waited for it, ms. */
  waitedMs: number;
  /** Each engine's CPU use over the last window, ms of CPU per second (undefined: not readable). */
  cpuMsPerSecond: Partial<Record<EngineRole, number>>;
  /** False when the wait timed out with an engine still busy (the fork is timed anyway). */
  quiet: boolean;
  /** False when neither engine's CPU could be read (both given by URL): nothing was checked. */
  checked: boolean;
}

export interface IdleOptions {
  /** One observation window, ms. */
  windowMs: number;
  /** Quiet: each engine under this many ms of CPU per second (a background merge or JIT burst is far above). */
  quietMsPerSecond: number;
  /** Consecutive quiet windows needed. */
  windows: number;
  timeoutMs: number;
}

export const DEFAULT_IDLE: IdleOptions = {
  windowMs: 500,
  quietMsPerSecond: 30,
  windows: 3,
  timeoutMs: 120_000,
};

/**
 * Wait until both engines are idle: merges finished, refreshes done, JIT compilation after the
 * prewarm settled, i.e. each engine's process tree spends under `quietMsPerSecond` of CPU per
 * second for `windows` consecutive windows. Timing from a named, checked state is what makes a
 * row timed alone and inside the full matrix comparable (Rally's tracks wait for merges the same
 * way). Engines whose CPU cannot be read (given by URL) are not waited for.
 */
export async function waitIdle(
  sides: Partial<Record<EngineRole, Side>>,
  clock: Clock,
  options: IdleOptions = DEFAULT_IDLE,
): Promise<IdleState> {
  const start = clock.now();
  const roles = (Object.keys(sides) as EngineRole[]).filter((r) => sides[r] !== undefined);
  const side = (r: EngineRole) => sides[r] as Side;
  let quietInARow = 0;
  let last: Partial<Record<EngineRole, number>> = {};
  for (;;) {
    const before = await Promise.all(
      roles.map((r) =>
        side(r)
          .cpuNs()
          .catch(() => undefined),
      ),
    );
    if (before.every((x) => x === undefined))
      return { waitedMs: 0, cpuMsPerSecond: {}, quiet: true, checked: false };
    const t0 = clock.now();
    await clock.sleepUntil(t0 + BigInt(options.windowMs) * 1_000_000n);
    const after = await Promise.all(
      roles.map((r) =>
        side(r)
          .cpuNs()
          .catch(() => undefined),
      ),
    );
    const seconds = Number(clock.now() - t0) / 1e9;
    last = {};
    roles.forEach((role, i) => {
      const b = before[i];
      const a = after[i];
      if (a !== undefined && b !== undefined) last[role] = Math.round(((a - b) / 1e6 / seconds) * 10) / 10;
    });
    const busy = Object.values(last).some((ms) => ms > options.quietMsPerSecond);
    quietInARow = busy ? 0 : quietInARow + 1;
    const waitedMs = Number(clock.now() - start) / 1e6;
    if (quietInARow >= options.windows)
      return { waitedMs: Math.round(waitedMs), cpuMsPerSecond: last, quiet: true, checked: true };
    if (waitedMs >= options.timeoutMs)
      return { waitedMs: Math.round(waitedMs), cpuMsPerSecond: last, quiet: false, checked: true };
  }
}
