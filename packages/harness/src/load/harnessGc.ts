import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { GcPauses } from '../model/raw.js';

/**
 * The harness's own garbage collection around timed phases. A pause of the harness's event loop
 * delays every send scheduled inside it, and on this 2-core box the harness's V8 runs pinned to
 * one core, where a young-generation scavenge was seen to take 5-40 ms: a few of them in a phase
 * are the whole p99 of its send lag. So a timed phase starts from an emptied young generation (as
 * JMH collects between iterations), and the pauses that still land inside it are counted and
 * published beside the send lag they explain.
 */

type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => void;

let gcFunction: GcFunction | null | undefined;

/** V8's `gc`, exposed at run time (the harness runs under tsx, which takes no node flags). */
function collector(): GcFunction | null {
  if (gcFunction !== undefined) return gcFunction;
  try {
    setFlagsFromString('--expose-gc');
    gcFunction = runInNewContext('gc') as GcFunction;
  } catch {
    gcFunction = null;
  }
  return gcFunction;
}

/**
 * A synchronous young-generation collection: the next phase starts with an empty young
 * generation, so the scavenges that allocation would otherwise trigger inside it come later. A
 * scavenge costs about what survives it (little, between phases); a full collection of the
 * harness's heap (the corpus included) would cost tens of ms before every phase.
 */
export function settleHeap(): boolean {
  const gc = collector();
  if (!gc) return false;
  gc({ type: 'minor', execution: 'sync' });
  return true;
}

interface Pause {
  start: number;
  duration: number;
}

let observer: PerformanceObserver | undefined;
const seen: Pause[] = [];

function observe(): PerformanceObserver {
  observer ??= new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return observer;
}

/**
 * Start counting: returns a function that ends the window and gives the pauses that began in it.
 * Node delivers GC entries from the event loop after the collection, so ending a window yields
 * once before reading them.
 */
export function recordGcPauses(): () => Promise<GcPauses> {
  const watcher = observe();
  const from = performance.now();
  return async () => {
    const to = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const entry of watcher.takeRecords())
      seen.push({ start: entry.startTime, duration: entry.duration });
    const inside = seen.filter((pause) => pause.start >= from && pause.start <= to);
    // Nothing before this window is asked for again.
    seen.length = 0;
    return {
      count: inside.length,
      totalMs: inside.reduce((sum, pause) => sum + pause.duration, 0),
      maxMs: inside.reduce((max, pause) => Math.max(max, pause.duration), 0),
    };
  };
}

/** Two windows' pauses as one. */
export const addGcPauses = (a: GcPauses | undefined, b: GcPauses): GcPauses =>
  a === undefined
    ? b
    : { count: a.count + b.count, totalMs: a.totalMs + b.totalMs, maxMs: Math.max(a.maxMs, b.maxMs) };
