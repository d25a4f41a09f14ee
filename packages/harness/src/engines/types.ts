/**
 * The part an engine plays in a run: the candidate and the baseline of the scorecard, and (in the
 * pull-request gate) the candidate built at the merge base, measured beside them to find
 * regressions against main.
 */
export type EngineRole = 'candidate' | 'baseline' | 'base';

/** A search engine process (or remote URL) the harness drives over the Elasticsearch REST API. */
export interface RunningEngine {
  readonly role: EngineRole;
  /** Human name with version, e.g. "everycell 0.1.0 (tantivy 0.27)" or "OpenSearch 2.19.1". */
  readonly product: string;
  readonly version: string;
  /** Base URL without trailing slash, e.g. http://127.0.0.1:9201 */
  readonly url: string;
  /** OS pid when the harness started the process itself; undefined for --*-url engines. */
  readonly pid: number | undefined;
  /** JVM heap flags as started ("-Xms1024m -Xmx1024m -XX:+AlwaysPreTouch"), so the memory row can say what its RSS holds. */
  readonly jvmHeap?: string;
  /**
   * A multi-node cluster the harness started (--baseline-nodes N): its size and each node's heap.
   * `pid` is then the supervisor whose children are the node JVMs, so /proc sums them all.
   */
  readonly cluster?: { nodes: number; heapMbPerNode: number };
  /**
   * The folder holding the engine's stored data (its indexes and translog), for engines the
   * harness started: a twin process can be given an exact copy, so both serve the same segments.
   */
  readonly dataDir?: string;
  /** Resolves when the process exited (never for remote engines). Used to detect a dead engine mid-run. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Stop the process (SIGTERM, then SIGKILL after a grace period). No-op for remote engines. */
  stop(): Promise<void>;
  /**
   * Start a fresh process on the same data directory and port, after this one died or hung
   * (call `stop` first). Only for engines the harness started; absent for --*-url engines.
   */
  restart?(): Promise<RunningEngine>;
}

export interface StartOptions {
  /** Data directory for this engine, under the run's folder. Created if missing. */
  dataDir: string;
  /** Where the engine's stdout/stderr go (a file path under the run's folder). */
  logFile: string;
  /** Port to bind on 127.0.0.1; the harness picks a free one. */
  port: number;
  /** Give up if not ready (green) within this many ms. */
  startTimeoutMs?: number;
}
