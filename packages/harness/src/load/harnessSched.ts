import { readFileSync } from 'node:fs';
import type { SchedWindow } from '../model/raw.js';

/**
 * Why the harness's own thread was late, read from the kernel around a timed phase. The sending
 * thread runs alone on its pinned CPU (engines/placement.ts), yet rows still see send lags of
 * 10-20 ms: whatever took the CPU from it shows up here as time it waited on the run queue (its
 * own GC and platform threads, kernel work, other processes), time the hypervisor gave the
 * virtual CPU to another guest (steal), and how often it was switched out against its will.
 */

/** Reads a /proc file; tests pass their own. */
export type ProcReader = (path: string) => string;
const readProc: ProcReader = (path) => readFileSync(path, 'utf8');

/** USER_HZ: /proc/stat counts in 1/100 s on Linux. */
const MS_PER_TICK = 10;

interface Reading {
  waitNs: number;
  involuntary: number;
  stealTicks: number | undefined;
}

/**
 * This thread's run-queue wait (schedstat field 2), involuntary switches, and, when it is pinned
 * to one CPU, that CPU's steal ticks.
 */
function read(proc: ProcReader): Reading | undefined {
  try {
    const waitNs = Number(proc('/proc/thread-self/schedstat').trim().split(/\s+/)[1]);
    const status = proc('/proc/thread-self/status');
    const involuntary = Number(/nonvoluntary_ctxt_switches:\s*(\d+)/.exec(status)?.[1]);
    const allowed = /Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1];
    const cpu = allowed !== undefined && /^\d+$/.test(allowed) ? Number(allowed) : undefined;
    let stealTicks: number | undefined;
    if (cpu !== undefined) {
      const line = proc('/proc/stat')
        .split('\n')
        .find((l) => l.startsWith(`cpu${cpu} `));
      const steal = Number(line?.trim().split(/\s+/)[8]);
      stealTicks = Number.isFinite(steal) ? steal : undefined;
    }
    if (!Number.isFinite(waitNs) || !Number.isFinite(involuntary)) return undefined;
    return { waitNs, involuntary, stealTicks };
  } catch {
    // Not Linux, or no schedstats in this kernel: nothing to report.
    return undefined;
  }
}

/**
 * Start a window on the calling thread (the harness's event loop); the returned function ends it.
 * Undefined where the kernel does not say; no steal unless the thread is pinned to one CPU (the
 * machine's total would charge it other CPUs' steal).
 */
export function recordHarnessSched(proc: ProcReader = readProc): () => SchedWindow | undefined {
  const from = read(proc);
  return () => {
    const to = read(proc);
    if (!from || !to) return undefined;
    const window: SchedWindow = {
      runQueueWaitMs: (to.waitNs - from.waitNs) / 1e6,
      involuntarySwitches: to.involuntary - from.involuntary,
    };
    if (from.stealTicks !== undefined && to.stealTicks !== undefined)
      window.stealMs = (to.stealTicks - from.stealTicks) * MS_PER_TICK;
    return window;
  };
}

/** Two windows as one. */
export function addSched(a: SchedWindow | undefined, b: SchedWindow | undefined): SchedWindow | undefined {
  if (!a || !b) return a ?? b;
  const sum: SchedWindow = {
    runQueueWaitMs: a.runQueueWaitMs + b.runQueueWaitMs,
    involuntarySwitches: a.involuntarySwitches + b.involuntarySwitches,
  };
  if (a.stealMs !== undefined || b.stealMs !== undefined) sum.stealMs = (a.stealMs ?? 0) + (b.stealMs ?? 0);
  return sum;
}
