/**
 * Comparison of any two comparable runs, drawn in the browser from the two runs' run.json (the few
 * fields each row needs: verdict, ratio and its interval). It judges as well as lists: each row's
 * change gets an interval from the two runs' own intervals, so a flipped verdict is marked as
 * beyond or within noise, and the read rows together get one overall line. Pure.
 *
 * Formulas, written next to the code:
 * - A row's interval [lo, hi] at level L with d degrees of freedom (forks - 1, or rounds - 1; a
 *   bootstrap counts as the normal) gives the standard error of its log ratio:
 *   se = ln(hi / lo) / (2 q), q the (1 + L) / 2 quantile of t with d degrees of freedom.
 * - The change of a row is after / before; its log has se = sqrt(se_before² + se_after²), and its
 *   interval is exp(ln change ± q se) at the higher of the two levels and the fewer degrees of
 *   freedom (the conservative choice). Beyond noise when that interval excludes 1.
 * - Overall: the geometric mean of the read rows' changes, exp(mean ln change), with a 95% t
 *   interval over the rows (how consistently the rows moved, not how precisely each one did).
 */
import type { RowGroup, RunModel, Verdict } from './definitions';
import { GROUP_ORDER } from './prepare';
import { meanInterval, tQuantile } from './stats';

export interface CompareRow {
  id: string;
  title: string;
  group: RowGroup;
  verdict: Verdict;
  ratio?: number;
  ci?: [number, number];
  /** The interval's confidence (0.99). */
  level?: number;
  /** The interval's degrees of freedom; absent for a bootstrap (the normal is used). */
  df?: number;
  /** A read row (queries, aggregations, search features): the rows the overall line averages. */
  read: boolean;
  reason: string;
}

export interface CompareRun {
  runId: string;
  createdAt: string;
  gitRevision: string;
  /** The comparable set's slug: two runs compare only when these are equal. */
  set: string;
  /** The set's name and options in words. */
  setLabel: string;
  corpus: string;
  docs: number;
  baseline: string;
  rows: CompareRow[];
}

/** The compare page's view of a run, from its run.json. */
export function compareRunFromModel(model: RunModel): CompareRun {
  return {
    runId: model.runId,
    createdAt: model.createdAt,
    gitRevision: model.gitRevision,
    set: model.set.slug,
    setLabel: model.set.label,
    corpus: model.corpus.name,
    docs: model.corpus.docs,
    baseline: model.baseline,
    rows: model.rows.map((row) => {
      const out: CompareRow = {
        id: row.id,
        title: row.title,
        group: row.group,
        verdict: row.verdict,
        read: row.read,
        reason: row.reason,
      };
      if (row.ratio !== undefined) out.ratio = row.ratio;
      if (row.ci) out.ci = row.ci;
      if (row.level !== undefined) out.level = row.level;
      if (row.df !== undefined) out.df = row.df;
      return out;
    }),
  };
}

export type ChangeKind = 'flipped' | 'added' | 'removed' | 'same';

/** Whether a row's change is beyond the two runs' noise. */
export type Noise = 'beyond' | 'within' | 'no-interval' | 'not-comparable';

export interface ChangeInterval {
  /** after.ratio / before.ratio: above 1 the candidate improved against the baseline. */
  change: number;
  low: number;
  high: number;
  level: number;
}

export interface RowChange {
  rowId: string;
  title: string;
  group: RowGroup;
  kind: ChangeKind;
  before?: CompareRow;
  after?: CompareRow;
  /** after.ratio / before.ratio when both runs have a ratio: > 1 means the candidate improved. */
  ratioChange?: number;
  interval?: ChangeInterval;
  noise: Noise;
}

/** The overall line (CodSpeed-style): how the read rows moved together, and how many moved. */
export interface OverallChange {
  /** Geometric mean of the read rows' changes, with its 95% interval over the rows. */
  geomean?: { change: number; low: number; high: number; rows: number };
  improved: number;
  regressed: number;
  unchanged: number;
  /** Rows with a ratio in both runs but no interval in one of them (one measurement per engine). */
  noInterval: number;
  /** Rows N/A in either run, or in only one of them. */
  notComparable: number;
}

export interface RunComparison {
  before: CompareRun;
  after: CompareRun;
  /** Flipped verdicts first (new LOSEs, then those beyond noise), then added, removed and unchanged rows. */
  changes: RowChange[];
  counts: Record<ChangeKind, number>;
  overall: OverallChange;
}

export const KIND_ORDER: readonly ChangeKind[] = ['flipped', 'added', 'removed', 'same'];
const OVERALL_LEVEL = 0.95;

function standardError(row: CompareRow): { se: number; df: number; level: number } | undefined {
  if (!row.ci || row.level === undefined) return undefined;
  const [low, high] = row.ci;
  if (!(low > 0) || !(high >= low)) return undefined;
  const df = row.df ?? Number.POSITIVE_INFINITY;
  const q = tQuantile(1 - (1 - row.level) / 2, df);
  return { se: Math.log(high / low) / (2 * q), df, level: row.level };
}

/** The change of one row with its interval (formula above); undefined without both intervals. */
export function changeInterval(before: CompareRow, after: CompareRow): ChangeInterval | undefined {
  if (before.ratio === undefined || after.ratio === undefined || !(before.ratio > 0) || !(after.ratio > 0))
    return undefined;
  const a = standardError(before);
  const b = standardError(after);
  if (!a || !b) return undefined;
  const level = Math.max(a.level, b.level);
  const q = tQuantile(1 - (1 - level) / 2, Math.min(a.df, b.df));
  const log = Math.log(after.ratio / before.ratio);
  const half = q * Math.sqrt(a.se ** 2 + b.se ** 2);
  return { change: Math.exp(log), low: Math.exp(log - half), high: Math.exp(log + half), level };
}

function noiseOf(
  before: CompareRow | undefined,
  after: CompareRow | undefined,
  interval?: ChangeInterval,
): Noise {
  if (before?.ratio === undefined || after?.ratio === undefined) return 'not-comparable';
  if (!interval) return 'no-interval';
  return interval.low > 1 || interval.high < 1 ? 'beyond' : 'within';
}

/** The read rows' overall change and the counts of rows that moved (formula above). */
export function overallChange(changes: readonly RowChange[]): OverallChange {
  const overall: OverallChange = { improved: 0, regressed: 0, unchanged: 0, noInterval: 0, notComparable: 0 };
  const logs: number[] = [];
  for (const change of changes) {
    if (!change.before || !change.after) continue;
    if (change.noise === 'not-comparable') overall.notComparable += 1;
    else if (change.noise === 'no-interval') overall.noInterval += 1;
    else if (change.noise === 'within') overall.unchanged += 1;
    else if ((change.ratioChange ?? 1) > 1) overall.improved += 1;
    else overall.regressed += 1;
    if (change.after.read && change.ratioChange !== undefined && change.ratioChange > 0)
      logs.push(Math.log(change.ratioChange));
  }
  const mean = meanInterval(logs, OVERALL_LEVEL);
  if (mean) {
    overall.geomean = {
      change: Math.exp(mean.mean),
      low: Math.exp(mean.low),
      high: Math.exp(mean.high),
      rows: logs.length,
    };
  }
  return overall;
}

const NOISE_ORDER: readonly Noise[] = ['beyond', 'within', 'no-interval', 'not-comparable'];

/** What changed from run `before` to run `after`, row by row, and overall. */
export function diffRuns(before: CompareRun, after: CompareRun): RunComparison {
  const beforeRows = new Map(before.rows.map((row) => [row.id, row]));
  const afterRows = new Map(after.rows.map((row) => [row.id, row]));
  const ids = [...new Set([...after.rows.map((row) => row.id), ...before.rows.map((row) => row.id)])];
  const changes = ids.map((rowId): RowChange => {
    const was = beforeRows.get(rowId);
    const now = afterRows.get(rowId);
    const identity = (now ?? was) as CompareRow;
    const interval = was && now ? changeInterval(was, now) : undefined;
    const change: RowChange = {
      rowId,
      title: identity.title,
      group: identity.group,
      kind: !was ? 'added' : !now ? 'removed' : was.verdict !== now.verdict ? 'flipped' : 'same',
      noise: noiseOf(was, now, interval),
    };
    if (was) change.before = was;
    if (now) change.after = now;
    if (was?.ratio !== undefined && now?.ratio !== undefined && was.ratio > 0) {
      change.ratioChange = now.ratio / was.ratio;
    }
    if (interval) change.interval = interval;
    return change;
  });
  // Stable sort: kind, then a new LOSE before other flips, then flips beyond noise before those
  // within it, then group order; ties keep scorecard order.
  const newLose = (change: RowChange) =>
    change.kind === 'flipped' && change.after?.verdict === 'LOSE' ? 0 : 1;
  const noiseRank = (change: RowChange) =>
    change.kind === 'flipped' ? NOISE_ORDER.indexOf(change.noise) : 0;
  changes.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      newLose(a) - newLose(b) ||
      noiseRank(a) - noiseRank(b) ||
      GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group),
  );
  const counts: Record<ChangeKind, number> = { flipped: 0, added: 0, removed: 0, same: 0 };
  for (const change of changes) counts[change.kind] += 1;
  return { before, after, changes, counts, overall: overallChange(changes) };
}

/** "improves by 3.2%", "degrades by 4.1%", "no change", for the overall line. */
export function changeInWords(change: number): string {
  const percent = Math.abs(change - 1) * 100;
  if (percent < 0.05) return 'no change';
  const amount = percent >= 9.95 ? `${percent.toFixed(0)}%` : `${percent.toFixed(1)}%`;
  return change > 1 ? `improves by ${amount}` : `degrades by ${amount}`;
}
