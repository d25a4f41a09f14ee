/**
 * Writes a DuckDB history for test scorecards with the harness's HISTORY_DDL, one `runs` row
 * per scorecard and one `rows` row per scorecard row. Used only when the harness's own
 * `history rebuild` command is not available, and by the data-layer unit tests.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { HISTORY_DDL, HISTORY_SCHEMA_VERSION } from '@everycell/harness/schema';
import type { Scorecard } from '../lib/definitions';

export async function writeHistory(path: string, scorecards: readonly Scorecard[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    await connection.run(HISTORY_DDL);
    await connection.run('INSERT OR REPLACE INTO meta VALUES ($key, $value)', {
      key: 'schema_version',
      value: String(HISTORY_SCHEMA_VERSION),
    });
    for (const card of scorecards) {
      const { manifest, counts } = card;
      await connection.run(
        `INSERT OR REPLACE INTO runs VALUES ($run_id, CAST($created_at AS TIMESTAMP), $status, $git, $corpus,
           $docs, $candidate, $baseline, $wins, $loses, $ties, $na, $exit_code, $scorecard)`,
        {
          run_id: card.runId,
          // TIMESTAMP has no zone: store the UTC wall time, as the ISO string's 'Z' says.
          created_at: card.createdAt.replace('T', ' ').replace('Z', ''),
          status: card.status,
          git: manifest.gitRevision,
          corpus: manifest.corpus.name,
          docs: manifest.corpus.docs,
          candidate: `${manifest.candidate.product} ${manifest.candidate.version}`,
          baseline: `${manifest.baseline.product} ${manifest.baseline.version}`,
          wins: counts.WIN,
          loses: counts.LOSE,
          ties: counts.TIE,
          na: counts['N/A'],
          exit_code: card.exitCode,
          scorecard: JSON.stringify(card),
        },
      );
      for (const row of card.rows) {
        await connection.run(
          `INSERT OR REPLACE INTO rows VALUES ($run_id, $row_id, $grp, $family, $title, $unit, $verdict,
             $ratio, $ci_low, $ci_high, $c_p50, $c_p99, $b_p50, $b_p99, $c_value, $b_value, $reason)`,
          {
            run_id: card.runId,
            row_id: row.id,
            grp: row.group,
            family: row.family,
            title: row.title,
            unit: row.unit,
            verdict: row.verdict,
            ratio: row.ratio ?? null,
            ci_low: row.ci?.[0] ?? null,
            ci_high: row.ci?.[1] ?? null,
            c_p50: row.candidate.p50 ?? null,
            c_p99: row.candidate.p99 ?? null,
            b_p50: row.baseline.p50 ?? null,
            b_p99: row.baseline.p99 ?? null,
            c_value: row.candidate.value ?? null,
            b_value: row.baseline.value ?? null,
            reason: row.reason,
          },
        );
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
