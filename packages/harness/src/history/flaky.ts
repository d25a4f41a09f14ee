import type { RowResult } from '../scorecard/schema.js';
import type { PastVerdicts } from './recent.js';

/** How many past runs (besides this one) flakiness looks back over. */
export const FLAKY_WINDOW = 9;

/**
 * Verdict flips per row over this run and its repeat runs (same commit, same comparable set; newest
 * first): each time a
 * row's verdict differs from its verdict in the run before, that is a flip. Runs without the
 * row are skipped, not counted as a change. Sets `row.flaky` only where a flip happened.
 */
export function markFlaky(rows: RowResult[], past: readonly PastVerdicts[]): void {
  for (const row of rows) {
    // Oldest to newest, ending with this run.
    const sequence = [
      ...past
        .map((p) => p.verdicts.get(row.id))
        .filter((v) => v !== undefined)
        .reverse(),
      row.verdict,
    ];
    let flips = 0;
    for (let i = 1; i < sequence.length; i++) if (sequence[i] !== sequence[i - 1]) flips++;
    if (flips > 0) row.flaky = { flips, runs: sequence.length };
    else delete row.flaky;
  }
}
