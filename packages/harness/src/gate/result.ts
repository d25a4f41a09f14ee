import type { Scorecard, Verdict } from '../scorecard/schema.js';
import type { CountComparison } from '../workcount/types.js';
import type { CountResult } from './counts.js';
import type { Waiver } from './waivers.js';

/** What the gate decides, as data: evaluate.ts computes it, render.ts writes it up. */

/**
 * 0 pass, 1 an unwaived LOSE, 2 the run failed, 3 coverage fell against the previous run,
 * 4 regressed against the merge-base build (unwaived): a row past the fail margin, the rows'
 * median CPU per request, or a row's counted instructions per request up by the count threshold.
 */
export type GateExitCode = 0 | 1 | 2 | 3 | 4;

export interface GateInput {
  scorecard: Scorecard;
  /** The latest run of main, when there is one. */
  previous?: Scorecard;
  waivers: readonly Waiver[];
  /** Today in UTC, YYYY-MM-DD: passed in so the evaluation stays a pure function. */
  today: string;
  /** The count check against the merge-base build (the run folder's workcount.json), when it ran. */
  counts?: CountComparison;
}

export interface FailingRow {
  id: string;
  title: string;
  reason: string;
  /** Set when a waiver named this row but its date has passed. */
  expiredWaiver?: Waiver;
}

export interface WaivedRow {
  id: string;
  title: string;
  reason: string;
  waiver: Waiver;
}

export interface ChangedRow {
  id: string;
  title: string;
  from: Verdict;
  to: Verdict;
  /** WIN <-> LOSE: the candidate went from better to worse or back. */
  flip: boolean;
  reason: string;
}

export interface Coverage {
  /** false when there is no previous run or it used another corpus, size or row selection. */
  compared: boolean;
  /** Why coverage was not compared, for the summary. */
  note?: string;
  naBefore: number;
  naNow: number;
  /** Row ids in the previous run that this run does not have. */
  missingRows: string[];
  /** Rows that had a verdict before and are N/A now. */
  newlyNA: string[];
  dropped: boolean;
}

/** A row whose candidate changed against the merge-base build beyond the margin. */
export interface BaseChange {
  id: string;
  title: string;
  verdict: 'REGRESSED' | 'IMPROVED';
  /** The larger of the latency and CPU changes, as a factor (> 1 better, < 1 worse). */
  size: number;
  /** A regression past the fail margin: this row alone fails the gate unless waived. */
  blocking: boolean;
  reason: string;
  waiver?: Waiver;
}

/** The read rows against the merge-base build taken together (scorecard `versusBaseOverall`). */
export interface OverallChange {
  verdict: 'REGRESSED' | 'IMPROVED' | 'SAME' | 'N/A';
  reason: string;
  /** A regression waiver for the row id `overall`. */
  waiver?: Waiver;
}

export interface GateResult {
  exitCode: GateExitCode;
  /**
   * Regressions (unwaived first) and improvements against the merge-base build, largest first.
   * Only blocking regressions and an overall regression fail the gate.
   */
  regressions: BaseChange[];
  overall?: OverallChange;
  improvements: BaseChange[];
  /** The count check, when the run has one: its regressions fail the gate unless waived. */
  counts?: CountResult;
  /** One line: what the gate decided and why. */
  headline: string;
  summaryMarkdown: string;
  /** Run failure cause when exitCode is 2. */
  runFailure?: string;
  failingRows: FailingRow[];
  changedRows: ChangedRow[];
  waivedRows: WaivedRow[];
  /** Every expired waiver in the file, whether or not its row lost this time. */
  expiredWaivers: Waiver[];
  /** Unexpired waivers whose row did not LOSE: candidates for removal. */
  unusedWaivers: Waiver[];
  coverage: Coverage;
}
