import { setCoverage } from '../scorecard/build.js';
import { coverageAgainst } from '../scorecard/coverage.js';
import type { Scorecard } from '../scorecard/schema.js';
import { historyPath, withHistory } from './db.js';
import { FLAKY_WINDOW, markFlaky } from './flaky.js';
import { previousComparableRun, recentComparableRuns } from './recent.js';

/**
 * Before a run's scorecard is written: mark rows whose verdict flipped across recent comparable
 * runs, and compare coverage with the previous comparable complete run (exit 3 when it fell).
 * A history that cannot be read costs these annotations, never the scorecard: returns why.
 */
export async function annotateFromHistory(outDir: string, card: Scorecard): Promise<string | undefined> {
  try {
    await withHistory(historyPath(outDir), async (conn) => {
      markFlaky(card.rows, await recentComparableRuns(conn, card, FLAKY_WINDOW));
      // Only a complete run can lose coverage: a failed one already exits 2 and says why.
      if (card.status !== 'complete') return;
      const previous = await previousComparableRun(conn, card);
      if (previous) setCoverage(card, coverageAgainst(card, previous));
    });
    return undefined;
  } catch (error) {
    return `history not read (${(error as Error).message.split('\n')[0]}): no flakiness or coverage check`;
  }
}
