import type { DuckDBConnection } from '@duckdb/node-api';
import { comparable } from '../scorecard/coverage.js';
import type { Scorecard, Verdict } from '../scorecard/schema.js';

/** A past run reduced to what flakiness needs: its verdict per row id. */
export interface PastVerdicts {
  runId: string;
  verdicts: Map<string, Verdict>;
}

/**
 * The last `limit` complete runs before `card` on the same corpus, size and engines (products
 * with versions), newest first. Failed and partial runs are left out: their verdicts are not a
 * clean measurement, so a flip into or out of one would be noise about the run, not the row.
 */
export async function recentComparableRuns(
  conn: DuckDBConnection,
  card: Scorecard,
  limit: number,
): Promise<PastVerdicts[]> {
  const m = card.manifest;
  const reader = await conn.runAndReadAll(
    `SELECT r.run_id, list(w.row_id ORDER BY w.row_id) AS ids, list(w.verdict ORDER BY w.row_id) AS verdicts
     FROM runs r JOIN rows w USING (run_id)
     WHERE r.status = 'complete' AND r.corpus = $1 AND r.docs = $2 AND r.candidate = $3 AND r.baseline = $4
       AND r.run_id <> $5 AND r.created_at <= CAST($6 AS TIMESTAMP)
     GROUP BY r.run_id, r.created_at ORDER BY r.created_at DESC, r.run_id DESC LIMIT $7`,
    [
      m.corpus.name,
      m.corpus.docs,
      m.candidate.product,
      m.baseline.product,
      card.runId,
      card.createdAt,
      limit,
    ],
  );
  return reader.getRows().map(([runId, ids, verdicts]) => {
    const idList = (ids as { items: string[] }).items;
    const vList = (verdicts as { items: Verdict[] }).items;
    return { runId: String(runId), verdicts: new Map(idList.map((id, i) => [id, vList[i] as Verdict])) };
  });
}

/**
 * The latest complete run before `card` that it can be compared with for coverage (same corpus,
 * size and row selection), read back from its stored scorecard JSON. Engines may differ: coverage
 * is about which rows the candidate answers, and a new candidate version is exactly what it checks.
 */
export async function previousComparableRun(
  conn: DuckDBConnection,
  card: Scorecard,
): Promise<Scorecard | undefined> {
  const m = card.manifest;
  const reader = await conn.runAndReadAll(
    `SELECT CAST(scorecard AS VARCHAR) FROM runs
     WHERE status = 'complete' AND corpus = $1 AND docs = $2 AND run_id <> $3
       AND created_at <= CAST($4 AS TIMESTAMP)
     ORDER BY created_at DESC, run_id DESC LIMIT 50`,
    [m.corpus.name, m.corpus.docs, card.runId, card.createdAt],
  );
  for (const [json] of reader.getRows()) {
    const past = JSON.parse(String(json)) as Scorecard;
    if (comparable(card, past)) return past;
  }
  return undefined;
}
