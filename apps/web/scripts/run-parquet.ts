/**
 * Each run's history tables as Parquet, for its downloads: the harness writes them with DuckDB
 * (already the harness's dependency; it runs here in the build script, never in the Next bundle)
 * into `<dir>/<run-id>/`, from the scorecard as the site publishes it (no build machine's paths).
 * The site build points EVERYCELL_RUN_PARQUET at `<dir>` (lib/data.ts runParquetFiles).
 *
 * The harness inserts a run row by row (about half a second a run here), so the files are kept in
 * a cache keyed by the published scorecard and the harness's history code: a build writes only
 * the runs it has not seen, and a thousand-run site rebuilds without a thousand exports.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { join } from 'node:path';
import { exportRunParquet } from '@everycell/harness/parquet';
import type { Scorecard as CurrentScorecard } from '@everycell/harness/schema';
import type { Scorecard } from '../lib/definitions';
import { publishedScorecard } from '../lib/publish';
import { repoDir } from './paths';

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

/** The harness code that shapes the files: a change to it is a new cache. */
const HISTORY_SOURCES = [
  'packages/harness/src/history/db.ts',
  'packages/harness/src/history/distributions.ts',
  'packages/harness/src/history/parquet.ts',
  'packages/harness/src/scorecard/schema.ts',
];

let historyHash: string | undefined;
function historyCodeHash(): string {
  historyHash ??= createHash('sha256')
    .update(HISTORY_SOURCES.map((file) => readFileSync(join(repoDir, file), 'utf8')).join('\0'))
    .digest('hex');
  return historyHash;
}

/** A run's cache key: its published scorecard's text and the harness's history code. */
export function parquetKey(publishedJson: string): string {
  return createHash('sha256')
    .update(historyCodeHash())
    .update('\0')
    .update(publishedJson)
    .digest('hex')
    .slice(0, 32);
}

/**
 * Copies a run's Parquet files into `target`, exporting them into the cache first when it lacks
 * them. `card` is read only on a miss. Returns whether the cache had them.
 */
export async function cachedRunParquet(
  publishedJson: string,
  card: () => Scorecard,
  cacheDir: string,
  target: string,
): Promise<'hit' | 'miss'> {
  const entry = join(cacheDir, parquetKey(publishedJson));
  const hit = existsSync(entry);
  if (!hit) {
    const scratch = `${entry}.tmp-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    const published = card();
    await writeRunParquet([published], scratch);
    // Written whole, then moved into place: an interrupted build leaves no half entry behind.
    renameSync(join(scratch, published.runId), entry);
    rmSync(scratch, { recursive: true, force: true });
  }
  // Marked as used, so the cache keeps it (pruneParquetCache).
  const now = new Date();
  utimesSync(entry, now, now);
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync(entry)) copyFileSync(join(entry, file), join(target, file));
  return hit ? 'hit' : 'miss';
}

/** How long an entry no build used stays: builds of other scorecard folders (the fixtures) share the cache. */
const KEEP_UNUSED_MS = 14 * 86_400_000;

/** Drops cache entries no build used for two weeks, so the cache stays near the size of the sites built. */
export function pruneParquetCache(cacheDir: string, now = Date.now()): number {
  if (!existsSync(cacheDir)) return 0;
  let removed = 0;
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (now - statSync(path).mtimeMs < KEEP_UNUSED_MS) continue;
    rmSync(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
