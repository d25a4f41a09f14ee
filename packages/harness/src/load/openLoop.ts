import type { Sample, SendResult } from '../model/samples.js';
import type { Clock } from './clock.js';
import type { Schedule } from './scheduler.js';

export interface OpenLoopOptions {
  count: number;
  schedule: Schedule;
  clock: Clock;
  /** In-flight cap (the connection pool size): past it a request is dropped, never queued. */
  maxInFlight: number;
  phase: Sample['phase'];
  round?: number;
  /** Resolves when the full response body has been read; rejects only for run-fatal errors. */
  send(i: number): Promise<SendResult>;
  /** Checked before each send; true stops scheduling (Ctrl-C, dead engine). */
  shouldStop?: () => boolean;
}

const nsToMs = (ns: bigint): number => Number(ns) / 1e6;

/**
 * Send `count` requests at their scheduled instants regardless of how earlier ones fare
 * (open loop), so a slow engine accrues latency instead of slowing the load down.
 * Latency is measured from the intended instant; when the in-flight cap is hit the request is
 * recorded as dropped. Returns one sample per scheduled request, in schedule order.
 */
export async function runOpenLoop(opts: OpenLoopOptions): Promise<Sample[]> {
  const { count, schedule, clock, maxInFlight, phase, send, shouldStop, round = 0 } = opts;
  const samples: Sample[] = new Array(count);
  const pending = new Set<Promise<void>>();
  let inFlight = 0;
  let fatal: unknown;
  let scheduled = 0;
  const t0 = clock.now();

  for (let i = 0; i < count; i++) {
    if (fatal !== undefined || shouldStop?.()) break;
    const offset = schedule.next(i);
    const intended = t0 + offset;
    const atMs = nsToMs(offset);
    await clock.sleepUntil(intended, () => inFlight > 0);
    const actual = clock.now();
    scheduled++;
    if (inFlight >= maxInFlight) {
      samples[i] = {
        i,
        phase,
        round,
        atMs,
        outcome: 'dropped',
        status: 0,
        lagMs: Number.NaN,
        latencyMs: Number.NaN,
        serviceMs: Number.NaN,
      };
      continue;
    }
    inFlight++;
    const task = send(i).then(
      (result) => {
        const end = clock.now();
        samples[i] = {
          i,
          phase,
          round,
          atMs,
          outcome: result.outcome,
          status: result.status,
          lagMs: nsToMs(actual - intended),
          latencyMs: nsToMs(end - intended),
          serviceMs: nsToMs(end - actual),
          ...(result.engine ? { engine: result.engine } : {}),
        };
      },
      (error: unknown) => {
        fatal ??= error;
      },
    );
    const tracked = task.finally(() => {
      inFlight--;
      pending.delete(tracked);
    });
    pending.add(tracked);
  }
  await Promise.all(pending);
  if (fatal !== undefined) throw fatal;
  return samples.slice(0, scheduled);
}
