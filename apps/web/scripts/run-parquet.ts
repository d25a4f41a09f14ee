/**
 * Each run's history tables as Parquet, for its downloads: the harness writes them with DuckDB
 * (already the harness's dependency; it runs here in the build script, never in the Next bundle)
 * into `<dir>/<run-id>/`, from the scorecard as the site publishes it (no build machine's paths).
 * The site build points EVERYCELL_RUN_PARQUET at `<dir>` (lib/data.ts runParquetFiles).
 */
import { join } from 'node:path';
import { exportRunParquet } from '@everycell/harness/parquet';
import type { Scorecard as CurrentScorecard } from '@everycell/harness/schema';
import type { Scorecard } from '../lib/definitions';
import { publishedScorecard } from '../lib/publish';

export async function writeRunParquet(scorecards: readonly Scorecard[], dir: string): Promise<number> {
  for (const card of scorecards) {
    try {
      // A schema-1 card lacks only optional fields: the history stores it as it does a current one.
      await exportRunParquet(publishedScorecard(card) as CurrentScorecard, join(dir, card.runId));
    } catch (error) {
      throw new Error(`Parquet of run ${card.runId}: ${(error as Error).message}`);
    }
  }
  return scorecards.length;
}
