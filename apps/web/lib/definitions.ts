/**
 * Every type the site uses. The scorecard shape is the harness's contract, re-exported so
 * the rest of the site imports types from one place; the site's own shapes are derived here.
 */
import type { RowGroup, RowResult, Scorecard, Verdict } from '@everycell/harness/schema';

export type {
  Coverage,
  EngineInfo,
  Floor,
  Manifest,
  Mismatch,
  RowGroup,
  RowResult,
  Scorecard,
  SideMeasurement,
  Sweep,
  SweepSide,
  Verdict,
} from '@everycell/harness/schema';

/** One point of a row's trend: the row's result in one run, as stored in the history. */
export interface TrendPoint {
  runId: string;
  /** ISO 8601 UTC of the run. */
  createdAt: string;
  verdict: Verdict;
  /** Absent when the verdict is N/A (no ratio was computed). */
  ratio?: number;
  ciLow?: number;
  ciHigh?: number;
  /** Why this run gave this verdict. */
  reason: string;
}

/** Where the trend was read from: the product requirement is the DuckDB history. */
export type HistorySource = 'duckdb' | 'scorecard-json';

export interface RowTrend {
  rowId: string;
  title: string;
  source: HistorySource;
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

/** A gate waiver from scorecards/waivers.json (the harness's packages/harness/src/gate/waivers.ts). */
export interface Waiver {
  row: string;
  reason: string;
  who: string;
  /** Last day (UTC) the waiver holds, YYYY-MM-DD. */
  expires: string;
}
