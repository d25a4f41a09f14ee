/**
 * Pure preparation of the run-level pages: the list of runs, the verdict heatmap (rows × runs)
 * and the comparison of two runs. No I/O; unit-tested with the fixture scorecards.
 */

import type { RowGroup, RowResult, Scorecard, Verdict } from './definitions';
import { engineName } from './format';
import { compareRuns, countVerdicts, groupRows } from './prepare';
import { previousInSet, type RunSet, runSets, setOfRun } from './sets';

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
  /** The comparable set's slug. */
  set: string;
  /** The run before this one in its comparable set, for its comparison link; absent for the set's first run. */
  previousRunId?: string;
}

/** Every run, newest first, each knowing its predecessor in its own comparable set. */
export function summarizeRuns(
  scorecards: readonly Scorecard[],
  sets: readonly RunSet[] = runSets(scorecards),
): RunSummary[] {
  const ordered = [...scorecards].sort(compareRuns);
  return ordered
    .map((card): RunSummary => {
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
        set: setOfRun(sets, card.runId)?.slug ?? '',
      };
      const previous = previousInSet(sets, card.runId);
      if (previous) summary.previousRunId = previous.runId;
      return summary;
    })
    .reverse();
}

/** Each run paired with its predecessor, oldest pair first (callers pass one comparable set's runs). */
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
  runs: { runId: string; createdAt: string; gitRevision: string }[];
  /** Runs left out because of the limit. */
  omitted: number;
  sections: { group: RowGroup; label: string; rows: HeatmapRow[] }[];
}

/**
 * Verdict of every row in every run (the newest `limit` runs of one comparable set), with the
 * cells where a row's verdict changed from its previous measured one marked, so a reader sees
 * where things moved. Cells carry no reasons: the row page has them, and the page stays light.
 */
export function verdictHeatmap(scorecards: readonly Scorecard[], limit = 12): Heatmap {
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
    runs: shown.map((card) => ({
      runId: card.runId,
      createdAt: card.createdAt,
      gitRevision: card.manifest.gitRevision,
    })),
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
    const cell: HeatmapCell = { runId: card.runId, verdict: result.verdict };
    if (previous !== undefined && previous !== result.verdict) {
      cell.changedFrom = previous;
      changes += 1;
    }
    previous = result.verdict;
    return cell;
  });
  return { rowId: row.id, title: row.title, group: row.group, cells, changes };
}

/** The heatmap as the page sends it to the browser: one character per cell ("W", "L", "T", "N", "."). */
export interface CompactHeatmap {
  runs: { runId: string; day: string; commit: string }[];
  omitted: number;
  sections: { label: string; rows: { id: string; cells: string; changes: number }[] }[];
}

const CODE: Record<Verdict, string> = { WIN: 'W', LOSE: 'L', TIE: 'T', 'N/A': 'N' };
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function compactHeatmap(heatmap: Heatmap): CompactHeatmap {
  return {
    runs: heatmap.runs.map((run) => ({
      runId: run.runId,
      day: shortDay.format(new Date(run.createdAt)),
      commit: run.gitRevision.slice(0, 7),
    })),
    omitted: heatmap.omitted,
    sections: heatmap.sections.map((section) => ({
      label: section.label,
      rows: section.rows.map((row) => ({
        id: row.rowId,
        cells: row.cells.map((cell) => (cell.verdict ? CODE[cell.verdict] : '.')).join(''),
        changes: row.changes,
      })),
    })),
  };
}
