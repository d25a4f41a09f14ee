import { setCoverage } from '../scorecard/build.js';
import { coverageAgainst } from '../scorecard/coverage.js';
import type { Scorecard } from '../scorecard/schema.js';
import { historyPath, withHistory } from './db.js';
import { FLAKY_WINDOW, markFlaky } from './flaky.js';
import { publishedRuns } from './published.js';
import { type Published, previousComparableRun, recentComparableRuns } from './recent.js';

/**
 * Before a run's scorecard is written: mark rows whose verdict flipped across repeat runs of the
 * same commit, and compare coverage with the previous comparable complete run (exit 3 when it
 * fell), both from published (committed) runs only.
 * A history that cannot be read costs these annotations, never the scorecard: returns why.
 */
export async function annotateFromHistory(
  outDir: string,
  card: Scorecard,
  published: Published = publishedRuns(outDir),
): Promise<string | undefined> {
  try {
    await withHistory(historyPath(outDir), async (conn) => {
      markFlaky(card.rows, await recentComparableRuns(conn, card, FLAKY_WINDOW, published));
      // Only a complete run can lose coverage: a failed one already exits 2 and says why.
      if (card.status !== 'complete') return;
      const previous = await previousComparableRun(conn, card, published);
      if (previous) setCoverage(card, coverageAgainst(card, previous));
    });
    return undefined;
  } catch (error) {
    return `history not read (${(error as Error).message.split('\n')[0]}): no flakiness or coverage check`;
  }
}
