import { readFile } from 'node:fs/promises';
import { setCoverage } from '../scorecard/build.js';
import { coverageAgainst } from '../scorecard/coverage.js';
import type { Scorecard } from '../scorecard/schema.js';
import { findScorecards, historyPath, withHistory } from './db.js';
import { FLAKY_WINDOW, markFlaky } from './flaky.js';
import { publishedRuns } from './published.js';
import { previousComparableRun, recentComparableRuns } from './recent.js';

/**
 * Recompute every published scorecard's history figures (flaky marks, coverage) from the history
 * as the committed files rebuild it, and list where they differ from what the card published.
 * Cards of schema 1 were annotated under the older rules (any local run, flips across commits):
 * they are counted, not checked.
 */
export async function verifyHistory(
  outDir: string,
): Promise<{ checked: number; older: number; problems: string[] }> {
  const published = publishedRuns(outDir);
  const problems: string[] = [];
  let checked = 0;
  let older = 0;
  await withHistory(historyPath(outDir), async (conn) => {
    for (const file of await findScorecards(outDir)) {
      const card = JSON.parse(await readFile(file, 'utf8')) as Scorecard;
      if (!published(card.runId)) continue;
      if (card.schemaVersion < 2) {
        older++;
        continue;
      }
      checked++;
      const again = structuredClone(card);
      delete again.coverage;
      markFlaky(again.rows, await recentComparableRuns(conn, again, FLAKY_WINDOW, published));
      if (again.status === 'complete') {
        const previous = await previousComparableRun(conn, again, published);
        if (previous) setCoverage(again, coverageAgainst(again, previous));
      }
      const said = JSON.stringify(card.coverage ?? null);
      const now = JSON.stringify(again.coverage ?? null);
      if (said !== now) problems.push(`${card.runId}: coverage published ${said}, recomputed ${now}`);
      for (const [i, row] of card.rows.entries()) {
        const a = JSON.stringify(row.flaky ?? null);
        const b = JSON.stringify(again.rows[i]?.flaky ?? null);
        if (a !== b) problems.push(`${card.runId} ${row.id}: flaky published ${a}, recomputed ${b}`);
      }
    }
  });
  return { checked, older, problems };
}
