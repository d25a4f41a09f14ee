/**
 * Pure preparation of the run-level pages: the list of runs, the verdict heatmap (rows × runs)
 * and the comparison of two runs. No I/O; unit-tested with the fixture scorecards.
 */

import type { RowGroup, RowResult, Scorecard, Verdict } from './definitions';
import { engineName } from './format';
import { compareRuns, countVerdicts, GROUP_ORDER, groupRows } from './prepare';

export interface RunSummary {
  runId: string;
  createdAt: string;
  status: Scorecard['status'];
  gitRevision: string;
  candidate: string;
  baseline: string;
  corpus: string;
  docs: number;
  /** Counts recomputed from the rows, like the home page. */
  counts: Record<Verdict, number>;
  /** The run before this one, for its comparison link; absent for the first run. */
  previousRunId?: string;
}

/** Every run, newest first, each knowing its predecessor. */
export function summarizeRuns(scorecards: readonly Scorecard[]): RunSummary[] {
  const ordered = [...scorecards].sort(compareRuns);
  return ordered
    .map((card, index): RunSummary => {
      const { manifest } = card;
      const summary: RunSummary = {
        runId: card.runId,
        createdAt: card.createdAt,
        status: card.status,
        gitRevision: manifest.gitRevision,
        candidate: engineName(manifest.candidate),
        baseline: engineName(manifest.baseline),
        corpus: manifest.corpus.name,
        docs: manifest.corpus.docs,
        counts: countVerdicts(card.rows),
      };
      const previous = ordered[index - 1];
      if (previous) summary.previousRunId = previous.runId;
      return summary;
    })
    .reverse();
}

/** Each run paired with its predecessor, oldest pair first: the comparisons the site pre-renders. */
export function consecutivePairs(
  scorecards: readonly Scorecard[],
): { before: Scorecard; after: Scorecard }[] {
  const ordered = [...scorecards].sort(compareRuns);
  return ordered.slice(1).map((after, index) => ({ before: ordered[index] as Scorecard, after }));
}

export interface HeatmapCell {
  runId: string;
  /** Absent when the run did not measure the row. */
  verdict?: Verdict;
  reason?: string;
  /** The row's previous measured verdict, set only when this one differs from it. */
  changedFrom?: Verdict;
}

export interface HeatmapRow {
  rowId: string;
  title: string;
  group: RowGroup;
  cells: HeatmapCell[];
  /** How many times the verdict changed across the shown runs. */
  changes: number;
}

export interface Heatmap {
  /** Oldest first, at most `limit` of the newest runs. */
  runs: { runId: string; createdAt: string }[];
  /** Runs left out because of the limit. */
  omitted: number;
  sections: { group: RowGroup; label: string; rows: HeatmapRow[] }[];
}

/**
 * Verdict of every row in every run (the newest `limit` runs), with the cells where a row's
 * verdict changed from its previous measured one marked, so a reader sees where things moved.
 */
export function verdictHeatmap(scorecards: readonly Scorecard[], limit = 30): Heatmap {
  const ordered = [...scorecards].sort(compareRuns);
  const shown = ordered.slice(-limit);
  // Row identity (title, group) from its newest result; the order is the newest run's, via groupRows.
  const newest = new Map<string, RowResult>();
  for (const card of shown) for (const row of card.rows) newest.set(row.id, row);
  const rows = [...shown]
    .reverse()
    .flatMap((card) => card.rows)
    .filter((row, index, all) => all.findIndex((other) => other.id === row.id) === index)
    .map((row) => newest.get(row.id) as RowResult);
  return {
    runs: shown.map((card) => ({ runId: card.runId, createdAt: card.createdAt })),
    omitted: ordered.length - shown.length,
    sections: groupRows(rows).map((section) => ({
      group: section.group,
      label: section.label,
      rows: section.rows.map((row) => heatmapRow(row, shown)),
    })),
  };
}

function heatmapRow(row: RowResult, runs: readonly Scorecard[]): HeatmapRow {
  let previous: Verdict | undefined;
  let changes = 0;
  const cells = runs.map((card): HeatmapCell => {
    const result = card.rows.find((candidate) => candidate.id === row.id);
    if (!result) return { runId: card.runId };
    const cell: HeatmapCell = { runId: card.runId, verdict: result.verdict, reason: result.reason };
    if (previous !== undefined && previous !== result.verdict) {
      cell.changedFrom = previous;
      changes += 1;
    }
    previous = result.verdict;
    return cell;
  });
  return { rowId: row.id, title: row.title, group: row.group, cells, changes };
}

export type ChangeKind = 'flipped' | 'added' | 'removed' | 'same';

export interface RowChange {
  rowId: string;
  title: string;
  group: RowGroup;
  kind: ChangeKind;
  before?: RowResult;
  after?: RowResult;
  /** after.ratio / before.ratio when both runs have a ratio: > 1 means the candidate improved. */
  ratioChange?: number;
}

export interface RunComparison {
  before: Scorecard;
  after: Scorecard;
  /** Flipped verdicts first (new LOSEs before the rest), then added, removed and unchanged rows. */
  changes: RowChange[];
  counts: Record<ChangeKind, number>;
}

const KIND_ORDER: readonly ChangeKind[] = ['flipped', 'added', 'removed', 'same'];

/** What changed from run `before` to run `after`, row by row. */
export function compareScorecards(before: Scorecard, after: Scorecard): RunComparison {
  const beforeRows = new Map(before.rows.map((row) => [row.id, row]));
  const afterRows = new Map(after.rows.map((row) => [row.id, row]));
  const ids = [...new Set([...after.rows.map((row) => row.id), ...before.rows.map((row) => row.id)])];
  const changes = ids.map((rowId): RowChange => {
    const was = beforeRows.get(rowId);
    const now = afterRows.get(rowId);
    const identity = (now ?? was) as RowResult;
    const change: RowChange = {
      rowId,
      title: identity.title,
      group: identity.group,
      kind: !was ? 'added' : !now ? 'removed' : was.verdict !== now.verdict ? 'flipped' : 'same',
    };
    if (was) change.before = was;
    if (now) change.after = now;
    if (was?.ratio !== undefined && now?.ratio !== undefined && was.ratio > 0) {
      change.ratioChange = now.ratio / was.ratio;
    }
    return change;
  });
  // Stable sort: kind, then a new LOSE before other flips, then group order; ties keep scorecard order.
  const newLose = (change: RowChange) =>
    change.kind === 'flipped' && change.after?.verdict === 'LOSE' ? 0 : 1;
  changes.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      newLose(a) - newLose(b) ||
      GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group),
  );
  const counts: Record<ChangeKind, number> = { flipped: 0, added: 0, removed: 0, same: 0 };
  for (const change of changes) counts[change.kind] += 1;
  return { before, after, changes, counts };
}
