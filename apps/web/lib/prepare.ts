/**
 * Pure data preparation: from parsed scorecards to what the pages render. No I/O here, so
 * every function is unit-tested with plain objects.
 */

import type {
  RowGroup,
  RowGroupSection,
  RowResult,
  RowTrend,
  Scorecard,
  TrendPoint,
  Verdict,
} from './definitions';
import { intervalLevel } from './interval';

/** Table order: the order a reader meets the workload (write, then read, then the rest). */
export const GROUP_ORDER: readonly RowGroup[] = [
  'ingest',
  'query',
  'metric',
  'bucket',
  'pipeline',
  'feature',
  'mixed',
  'knn',
  'throughput',
  'disk',
  'memory',
];

const GROUP_LABEL: Record<RowGroup, string> = {
  ingest: 'Ingest',
  query: 'Queries',
  metric: 'Metric aggregations',
  bucket: 'Bucket aggregations',
  pipeline: 'Pipeline aggregations',
  feature: 'Search features',
  mixed: 'Mixed workload',
  knn: 'Vector search (kNN)',
  throughput: 'Latency at target throughput',
  disk: 'Disk footprint',
  memory: 'Memory footprint',
};

export const VERDICT_ORDER: readonly Verdict[] = ['WIN', 'LOSE', 'TIE', 'N/A'];

/** Groups rows in GROUP_ORDER, keeping the scorecard's order inside a group; empty groups are dropped. */
export function groupRows(rows: readonly RowResult[]): RowGroupSection[] {
  return groupBy(rows);
}

/** groupRows for any row shape that names its group (the table's rows, the grid's cells). */
export function groupBy<T extends { group: RowGroup }>(
  rows: readonly T[],
): { group: RowGroup; label: string; rows: T[] }[] {
  return GROUP_ORDER.map((group) => ({
    group,
    label: GROUP_LABEL[group],
    rows: rows.filter((row) => row.group === group),
  })).filter((section) => section.rows.length > 0);
}

/** The newest run by createdAt; the run id breaks ties so the choice is stable. */
export function latestScorecard(scorecards: readonly Scorecard[]): Scorecard | undefined {
  return [...scorecards].sort(compareRuns).at(-1);
}

/** Oldest first. */
export function compareRuns(
  a: Pick<Scorecard, 'createdAt' | 'runId'>,
  b: Pick<Scorecard, 'createdAt' | 'runId'>,
) {
  const byTime = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  return byTime !== 0 ? byTime : a.runId.localeCompare(b.runId);
}

/** Counts recomputed from the rows: the page shows these, and says so if the file disagrees. */
export function countVerdicts(rows: readonly RowResult[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { WIN: 0, LOSE: 0, TIE: 0, 'N/A': 0 };
  for (const row of rows) counts[row.verdict] += 1;
  return counts;
}

export function countsAgree(a: Record<Verdict, number>, b: Record<Verdict, number>): boolean {
  return VERDICT_ORDER.every((verdict) => a[verdict] === b[verdict]);
}

/** The number a row is scored on for one engine: p99 for read-under-write rows, p50 for other latency rows, else the value. */
export function scoredValue(row: RowResult, side: 'candidate' | 'baseline'): number | undefined {
  const measured = row[side];
  if (!measured.supported) return undefined;
  if (row.unit === 'ms') return row.group === 'mixed' ? measured.p99 : measured.p50;
  return measured.value;
}

/**
 * A row's trend from the scorecard files of one comparable set (callers pass the set's runs).
 * Runs without the row are skipped; the result is oldest first.
 */
export function trendFromScorecards(scorecards: readonly Scorecard[], rowId: string): RowTrend | undefined {
  const points: TrendPoint[] = [];
  let title: string | undefined;
  for (const scorecard of [...scorecards].sort(compareRuns)) {
    const row = scorecard.rows.find((candidate) => candidate.id === rowId);
    if (!row) continue;
    title = row.title;
    const point: TrendPoint = {
      runId: scorecard.runId,
      createdAt: scorecard.createdAt,
      gitRevision: scorecard.manifest.gitRevision,
      verdict: row.verdict,
      ratio: row.ratio,
      ciLow: row.ci?.[0],
      ciHigh: row.ci?.[1],
      reason: row.reason,
    };
    const level = intervalLevel(row, scorecard.manifest.settings);
    if (level !== undefined) point.level = level;
    const candidate = scoredValue(row, 'candidate');
    const baseline = scoredValue(row, 'baseline');
    if (candidate !== undefined) point.candidate = candidate;
    if (baseline !== undefined) point.baseline = baseline;
    points.push(point);
  }
  if (title === undefined) return undefined;
  return { rowId, title, points };
}

/** Every row id seen in any run, latest run's order first, then ids only older runs have. */
export function allRowIds(scorecards: readonly Scorecard[]): string[] {
  const ids = new Set<string>();
  for (const scorecard of [...scorecards].sort(compareRuns).reverse()) {
    for (const row of scorecard.rows) ids.add(row.id);
  }
  return [...ids];
}

/** The newest result of a row in any run (a row may be absent from the latest run). */
export function latestRowResult(scorecards: readonly Scorecard[], rowId: string): RowResult | undefined {
  return latestRowWithRun(scorecards, rowId)?.row;
}

/** The newest result of a row together with the run it comes from (for its floor, date and files). */
export function latestRowWithRun(
  scorecards: readonly Scorecard[],
  rowId: string,
): { row: RowResult; scorecard: Scorecard } | undefined {
  for (const scorecard of [...scorecards].sort(compareRuns).reverse()) {
    const row = scorecard.rows.find((candidate) => candidate.id === rowId);
    if (row) return { row, scorecard };
  }
  return undefined;
}
