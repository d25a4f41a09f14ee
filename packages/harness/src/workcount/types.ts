/**
 * The count check's data, as written to a run folder's `workcount.json` and read by the gate:
 * each read row's instructions per request on one build (a count), and two builds' counts set
 * side by side (a comparison).
 */

/** One row counted on one build. */
export interface RowCount {
  row: string;
  /** Timed requests replayed (all of them counted). */
  requests: number;
  /** Requests the engine answered with a 2xx; the rest are counted on their error path. */
  ok: number;
  firstError?: string;
  /**
   * Bytes of the timed requests' replies: the runner pins the clock, so one build's replies are
   * the same every run, and two builds doing the same work answer with the same length.
   */
  replyBytes?: number;
  /** Instructions executed by the engine for the row's timed requests (callgrind's Ir). */
  instructions: number;
  instructionsPerRequest: number;
  /** Callgrind's cycle estimate per request (only with the cache and branch simulation). */
  cyclesPerRequest?: number;
}

/** One build's count of every row. */
export interface BuildCount {
  /** The runner's tree: "this checkout" or a worktree path. */
  tree: string;
  revision?: string;
  rows: RowCount[];
  /** Wall time of the callgrind run (index copy, open, warm-up and timed requests), ms. */
  wallMs: number;
  /** valgrind's own CPU time (user + system), ms, where GNU time is installed. */
  cpuMs?: number;
  cacheSim: boolean;
}

export type CountVerdict = 'REGRESSED' | 'IMPROVED' | 'SAME' | 'N/A';

/** A row's count on the pull request's build against the merge-base build's. */
export interface RowCountChange {
  row: string;
  base?: number;
  head?: number;
  /** head / base - 1: +0.031 is 3.1% more instructions per request. */
  change?: number;
  verdict: CountVerdict;
  reason: string;
}

export interface CountComparison {
  /** What was compared: the merge-base build's revision and this build's. */
  baseRevision: string;
  headRevision: string;
  /** A row moved when its count changed by this fraction or more (0.03). */
  threshold: number;
  corpus: { name: string; docs: number; seed: number };
  sizes: { warmup: number; timed: number };
  rows: RowCountChange[];
  /** Wall time the check took, by step, ms. */
  timings: Record<string, number>;
  /** valgrind's CPU time for each build's count, ms (where GNU time is installed). */
  countCpuMs?: { base?: number; head?: number };
  /** Set when the builds could not be compared (the rows are then empty). */
  note?: string;
}

/** The file beside a run's scorecard.json. */
export const COUNT_FILE = 'workcount.json';
