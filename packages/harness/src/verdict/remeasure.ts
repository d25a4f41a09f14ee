import type { RowResult } from '../scorecard/schema.js';
import { roundSplit } from './decide.js';

/**
 * Whether a read row's interval is too wide to decide: it straddles one of the two verdict
 * thresholds (1 + margin for WIN, 1 / (1 + margin) for LOSE), so more rounds could move the
 * verdict. A decisive interval lies wholly beyond a threshold with a strict majority of the
 * paired rounds on its side (a clear WIN or LOSE) or wholly inside the tie band (a clear TIE).
 * Symmetric by construction: a would-be WIN on a wide interval is re-measured exactly as a
 * would-be LOSE is.
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
  // An interval beyond a threshold that most paired rounds contradict is not decisive either:
  // more rounds settle which of the two is the outlier.
  const split = roundSplit(row.forkRatios ?? row.roundRatios);
  const decisive =
    (low > winAt && split.agrees('candidate')) ||
    (high < loseAt && split.agrees('baseline')) ||
    (low >= loseAt && high <= winAt);
  return !decisive;
}
