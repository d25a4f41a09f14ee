import type { BuildCount, CountComparison, RowCountChange } from './types.js';

/**
 * A row whose instructions per request changed by this much or more has moved: more is a
 * regression (it fails the gate unless waived), fewer an improvement (listed). Two runs of one
 * build count identically (determinism.rs), so any change is the build's.
 */
export const COUNT_THRESHOLD = 0.03;

const perRequestBytes = (r: BuildCount['rows'][number]) =>
  Math.round((r.replyBytes ?? 0) / Math.max(1, r.requests)).toLocaleString('en-US');
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;

/** One row: its change and verdict, or N/A with why it cannot be compared. */
export function compareRow(
  row: string,
  base: BuildCount['rows'][number] | undefined,
  head: BuildCount['rows'][number] | undefined,
  threshold: number,
): RowCountChange {
  if (!base || !head)
    return {
      row,
      verdict: 'N/A',
      reason: `not counted on the ${base ? 'pull request' : 'merge-base'} build`,
    };
  if (base.requests !== head.requests || base.ok !== head.ok)
    return {
      row,
      base: base.instructionsPerRequest,
      head: head.instructionsPerRequest,
      verdict: 'N/A',
      reason: `the builds answered differently: ${head.ok} of ${head.requests} requests ok against ${base.ok} of ${base.requests} on the merge base${head.firstError ? ` (${head.firstError.slice(0, 160)})` : ''}`,
    };
  // Counts of different work say nothing about speed: a build that cannot read what the other
  // wrote (a stored field of another type, say) answers less and does less. Older count files
  // carry no reply sizes.
  if (base.replyBytes !== undefined && head.replyBytes !== undefined && base.replyBytes !== head.replyBytes)
    return {
      row,
      base: base.instructionsPerRequest,
      head: head.instructionsPerRequest,
      verdict: 'N/A',
      reason: `the builds answered differently: ${perRequestBytes(head)} bytes of reply per request against ${perRequestBytes(base)} on the merge base`,
    };
  const change = head.instructionsPerRequest / base.instructionsPerRequest - 1;
  const figures = `${Math.round(head.instructionsPerRequest).toLocaleString('en-US')} against ${Math.round(base.instructionsPerRequest).toLocaleString('en-US')} instructions per request (${pct(change)})`;
  const verdict = change >= threshold ? 'REGRESSED' : change <= -threshold ? 'IMPROVED' : 'SAME';
  return {
    row,
    base: base.instructionsPerRequest,
    head: head.instructionsPerRequest,
    change,
    verdict,
    reason: figures,
  };
}

/** Every row of either build, in the head build's order (then rows only the base counted). */
export function compareCounts(
  base: BuildCount,
  head: BuildCount,
  context: Omit<CountComparison, 'rows' | 'threshold'>,
  threshold = COUNT_THRESHOLD,
): CountComparison {
  const baseRows = new Map(base.rows.map((r) => [r.row, r]));
  const headRows = new Map(head.rows.map((r) => [r.row, r]));
  const ids = [...headRows.keys(), ...[...baseRows.keys()].filter((id) => !headRows.has(id))];
  return {
    ...context,
    threshold,
    rows: ids.map((id) => compareRow(id, baseRows.get(id), headRows.get(id), threshold)),
  };
}

/** Rows that changed at all, largest change first (either way). */
export const byChangeSize = (rows: readonly RowCountChange[]): RowCountChange[] =>
  rows
    .filter((r) => r.change !== undefined && r.change !== 0)
    .sort((a, b) => Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0));
