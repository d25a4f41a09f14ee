import { byChangeSize } from '../workcount/compare.js';
import type { CountComparison, RowCountChange } from '../workcount/types.js';
import { isExpired, type Waiver } from './waivers.js';

/**
 * The count check in the gate: each read row's instructions per request on this build against the
 * merge-base build (workcount/). A row that grew by the threshold or more fails the gate (exit 4)
 * unless a `count` waiver covers it; rows that shrank as much are listed as improvements. The
 * wall-clock head-to-head against the baseline stays the verdict; this is the regression check.
 */
export interface CountRow extends RowCountChange {
  /** A `count` waiver naming the row (expired ones included: the summary says so). */
  waiver?: Waiver;
  /** Grew past the threshold with no unexpired waiver: fails the gate. */
  failing: boolean;
}

export interface CountResult {
  comparison: CountComparison;
  /** Rows that grew past the threshold, failing ones first, then by size. */
  regressions: CountRow[];
  /** Rows that shrank past the threshold, largest first. */
  improvements: CountRow[];
  /** Every row whose count changed at all, largest change first (either way). */
  moved: CountRow[];
  /** Rows that could not be compared (a build answered differently). */
  notCompared: CountRow[];
}

export function judgeCounts(
  comparison: CountComparison,
  waivers: readonly Waiver[],
  today: string,
): CountResult {
  const byRow = new Map(waivers.filter((w) => w.kind === 'count').map((w) => [w.row, w]));
  const judged = (r: RowCountChange): CountRow => {
    const waiver = r.verdict === 'REGRESSED' ? byRow.get(r.row) : undefined;
    const live = waiver !== undefined && !isExpired(waiver, today);
    return { ...r, ...(waiver ? { waiver } : {}), failing: r.verdict === 'REGRESSED' && !live };
  };
  const rows = comparison.rows.map(judged);
  const size = (r: CountRow) => Math.abs(r.change ?? 0);
  return {
    comparison,
    regressions: rows
      .filter((r) => r.verdict === 'REGRESSED')
      .sort((a, b) => Number(b.failing) - Number(a.failing) || size(b) - size(a)),
    improvements: rows.filter((r) => r.verdict === 'IMPROVED').sort((a, b) => size(b) - size(a)),
    moved: byChangeSize(rows) as CountRow[],
    notCompared: rows.filter((r) => r.verdict === 'N/A'),
  };
}
