import type { DuckDBConnection } from '@duckdb/node-api';
import { comparableKey } from '../scorecard/comparable.js';
import type { Scorecard, Verdict } from '../scorecard/schema.js';

/** A past run reduced to what flakiness needs: its verdict per row id. */
export interface PastVerdicts {
  runId: string;
  verdicts: Map<string, Verdict>;
}

/**
 * Which past runs may be compared with at all: only published ones (committed scorecards). A
 * run that exists only in someone's local history must not decide a gate, a coverage or a
 * flaky figure that nobody else can reproduce from the repository.
 */
export type Published = (runId: string) => boolean;

/**
 * Repeat runs of `card`: the last `limit` complete published runs before it of the same commit
 * and the same comparable set (corpus, size, rows, baseline, machine), newest first. Flakiness
 * is a verdict that flips between such runs: the same code measured again. Across commits a
 * verdict may change because the code did, which is not flakiness.
 */
export async function recentComparableRuns(
  conn: DuckDBConnection,
  card: Scorecard,
  limit: number,
  published: Published,
): Promise<PastVerdicts[]> {
  const reader = await conn.runAndReadAll(
    `SELECT r.run_id, list(w.row_id ORDER BY w.row_id) AS ids, list(w.verdict ORDER BY w.row_id) AS verdicts
     FROM runs r JOIN rows w USING (run_id)
     WHERE r.status = 'complete' AND r.comparable_key = $1 AND r.git_revision = $2
       AND r.run_id <> $3 AND r.created_at <= CAST($4 AS TIMESTAMP)
     GROUP BY r.run_id, r.created_at ORDER BY r.created_at DESC, r.run_id DESC`,
    [comparableKey(card), card.manifest.gitRevision, card.runId, card.createdAt],
  );
  return reader
    .getRows()
    .filter(([runId]) => published(String(runId)))
    .slice(0, limit)
    .map(([runId, ids, verdicts]) => {
      const idList = (ids as { items: string[] }).items;
      const vList = (verdicts as { items: Verdict[] }).items;
      return { runId: String(runId), verdicts: new Map(idList.map((id, i) => [id, vList[i] as Verdict])) };
    });
}

/**
 * The latest complete published run before `card` in the same comparable set, read back from its
 * stored scorecard JSON: what coverage compares with. Candidate versions may differ: coverage is
 * about which rows the candidate answers, and a new candidate version is exactly what it checks.
 */
export async function previousComparableRun(
  conn: DuckDBConnection,
  card: Scorecard,
  published: Published,
): Promise<Scorecard | undefined> {
  const reader = await conn.runAndReadAll(
    `SELECT run_id, CAST(scorecard AS VARCHAR) FROM runs
     WHERE status = 'complete' AND comparable_key = $1 AND run_id <> $2
       AND created_at <= CAST($3 AS TIMESTAMP)
     ORDER BY created_at DESC, run_id DESC`,
    [comparableKey(card), card.runId, card.createdAt],
  );
  const row = reader.getRows().find(([runId]) => published(String(runId)));
  return row ? (JSON.parse(String(row[1])) as Scorecard) : undefined;
}
