import type { RowResult } from '../scorecard/schema.js';

/**
 * Whether a read row's interval is too wide to decide: it straddles one of the two verdict
 * thresholds (1 + margin for WIN, 1 / (1 + margin) for LOSE), so more rounds could move the
 * verdict. A decisive interval lies wholly beyond a threshold (a clear WIN or LOSE) or wholly
 * inside the tie band (a clear TIE). Symmetric by construction: a would-be WIN on a wide
 * interval is re-measured exactly as a would-be LOSE is.
 *
 * Rows that more rounds cannot change are not re-measured: N/A, a collapsed side, and rows
 * below the harness's resolution.
 */
export function wantsMoreRounds(row: RowResult, tieMargin: number): boolean {
  if (row.verdict === 'N/A' || row.ci === undefined || row.ratio === undefined) return false;
  if (row.belowResolution || row.candidate.collapsed || row.baseline.collapsed) return false;
  const winAt = 1 + tieMargin;
  const loseAt = 1 / winAt;
  const [low, high] = row.ci;
  const decisive = low > winAt || high < loseAt || (low >= loseAt && high <= winAt);
  return !decisive;
}
