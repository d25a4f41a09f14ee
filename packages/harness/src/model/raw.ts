import type { Family } from '../families/types.js';
import type { MemoryDetail, Mismatch, Role, SweepSide } from '../scorecard/schema.js';
import type { Sample } from './samples.js';

/** GC pauses of the harness inside a window (load/harnessGc.ts). */
export interface GcPauses {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** The harness's sending thread's scheduling inside a window (load/harnessSched.ts). */
export interface SchedWindow {
  /** Time it was runnable but waiting for its CPU. */
  runQueueWaitMs: number;
  /** Times it was switched out against its will. */
  involuntarySwitches: number;
  /** Time the hypervisor gave its virtual CPU to another guest (10 ms ticks); absent when not pinned. */
  stealMs?: number;
}

export interface SideRowRaw {
  supported: boolean;
  error?: string;
  timed: Sample[];
  warmup: Sample[];
  /** Cache probe: the probe request repeated (see cacheProbe.ts); absent when not probed. */
  repeated?: Sample[];
  /** The engine's own CPU over each timed phase (absent where it cannot be read). */
  cpu?: CpuWindow[];
  /** Where `cpu` was read: /proc for an engine the harness started, node stats for one by URL. */
  cpuSource?: 'proc-schedstat' | 'nodes-stats';
  /** This engine's CPU while the other engine's phases were timed: it should stay idle. */
  idle?: { cpuNs: number; wallNs: number }[];
  /** The harness's own GC pauses during this engine's timed phases (each starts from a collected heap). */
  harnessGc?: GcPauses;
  /** The harness's sending thread's scheduling during this engine's timed phases. */
  harnessSched?: SchedWindow;
}

/** On-CPU time of an engine's process tree over one timed phase of a row. */
export interface CpuWindow {
  fork: number;
  /** The round's index within the row (across forks). */
  round: number;
  /** Timed requests sent in the phase (dropped ones not counted). */
  requests: number;
  cpuNs: number;
  wallNs: number;
}

export interface ReadRowRaw {
  family: Family;
  probeBody: Record<string, unknown>;
  candidate: SideRowRaw;
  baseline: SideRowRaw;
  /** The merge-base build's measurement (the gate's regression check), when it ran. */
  base?: SideRowRaw;
  /** Rounds measured per engine so far, over every fork. */
  rounds: number;
  /** Forks (process executions per engine) that measured the row so far. */
  forks: number;
  /** Pairs of responses whose signals were compared (probe included). */
  signalChecks: number;
  signalMismatches: number;
  mismatch?: Mismatch;
}

export interface IngestSideRaw {
  supported: boolean;
  error?: string;
  /** Per-bulk latency, ms, in send order. */
  bulkMs: number[];
  /** Sum over this engine's chunks of first bulk sent -> last bulk (or the final refresh) returned, ms. */
  elapsedMs: number;
  /** Each timed chunk in round order: its documents and its elapsed ms (the ingest row's paired rounds). */
  chunks: { docs: number; ms: number }[];
  docsPerSec?: number;
  /** `_count` after the refresh. */
  count?: number;
  failedBulks: number;
  failedItems: number;
}

export interface IngestCellRaw {
  supported: boolean;
  error?: string;
  /** First bulk sent -> refresh returned, ms. */
  elapsedMs?: number;
  docsPerSec?: number;
  count?: number;
  failedBulks: number;
}

export interface DiskSideRaw {
  supported: boolean;
  error?: string;
  /** Primary store size after refresh (and force-merge when the engine accepts it), bytes. */
  bytes?: number;
  count?: number;
  /** false when the engine refused `_forcemerge`: its size is measured after refresh only. */
  forceMerged: boolean;
  /** Why force-merge was not applied, for the reason line. */
  forceMergeNote?: string;
}

export interface MemorySideRaw {
  supported: boolean;
  error?: string;
  detail?: MemoryDetail;
  /** Restarts of this engine during the run: a restarted process did not serve the whole run. */
  restarts: number;
}

/** What one engine's writer did during one round of reads. */
export interface WriteLoad {
  offeredDocs: number;
  ackedDocs: number;
  failedBulks: number;
  droppedBulks: number;
  /** The scheduled span: bulks scheduled / bulk rate, ms. */
  elapsedMs: number;
}

export interface MixedSideRaw extends SideRowRaw {
  writes: WriteLoad[];
}

export interface MixedRowRaw {
  family: Family;
  probeBody: Record<string, unknown>;
  writeRate: number;
  candidate: MixedSideRaw;
  baseline: MixedSideRaw;
}

export interface SweepPointRaw {
  offeredRate: number;
  /** Requests scheduled per engine at this rate. */
  requests: number;
  candidate: SweepSide;
  baseline: SweepSide;
}

export interface SweepRaw {
  family: Family;
  supported: Record<Role, { ok: boolean; error?: string }>;
  capacity: Record<Role, number>;
  points: SweepPointRaw[];
  /** Rates below the slowest point's time bound, left out and why. */
  skipped: string[];
}

/** One engine's answers to the recall queries. */
export interface RecallSideRaw {
  supported: boolean;
  error?: string;
  /** recall@k per query, NaN where the request failed. */
  perQuery: number[];
}

/** The kNN latency row's id (its family's id too). */
export const KNN_LATENCY_ROW_ID = 'knn.latency';
