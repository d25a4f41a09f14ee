/**
 * Where a search that may be heavy runs: inline on the event loop, or on the libuv thread
 * pool. The engine says which searches may be heavy once it has parsed them (its `Cost`:
 * aggregations, sorts, highlighting, kNN, multi-term, phrase and free-text queries) and runs
 * the others inline at once (`engine.ts`); only the may-be-heavy ones come here.
 *
 * The pool lets two heavy searches use both cores and keeps the loop serving HTTP meanwhile
 * (a 5 ms sorted prefix search run inline saturated the service at 183 of 200 req/s). But
 * each trip costs two thread wake-ups (worker, then the loop), and on a VM whose idle
 * threads wake in 0.1-0.3 ms that is a large share of a sub-millisecond search: sorted and
 * aggregating searches that take well under a millisecond answered 10-20% faster inline at
 * 200 req/s. So a search that may be heavy goes to the pool until its shape (the sequence of
 * keys in its body, which leaves out the values) has shown it is cheap, and runs inline
 * while its recent average stays below a threshold.
 *
 * A process allowed only one CPU (its affinity, which a supervisor may change while it runs)
 * runs every search inline: the pool cannot run beside the loop there, so a trip adds two
 * context switches and a wait for the loop's time slice. On one pinned core that trip was the
 * largest part of the service's p99 (2.7 ms median over 85 rows of a 100k card, 5-10 ms on
 * sorted and aggregating rows whose engine time was 1-2 ms).
 */

import { availableParallelism } from 'node:os';

/** A shape whose recent average is below this many ms runs inline. */
const INLINE_BELOW_MS = 1.5;
/** Weight of the newest duration in a shape's moving average. */
const ALPHA = 0.25;
/** Bodies longer than this are not learned (their key lists would be long keys): pool. */
const MAX_LEARNED_BODY = 4096;
/** Shapes remembered; past this the table starts over rather than grow without bound. */
const MAX_SHAPES = 1024;

const KEY = /"((?:[^"\\]|\\.)*)"\s*:/g;

/** How often the CPUs this process may run on are read again (one syscall each time). */
const AFFINITY_REFRESH_MS = 1000;

/** The CPUs this process may run on, read at most once per `AFFINITY_REFRESH_MS`. */
export function allowedCpus(now: () => number = performance.now.bind(performance)): () => number {
  let cpus = availableParallelism();
  let readAt = now();
  return () => {
    const t = now();
    if (t - readAt >= AFFINITY_REFRESH_MS) {
      cpus = availableParallelism();
      readAt = t;
    }
    return cpus;
  };
}

/** A search body with values left out: its JSON keys in order. */
export function shapeOf(body: Buffer): string {
  const text = body.toString('latin1');
  let shape = '';
  for (const match of text.matchAll(KEY)) shape += `${match[1]}\u0000`;
  return shape;
}

/** How a search should run, and the key to report its duration under (if learned). */
export interface Dispatch {
  async: boolean;
  key?: string;
}

export class SearchDispatcher {
  readonly #averageMs = new Map<string, number>();
  readonly #cpus: () => number;

  /** `cpus`: how many CPUs the process may run on now (`allowedCpus()` unless a test says). */
  constructor(cpus: () => number = allowedCpus()) {
    this.#cpus = cpus;
  }

  /** A may-be-heavy search; `index` scopes what is learned (one shape costs more on a bigger index). */
  decide(index: string, body: Buffer): Dispatch {
    const single = this.#cpus() < 2;
    if (body.length > MAX_LEARNED_BODY) return { async: !single };
    const key = `${index}\u0001${shapeOf(body)}`;
    if (single) return { async: false, key };
    const average = this.#averageMs.get(key);
    return { async: average === undefined || average >= INLINE_BELOW_MS, key };
  }

  /** A finished search's wall time (an async one's includes its trip through the pool). */
  record(key: string | undefined, ms: number): void {
    if (key === undefined) return;
    const average = this.#averageMs.get(key);
    if (average === undefined && this.#averageMs.size >= MAX_SHAPES) this.#averageMs.clear();
    this.#averageMs.set(key, average === undefined ? ms : average + ALPHA * (ms - average));
  }
}
