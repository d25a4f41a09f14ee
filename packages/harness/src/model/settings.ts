/** How the load is generated: what is sent, when, how often, to which rows. */
export interface LoadSettings {
  docs: number;
  seed: number;
  /** Open-loop arrival rate per engine, requests/s. */
  rate: number;
  /** Timed requests per engine per row, split evenly over the forks and their rounds. */
  iterations: number;
  /** Untimed warmup requests per engine per round. */
  warmup: number;
  /**
   * Process executions per engine per run (JMH's forks, Kalibera & Jones's top level): each fork
   * restarts both engines on the same data, waits until they are idle, prewarms, then measures
   * every read row. Two processes of one JVM differ by 7-35% on a row for their whole life: only
   * several processes per engine put that variance inside the interval.
   */
  forks: number;
  /**
   * Budget for re-measuring: a read row whose interval is still not decisive after `forks`
   * forks gets more forks (each a fresh pair of processes), up to this many.
   */
  maxForks: number;
  /** Where the design (forks, rounds, requests) came from, recorded with it in the manifest. */
  designBasis: string;
  /**
   * Paired rounds per row per fork; engine order alternates each round (C B, B C, ...). The
   * verdict's interval resamples forks, then rounds within them (stats/roundBootstrap.ts).
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
  /**
   * A/A calibration: both sides run the same engine, so every WIN or LOSE is false. 'baseline': a
   * second OpenSearch stands in for the candidate; 'candidate': a second candidate process stands
   * in for the baseline. false: a real comparison.
   */
  aa: false | 'baseline' | 'candidate';
  /**
   * Nodes of the baseline OpenSearch the harness starts: 1 is the single node; N > 1 is a cluster of
   * N JVMs on this machine (engines/opensearchCluster.ts) whose benchmark index has one shard per
   * node and no replicas (corpus/clusterShards.ts). A cluster run is its own comparable set.
   */
  baselineNodes: number;
  /**
   * Calibration only (npm run calibrate's power run): the candidate service adds this fraction of
   * each request's CPU cost as extra CPU work. 0 in every benchmark run; no flag sets it.
   */
  calibrationExtraCpu: number;
  /** Identical requests repeated per engine per read row for the cache probe (0: no probe). */
  cacheProbe: number;
  /** Which corpus (and so which index and read rows): an id of CORPORA in corpus/corpora.ts. */
  corpus: string;
  /** Add the kNN rows (knn.latency, knn.recall) on a separate vector index of knnDocs vectors. */
  knn: boolean;
  knnDocs: number;
  /** Compare result signals on every Nth timed response (plus the probe). */
  signalEvery: number;
  /**
   * "K/N": this run measures the Kth of N shares of the matrix (run/shard.ts), for merging with
   * the other N - 1 (npm run merge-cards); empty: the whole matrix.
   */
  shard: string;
}

/** How measurements are judged: thresholds and the statistics' own knobs. */
export interface JudgeSettings {
  /**
   * The gate's regression check (this build against the merge-base build): a row regressed when
   * its latency or engine CPU per request is worse than 1 / (1 + this) with the whole interval.
   */
  regressionMargin: number;
  /**
   * A single regressed row fails the gate only when its latency and CPU per request are both
   * worse beyond the margin and one of them is past 1 / (1 + this): A/A comparisons flag a row or
   * so per run on one signal alone (12-23% worse), so such rows are listed, and the gate judges
   * small changes together through the median over rows (verdict/baseOverall.ts).
   */
  regressionFailMargin: number;
  /**
   * Two-sided confidence of a row's interval (read, mixed and kNN rows: a t interval over forks,
   * or rounds within one fork). A run judges ~90 rows at once: at 95% a clean run would show a
   * few false WIN/LOSE every time, so the default is stricter.
   */
  confidence: number;
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
  forks: 5,
  maxForks: 7,
  rounds: 2,
  designBasis:
    'defaults: 5 forks so a t interval has 4 degrees of freedom; 2 rounds per fork so each fork measures both engine orders',
  connections: 64,
  timeoutMs: 15_000,
  bulkSize: 1000,
  bulkTimeoutMs: 60_000,
  ingestWarmupBatches: 20,
  signalEvery: 20,
  confidence: 0.99,
  regressionMargin: 0.1,
  regressionFailMargin: 0.25,
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
  baselineNodes: 1,
  calibrationExtraCpu: 0,
  cacheProbe: 50,
  corpus: 'llm-telemetry',
  knn: false,
  knnDocs: 50_000,
  shard: '',
};

/** The --clients list as numbers, ascending, without duplicates. */
export const clientCounts = (s: RunSettings): number[] =>
  [...new Set(s.clients.split(',').map((x) => Number(x.trim())))].sort((a, b) => a - b);

/** Timed requests per engine per round: --iterations over every planned fork's rounds. */
export const perRound = (s: Pick<LoadSettings, 'iterations' | 'forks' | 'rounds'>): number =>
  Math.ceil(s.iterations / (s.forks * s.rounds));

/**
 * The settings of a row measured in one process execution (kNN, read-under-write: their index
 * or write load lives in that process's run), with every planned round of the read rows' forks:
 * the same timed requests per engine as a read row.
 */
export const singleFork = <T extends LoadSettings>(s: T): T => ({
  ...s,
  forks: 1,
  maxForks: 1,
  rounds: s.forks * s.rounds,
});
