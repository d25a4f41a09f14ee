import type { FloorSplit, Waterfall } from './latencyParts.js';
import type { MeasurementDesign, Placement } from './runLayout.js';

export type { FloorSplit, Waterfall } from './latencyParts.js';
export type { MeasurementDesign, Placement } from './runLayout.js';
/**
 * The scorecard contract: what one run of the harness publishes. Everything downstream
 * (SCORECARD.md, the DuckDB history, the site, the gate) reads only this shape.
 * Bump SCORECARD_SCHEMA_VERSION on any incompatible change.
 */
export const SCORECARD_SCHEMA_VERSION = 2;

export type Verdict = 'WIN' | 'LOSE' | 'TIE' | 'N/A';
export const VERDICTS: readonly Verdict[] = ['WIN', 'LOSE', 'TIE', 'N/A'];

export type RowGroup =
  | 'ingest'
  | 'query'
  | 'metric'
  | 'bucket'
  | 'pipeline'
  | 'feature'
  | 'mixed'
  | 'knn'
  | 'throughput'
  | 'disk'
  | 'memory';

export type Role = 'candidate' | 'baseline';

export interface EngineInfo {
  /** 'base': the candidate built at the merge base (the pull-request gate's regression check). */
  role: Role | 'base';
  product: string;
  version: string;
  url: string;
  /** true when the harness started the process; false for --candidate-url / --baseline-url. */
  startedByHarness: boolean;
  /**
   * Nodes of the engine's cluster (1 for a single node); with the benchmark index's shards and
   * replicas, and each node's JVM heap (MiB) for a cluster the harness started (--baseline-nodes).
   */
  topology?: { nodes: number; shards: number; replicas: number; heapMbPerNode?: number };
}

/** The engine's differential conformance suite against the real baseline, as committed at this revision. */
export interface ConformanceSummary {
  /** ISO date the suite was last run against the baseline. */
  measuredAt: string;
  /** e.g. "OpenSearch 2.19.1". */
  baseline: string;
  cases: number;
  /** Cases whose pinned expectations hold on the baseline. */
  baselinePass: number;
  /** Cases where the candidate answers as the baseline does. */
  candidatePass: number;
  areas: { area: string; cases: number; baselinePass: number; candidatePass: number }[];
  /** Known, reasoned differences (counted in cases but not in candidatePass). */
  differences: { area: string; name: string; reason: string }[];
}

/**
 * Elasticsearch's own REST API YAML tests (`org.elasticsearch:rest-api-spec`) run on both engines
 * by `npm run conformance`, as committed at this revision (`packages/harness/restsuite/`).
 */
export interface RestSuiteSummary {
  /** Maven coordinates of the suite, e.g. "org.elasticsearch:rest-api-spec:7.10.2". */
  suite: string;
  /** ISO date of the run. */
  measuredAt: string;
  baseline: string;
  /** Every test section in the suite. */
  tests: number;
  /** Tests either engine skipped (a version range excluding 7.10.2, a runner feature not implemented). */
  skipped: number;
  /** Groups of APIs left out, each with its reason and its test count. */
  excluded: { apis: string[]; reason: string; tests: number }[];
  /** Counted tests OpenSearch passes. */
  baselinePass: number;
  /** Of those, the tests the candidate passes too. */
  candidatePass: number;
  /** Counted tests the candidate passes and OpenSearch fails. */
  candidateOnly: number;
  byApi: {
    api: string;
    tests: number;
    skipped: number;
    excluded: number;
    baselinePass: number;
    candidatePass: number;
    candidateOnly: number;
  }[];
}

export interface Manifest {
  machine: { cpuModel: string; cores: number; memoryBytes: number; kernel: string; platform: string };
  node: string;
  gitRevision: string;
  candidate: EngineInfo;
  baseline: EngineInfo;
  /** The candidate built at `revision` (the merge base), measured beside the others: versusBase on each row. */
  base?: EngineInfo & { revision: string };
  corpus: { name: string; seed: number; docs: number; contentHash: string };
  /** Every harness setting that shaped the run (rate, iterations, warmups, rounds, timeouts, ...). */
  settings: Record<string, string | number | boolean | string[]>;
  design?: MeasurementDesign;
  placement?: Placement;
  /** The state each fork's timing started from: how long the harness waited for both engines to go idle. */
  idle?: { waitedMs: number; quiet: boolean; cpuMsPerSecond: Partial<Record<Role, number>> }[];
  /**
   * What the run spent its time on, in order (run/phases.ts): each phase's kind (start, load, restart,
   * prewarm, idle, floor, rows, cacheProbe, memory, disk, knn, sweep, mixed, ingestCells), which
   * one (a fork, a row id), when it started and how long it took (ms from the first phase), and
   * its size in units (rows, engines), and on a fork's rows the read rows still undecided after it
   * (`forecast`). The run's time estimate is tested against these.
   */
  phases?: { kind: string; label: string; startMs: number; ms: number; units?: number; forecast?: number }[];
  /**
   * A shard of a split run (--shard K/N, run/shard.ts): the share it measured, and the whole deal
   * (every measurement's shard), which every shard of the split computes alike.
   */
  shard?: { index: number; count: number; assignment: Record<string, number> };
  /**
   * A card merged from the shards of a split run (npm run merge-cards): each shard's run, the
   * machine it ran on and its harness floor. Each row's `shard` names the one that measured it.
   */
  shards?: ShardRecord[];
}

/** One shard of a merged card. */
export interface ShardRecord {
  index: number;
  runId: string;
  createdAt: string;
  durationMs: number;
  status: 'complete' | 'partial' | 'failed';
  failure?: string;
  machine: Manifest['machine'];
  node: string;
  floor?: Floor;
  /** Rows this shard measured. */
  rows: number;
}

/** One engine's measurement of one row. */
export interface SideMeasurement {
  /** false when the feasibility probe was refused (4xx) or the engine failed the row. */
  supported: boolean;
  /** Why it is unsupported or failed (ES error type and reason, or a harness message). */
  error?: string;
  /** Timed samples that count (warmups excluded). */
  samples: number;
  /** Requests in the timed phase that returned non-2xx or timed out. */
  errors: number;
  /** Timed requests not sent because the in-flight cap was reached (open loop: never queued). */
  dropped?: number;
  /** p99 of send lag (actual minus intended send), ms: how late the harness itself was. */
  sendLagP99?: number;
  /**
   * The harness's own GC pauses during this engine's timed phases (read rows): a pause delays
   * every send scheduled inside it, so these explain a send lag the engines did not cause.
   */
  harnessGc?: { count: number; totalMs: number; maxMs: number };
  /**
   * The harness's sending thread during this engine's timed phases (read rows): time it waited
   * for its pinned CPU, involuntary switches, and the hypervisor's steal on that CPU (10 ms ticks).
   */
  harnessSched?: { runQueueWaitMs: number; involuntarySwitches: number; stealMs?: number };
  /** Latency from the intended send time, milliseconds (read rows). */
  p50?: number;
  p99?: number;
  /** Service time from the actual send, milliseconds (read rows). */
  serviceP50?: number;
  /** Achieved request rate over the timed phase (read rows). */
  achievedRate?: number;
  /** The row's single value for non-latency rows: docs/s (ingest), bytes (disk, memory), recall. */
  value?: number;
  /** p99.9 of latency from the intended send, ms (from an HDR histogram of the timed samples). */
  p999?: number;
  /** The engine failed the row: more than 1% of timed requests erred, or it crashed during the row. */
  collapsed?: boolean;
  /** The engine could not keep up: achieved rate short of the offered rate, or latency climbing through the run. */
  saturated?: boolean;
  saturationReason?: string;
  /** Cache probe: the same request repeated vs the varied-parameter measurement. */
  cache?: { repeatedP50: number; variedP50: number; suspected: boolean };
  /** Compact latency distribution for drill-downs: latency (ms, from intended send) at each quantile q. */
  ecdf?: { q: number[]; ms: number[] };
  /**
   * The successful timed latencies (from the intended send) as an HDR histogram in microseconds,
   * 3 significant digits, in HdrHistogram's compressed base64 encoding (stats/hdr.ts): the whole
   * distribution, which any HdrHistogram port decodes, after the raw samples are gone.
   */
  hdr?: string;
  /** Latency over the timed phase, in bins of binMs from the first intended send (exposes merge/flush stalls). */
  timeline?: { binMs: number; p50: number[]; p99: number[]; count: number[] };
  /** Mixed rows: the open-loop write load this engine received while its reads were timed. */
  writeLoad?: {
    offeredDocsPerSec: number;
    /** Documents acknowledged (bulk items without error) per scheduled second of writing. */
    ackedDocsPerSec: number;
    failedBulks: number;
    /** Bulks not sent because the writer's in-flight cap was reached (open loop: never queued). */
    droppedBulks: number;
  };
  /** Memory row: what /proc said about the engine's process tree (value = rssBytes). */
  memory?: MemoryDetail;
  /**
   * Engine CPU per timed request, ms: on-CPU time of the engine's process tree during the timed
   * phases (every thread's schedstat, or the node stats API's process CPU for an engine given by
   * URL) divided by the timed requests.
   */
  cpuMsPerRequest?: number;
  /** Where cpuMsPerRequest came from. */
  cpuSource?: 'proc-schedstat' | 'nodes-stats';
  /** CPU ms per second this engine used while the other one was timed: shows it stayed idle. */
  idleCpuMsPerSecond?: number;
  /** Read rows: where the p50 and the p99 go (stats/waterfall.ts). */
  waterfall?: { p50: Waterfall; p99: Waterfall };
}

/**
 * Resident memory of an engine's process and its descendants, from /proc/<pid>/status; or, for an
 * engine given by URL, from its node stats API (`source: 'nodes-stats'`, summed over nodes).
 */
export interface MemoryDetail {
  /** VmRSS summed over the processes, bytes (node stats: see `field`). */
  rssBytes: number;
  /** VmHWM (each process's own peak RSS) summed: the tree's peak when it is one process, an upper bound otherwise. Absent from node stats. */
  hwmBytes?: number;
  /** Absent: /proc. 'nodes-stats': the engine's `_nodes/stats`, read over HTTP. */
  source?: 'nodes-stats';
  /** The node stats field(s) rssBytes came from. */
  field?: string;
  /** rssBytes is a lower bound of resident memory (a JVM's committed heap + non-heap: node stats have no RSS). */
  lowerBound?: boolean;
  /** Per node, from node stats. */
  nodes?: { name: string; bytes: number }[];
  /** The RSS split into anonymous memory, file-backed pages (mmapped index files, code) and shared memory. */
  rssAnonBytes?: number;
  rssFileBytes?: number;
  rssShmemBytes?: number;
  processes: { pid: number; name: string; rssBytes: number; hwmBytes: number }[];
  /** JVM heap flags as the harness started the engine (e.g. "-Xms1024m -Xmx1024m -XX:+AlwaysPreTouch"); absent for non-JVM engines. */
  jvmHeap?: string;
}

export interface Mismatch {
  /** One line: what differs, e.g. "hits.total: 1200 vs 1187". */
  summary: string;
  /** The two result signals that were compared. */
  candidate: unknown;
  baseline: unknown;
  /** The request body they answered (the probe's or a sampled timed request's): what the shrinker starts from. */
  request?: unknown;
}

export interface RowResult {
  /** Stable id across runs, e.g. "query.term" or "ingest.1-client". */
  id: string;
  group: RowGroup;
  /** Family name, e.g. "term", "date_histogram". */
  family: string;
  title: string;
  /** Unit of the compared value: 'ms' for latency rows, 'docs/s', 'bytes', 'recall'. */
  unit: 'ms' | 'docs/s' | 'bytes' | 'recall' | 'req/s';
  /** Which direction is better for the raw value. */
  betterIs: 'lower' | 'higher';
  /** A representative request body (the probe's), for drill-downs. */
  request?: unknown;
  candidate: SideMeasurement;
  baseline: SideMeasurement;
  /** Normalised so that > 1 always means the candidate is better. Absent for N/A. */
  ratio?: number;
  /** 95% confidence interval of the ratio, same normalisation. */
  ci?: [number, number];
  /**
   * The ratio within each paired round, same normalisation (read and mixed rows): a WIN or LOSE
   * must be the direction of a strict majority of them.
   */
  roundRatios?: number[];
  /**
   * The ratio within each fork (its rounds pooled), same normalisation: when a row ran in two or
   * more forks, the interval comes from these and a WIN or LOSE must be the direction of a
   * strict majority of them.
   */
  forkRatios?: number[];
  verdict: Verdict;
  /** Why this verdict: ratio, interval, margin, or the N/A cause. */
  reason: string;
  mismatch?: Mismatch;
  /** How many response pairs had their result signals compared (probe + sampled timed responses). */
  signalChecks?: number;
  /** Paired rounds per engine that the verdict rests on (more than the setting when re-measured). */
  rounds?: number;
  /** The row was re-measured with more rounds because the first interval was too wide to decide. */
  remeasured?: boolean;
  /** Both engines' p50 within 2x of the harness's null-server floor: the harness cannot resolve the difference. */
  belowResolution?: boolean;
  /** Verdict flips across recent runs of this row on the same corpus and scale (from the history). */
  flaky?: { flips: number; runs: number };
  /** Path (relative to the run folder) of the full diff of the two mismatching responses. */
  diffPath?: string;
  /** Engine CPU per request, baseline / candidate (> 1: the candidate uses less), with its 95% interval. */
  cpuRatio?: number;
  cpuCi?: [number, number];
  /** Process executions per engine the row was measured in. */
  forks?: number;
  /** In a card merged from shards: the shard (manifest.shards) that measured this row. */
  shard?: number;
  /**
   * The row's mismatch shrunk to a case (src/shrink/, after every row is measured): the
   * conformance case file in the run folder (`path`, e.g. "shrunk/query.term.json") and what the
   * shrinking took, or why there is no case (`skipped`).
   */
  shrunk?: {
    path?: string;
    requestTests?: number;
    documentTests?: number;
    documentsBefore?: number;
    documents?: number;
    skipped?: string;
  };
  /** A p99-scored row whose p99s are both within 2x of the harness floor's p99: the tail is the harness's. */
  belowFloorP99?: boolean;
  /**
   * The pull-request gate's second comparison: this build's candidate against the candidate built
   * at the merge base, measured in the same run. ratio > 1: this build is faster.
   */
  versusBase?: BaseComparison;
}

/** Each read row's p50 and CPU per request at every size of a pass set, in pass order. */
export interface CostCurve {
  /** The corpus size of each pass, and the run id of its scorecard. */
  docs: number[];
  runIds: string[];
  /**
   * The open-loop load of each size's read rows (req/s per engine, timed requests per row): a
   * size taken from an earlier published run (--cost-curve-with) may have run at another, and a
   * saturated row's p50 includes its queue, so the reader needs both to compare p50 across sizes.
   */
  loads?: { rate: number; iterations: number }[];
  rows: CostCurveRow[];
}

/** One value per pass; null where the row was not measured on that side (unsupported, or absent). */
export interface CostCurveRow {
  id: string;
  candidateP50: (number | null)[];
  baselineP50: (number | null)[];
  candidateCpuMs: (number | null)[];
  baselineCpuMs: (number | null)[];
}

/** One row of the candidate-vs-base-candidate comparison (regressions against main). */
export interface BaseComparison {
  baseRevision: string;
  ratio?: number;
  ci?: [number, number];
  cpuRatio?: number;
  cpuCi?: [number, number];
  verdict: 'REGRESSED' | 'IMPROVED' | 'SAME' | 'N/A';
  /** On a REGRESSED row: the change reaches the fail margin, so this row alone fails the gate. */
  blocking?: boolean;
  reason: string;
}

/**
 * Every read row's change against the merge-base build taken together: the median over rows of
 * the CPU-per-request ratios with its distribution-free interval (verdict/baseOverall.ts).
 */
export interface BaseOverall {
  baseRevision: string;
  /** Rows with a CPU-per-request ratio against the merge-base build. */
  rows: number;
  cpuMedian: number;
  cpuCi: [number, number];
  verdict: 'REGRESSED' | 'IMPROVED' | 'SAME' | 'N/A';
  reason: string;
}

/** The harness against a null HTTP server on the same machine: the floor under every latency row. */
export interface Floor {
  rate: number;
  p50: number;
  p99: number;
  sendLagP50: number;
  sendLagP99: number;
  /** Where the floor's p50 and p99 go (floor/floorSplit.ts). */
  split?: { p50: FloorSplit; p99: FloorSplit };
  /**
   * Time spent waiting for a CPU during the floor's timed requests, ms: the harness's sending
   * thread, and the null server's threads summed (schedstat run-queue wait).
   */
  runQueueWaitMs?: { harness?: number; server?: number };
}

/** One offered rate of a latency-at-target-throughput sweep, measured on one engine. */
export interface SweepSide {
  achievedRate: number;
  /** null on a skipped rate (NaN before it is written). */
  p50: number | null;
  /** null on a skipped rate (NaN before it is written). */
  p99: number | null;
  /** NaN (written as null) where the sample count cannot support a p99.9. */
  p999: number | null;
  errors: number;
  dropped: number;
  /** Mean latency from the intended send, ms; with the achieved rate, Little's law's in-flight count. */
  meanMs?: number;
  /** Requests in flight on average: achieved rate x mean latency (Little's law). */
  inFlight?: number;
  /** The harness's own send lag p99 at this point, ms: above a few ms the harness, not the engine, was the limit. */
  sendLagP99?: number;
  /** Not run on this engine: it already failed to sustain two lower rates (past its knee). */
  skipped?: boolean;
}

/**
 * Latency at target throughput for one family (the method of Elastic's client benchmark):
 * closed-loop capacity of each engine, then open loop at several offered rates. The
 * matching capacity row (group 'throughput', unit 'req/s', id `throughput.<family>`) scores the
 * highest offered rate each engine sustains with p99 under p99BoundMs.
 */
export interface Sweep {
  family: string;
  rowId: string;
  p99BoundMs: number;
  closedLoopCapacity: { candidate: number; baseline: number };
  /** Each engine's highest sustained offered rate (the row's values). */
  highest?: { candidate: number; baseline: number };
  /** An engine that sustained the top of the ladder: its highest rate is a lower bound ("at least"). */
  atLeast?: { candidate: boolean; baseline: boolean };
  /** Each offered rate; `requests` sent to each engine there (absent in cards before it was kept). */
  points: { offeredRate: number; requests?: number; candidate: SweepSide; baseline: SweepSide }[];
}

/** Coverage against the previous run on the same corpus and scale (exit 3 when it fell). */
export interface Coverage {
  previousRunId: string;
  previousNA: number;
  na: number;
  /** Row ids the previous run had and this run lacks. */
  missingRows: string[];
  fell: boolean;
}

export interface Scorecard {
  schemaVersion: typeof SCORECARD_SCHEMA_VERSION;
  runId: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** 'partial' when interrupted (Ctrl-C); 'failed' when the run itself failed (exit 2). */
  status: 'complete' | 'partial' | 'failed';
  failure?: string;
  durationMs: number;
  manifest: Manifest;
  counts: Record<Verdict, number>;
  rows: RowResult[];
  floor?: Floor;
  coverage?: Coverage;
  /** The read rows against the merge-base build taken together (when a base build ran). */
  versusBaseOverall?: BaseOverall;
  sweeps?: Sweep[];
  conformance?: ConformanceSummary;
  /** Elasticsearch's REST API tests on both engines, as committed at this revision. */
  restSuite?: RestSuiteSummary;
  /**
   * A pass set's cost curve (`--docs 100k,1m`): how each read row's p50 and engine CPU per request
   * grow with the corpus, over every pass of the set so far, this card's the last. Only on the
   * second and later passes.
   */
  costCurve?: CostCurve;
  /**
   * 0 no LOSE, 1 any LOSE, 2 the run failed, 3 coverage fell, 4 regressed against the base build
   * (a row past the fail margin, or the rows' median CPU per request: scorecard/build.ts).
   */
  exitCode: 0 | 1 | 2 | 3 | 4;
}
