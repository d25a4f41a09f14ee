/**
 * Comparison of any two comparable runs. The site pre-renders each run against the previous run
 * of its set; any other pair is drawn in the browser from the two runs' compare.json, the few
 * fields the comparison shows. Pure; the same compareRows feeds both.
 */
import type { RowGroup, Scorecard, Verdict } from './definitions';
import { engineName } from './format';
import { GROUP_ORDER } from './prepare';

export interface CompareRow {
  id: string;
  title: string;
  group: RowGroup;
  verdict: Verdict;
  ratio?: number;
  reason: string;
}

export interface CompareRun {
  runId: string;
  createdAt: string;
  gitRevision: string;
  /** The comparable set's slug: two runs compare only when these are equal. */
  set: string;
  corpus: string;
  docs: number;
  baseline: string;
  rows: CompareRow[];
}

export function compareRows(card: Scorecard, set: string): CompareRun {
  return {
    runId: card.runId,
    createdAt: card.createdAt,
    gitRevision: card.manifest.gitRevision,
    set,
    corpus: card.manifest.corpus.name,
    docs: card.manifest.corpus.docs,
    baseline: engineName(card.manifest.baseline),
    rows: card.rows.map((row) => {
      const out: CompareRow = {
        id: row.id,
        title: row.title,
        group: row.group,
        verdict: row.verdict,
        reason: row.reason,
      };
      if (row.ratio !== undefined) out.ratio = row.ratio;
      return out;
    }),
  };
}

export type ChangeKind = 'flipped' | 'added' | 'removed' | 'same';

export interface RowChange {
  rowId: string;
  title: string;
  group: RowGroup;
  kind: ChangeKind;
  before?: CompareRow;
  after?: CompareRow;
  /** after.ratio / before.ratio when both runs have a ratio: > 1 means the candidate improved. */
  ratioChange?: number;
}

export interface RunComparison {
  before: CompareRun;
  after: CompareRun;
  /** Flipped verdicts first (new LOSEs before the rest), then added, removed and unchanged rows. */
  changes: RowChange[];
  counts: Record<ChangeKind, number>;
}

export const KIND_ORDER: readonly ChangeKind[] = ['flipped', 'added', 'removed', 'same'];

/** What changed from run `before` to run `after`, row by row. */
export function diffRuns(before: CompareRun, after: CompareRun): RunComparison {
  const beforeRows = new Map(before.rows.map((row) => [row.id, row]));
  const afterRows = new Map(after.rows.map((row) => [row.id, row]));
  const ids = [...new Set([...after.rows.map((row) => row.id), ...before.rows.map((row) => row.id)])];
  const changes = ids.map((rowId): RowChange => {
    const was = beforeRows.get(rowId);
    const now = afterRows.get(rowId);
    const identity = (now ?? was) as CompareRow;
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
