/** How the load is generated: what is sent, when, how often, to which rows. */
export interface LoadSettings {
  docs: number;
  seed: number;
  /** Open-loop arrival rate per engine, requests/s. */
  rate: number;
  /** Timed requests per engine per row, split evenly over the rounds. */
  iterations: number;
  /** Untimed warmup requests per engine per round. */
  warmup: number;
  /**
   * Rounds per row; engine order alternates per round (A B, B A, ...). The verdict's interval
   * resamples rounds (stats/roundBootstrap.ts), and two rounds cannot estimate drift between
   * them (its t factor is 12.7), so the default is 4 with the same timed requests split finer.
   */
  rounds: number;
  /** In-flight cap per engine = connection pool size; beyond it requests are dropped. */
  connections: number;
  timeoutMs: number;
  bulkSize: number;
  bulkTimeoutMs: number;
  /** Bulk batches sent to a throwaway index first (JIT/JVM warmup). */
  ingestWarmupBatches: number;
  /**
   * Untimed requests per engine per read row, all sent before any row is timed: a JVM needs far
   * more than the per-round warmup to compile its hot paths, and the harness warms up too.
   */
  prewarm: number;
  /** Comma-separated globs over read-row ids; ingest always runs (it loads the data). */
  families: string;
  /**
   * Comma-separated bulk client counts, e.g. "1,8": 1 is the `ingest.1-client` row (the load
   * itself); every other count is an `ingest.<n>-clients` row on a fresh index after the reads.
   */
  clients: string;
  forceMergeTimeoutMs: number;
  /** A/A mode: a second OpenSearch stands in for the candidate; verdicts count false WIN/LOSE. */
  aa: boolean;
  /**
   * Budget for adaptive re-measurement: a read row whose interval is not decisive gets more
   * rounds (two at a time, order continuing A B B A) up to this many. Default 3x --rounds.
   */
  maxRounds: number;
  /** Identical requests repeated per engine per read row for the cache probe (0: no probe). */
  cacheProbe: number;
  /** Which corpus (and so which index and read rows): an id of CORPORA in corpus/corpora.ts. */
  corpus: string;
  /** Add the kNN rows (knn.latency, knn.recall) on a separate vector index of knnDocs vectors. */
  knn: boolean;
  knnDocs: number;
  /** Compare result signals on every Nth timed response (plus the probe). */
  signalEvery: number;
}

/** How measurements are judged: thresholds and the statistics' own knobs. */
export interface JudgeSettings {
  /** A ratio must clear 1 +/- this margin (as well as its interval) to be a WIN or LOSE. */
  tieMargin: number;
  /** Error (incl. dropped) share above which a side has collapsed and loses the row. */
  collapseErrorRate: number;
  bootstrapResamples: number;
  /**
   * If the harness's own send lag p99 exceeds this on either side, the machine could not keep
   * the schedule (latency is measured from the intended send, so the lag would be charged to
   * the engine): the row is N/A rather than a verdict on noise.
   */
  maxSendLagP99Ms: number;
  /** Consecutive timed requests resampled together in the latency bootstrap (bursty noise). */
  bootstrapBlock: number;
  /** Margin for rows measured once per engine (disk, multi-client ingest): WIN/LOSE only beyond it. */
  singleMeasurementMargin: number;
}

/** Every knob that shapes a run; all of it is written to the manifest (flat, as the flags are). */
export type RunSettings = LoadSettings & JudgeSettings;

export const DEFAULT_SETTINGS: RunSettings = {
  docs: 100_000,
  seed: 42,
  rate: 200,
  iterations: 600,
  warmup: 15,
  rounds: 4,
  connections: 64,
  timeoutMs: 15_000,
  bulkSize: 1000,
  bulkTimeoutMs: 60_000,
  ingestWarmupBatches: 20,
  signalEvery: 20,
  tieMargin: 0.05,
  collapseErrorRate: 0.01,
  bootstrapResamples: 1000,
  maxSendLagP99Ms: 10,
  bootstrapBlock: 50,
  prewarm: 200,
  families: '*',
  clients: '1',
  singleMeasurementMargin: 0.1,
  forceMergeTimeoutMs: 300_000,
  aa: false,
  maxRounds: 12,
  cacheProbe: 50,
  corpus: 'llm-telemetry',
  knn: false,
  knnDocs: 50_000,
};

/** The --clients list as numbers, ascending, without duplicates. */
export const clientCounts = (s: RunSettings): number[] =>
  [...new Set(s.clients.split(',').map((x) => Number(x.trim())))].sort((a, b) => a - b);

export const perRound = (s: RunSettings): number => Math.ceil(s.iterations / s.rounds);
