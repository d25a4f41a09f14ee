/**
 * Every type the site uses. The scorecard shape is the harness's contract, re-exported so
 * the rest of the site imports types from one place; the site's own shapes are derived here.
 */
import type { Coverage, Floor, RowGroup, RowResult, Verdict } from '@everycell/harness/schema';
import type { StoredScorecard } from '@everycell/harness/validate';
import type { ConformanceView, RestSuiteView } from './conformance';
import type { Headline } from './headline';
import type { SetOption } from './sets';
import type { TableRow } from './table-rows';

/** A scorecard as committed: schema 1 or 2 (2 only adds optional fields). */
export type Scorecard = StoredScorecard;

export type {
  Coverage,
  EngineInfo,
  Floor,
  Manifest,
  Mismatch,
  RowGroup,
  RowResult,
  SideMeasurement,
  Sweep,
  SweepSide,
  Verdict,
  Waterfall,
} from '@everycell/harness/schema';
export type { Waiver } from '@everycell/harness/waivers';

/** One point of a row's trend: the row's result in one run, as stored in the history. */
export interface TrendPoint {
  runId: string;
  /** ISO 8601 UTC of the run. */
  createdAt: string;
  gitRevision: string;
  /** Each engine's scored number in that run (p50 or p99 ms, docs/s, bytes, recall, req/s). */
  candidate?: number;
  baseline?: number;
  verdict: Verdict;
  /** Absent when the verdict is N/A (no ratio was computed). */
  ratio?: number;
  ciLow?: number;
  ciHigh?: number;
  /** The interval's confidence in that run (lib/interval.ts). */
  level?: number;
  /** Why this run gave this verdict. */
  reason: string;
}

export interface RowTrend {
  rowId: string;
  title: string;
  points: TrendPoint[];
}

/** The table's rows for one group, in scorecard order. */
export interface RowGroupSection {
  group: RowGroup;
  label: string;
  rows: RowResult[];
}

/** The latest run as the home page shows it. */
export interface LatestRun {
  scorecard: Scorecard;
  sections: RowGroupSection[];
}

/**
 * One run as its page shows it, prepared at build time (lib/run-model.ts) and written beside the
 * run as run.json: the static pages render it on the server, a run's own page in the browser, and
 * the compare page reads its rows. Text that needs the harness's server-side modules (the
 * reproduce command, markers, labels) is already worked out, so the browser only renders.
 */
export interface RunModel {
  runId: string;
  createdAt: string;
  status: StoredScorecard['status'];
  failure?: string;
  durationMs: number;
  /** The candidate's product without its version ("everycell"), and its full name with version. */
  candidateProduct: string;
  candidate: string;
  baseline: string;
  /** Nodes of the baseline's cluster, when more than one. */
  baselineNodes?: number;
  /** A card merged from the shards of a split run: each shard's run, machine, rows and duration. */
  shards?: { index: number; runId: string; machine: string; rows: number; durationMs: number }[];
  gitRevision: string;
  corpus: { name: string; docs: number; seed: number; contentHash: string };
  machine: { cpuModel: string; cores: number; memoryBytes: number; kernel: string; platform: string };
  node: string;
  set: { slug: string; name: string; label: string; options: SetOption[]; runs: number };
  /** The scaling line of the set (same options at other sizes), when it has more than one size. */
  line?: { slug: string; name: string };
  gateFails: boolean;
  counts: Record<Verdict, number>;
  headline: Headline;
  rows: TableRow[];
  /** The intervals' levels in words ("99% (latency rows) and 95% (ingest.1-client)"). */
  levels?: string;
  tieMargin: number;
  conformance: ConformanceView[];
  /** Elasticsearch's REST API tests, when the run's card recorded them. */
  restSuite?: RestSuiteView;
  calibration?: { file: string; scale: string; stale: string[] };
  floor?: Floor;
  coverage?: Coverage;
  /** Every published setting as text (machine paths redacted), and the few that change what a number means. */
  settings: [string, string][];
  keySettings: string[];
  costCurve?: CostCurveModel;
  reproduce: { lines: string[]; caveats: string[]; fixedSettings: string[]; hidden: string[] };
  downloads: string[];
  previous?: { runId: string; createdAt: string };
  next?: { runId: string; createdAt: string };
}

/** A pass set's cost curve as the run page's table shows it, already formatted. */
export interface CostCurveModel {
  sizes: string;
  runIds: string[];
  /** The sizes' differing read loads in words, when they differ. */
  loads: string[];
  rows: {
    id: string;
    candidateP50: string;
    baselineP50: string;
    candidateCpu: string;
    baselineCpu: string;
  }[];
}
