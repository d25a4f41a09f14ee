/**
 * Every type the site uses. The scorecard shape is the harness's contract, re-exported so
 * the rest of the site imports types from one place; the site's own shapes are derived here.
 */
import type { RowGroup, RowResult, Verdict } from '@everycell/harness/schema';
import type { StoredScorecard } from '@everycell/harness/validate';

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
