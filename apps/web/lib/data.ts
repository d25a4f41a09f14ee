/**
 * All of the site's data access, run at build time by server components.
 *
 * Scorecards come from `<dir>/<run-id>/scorecard.json`; a row's trend comes from the DuckDB
 * history `<dir>/history.duckdb` (rebuilt from those files by the harness) and falls back to
 * the JSON files only when the database is absent, saying so on the page.
 * `<dir>` is `../../scorecards` (the repository's) unless EVERYCELL_SCORECARDS names another.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { LatestRun, RowResult, RowTrend, Scorecard, TrendPoint, Verdict, Waiver } from './definitions';
import {
  allRowIds,
  groupRows,
  latestRowResult,
  latestRowWithRun,
  latestScorecard,
  trendFromScorecards,
  VERDICT_ORDER,
} from './prepare';
import {
  compareScorecards,
  consecutivePairs,
  type Heatmap,
  type RunComparison,
  type RunSummary,
  summarizeRuns,
  verdictHeatmap,
} from './runs';
import { ScorecardFileError, validateScorecard } from './validate-scorecard';
import { parseWaivers } from './waivers';

export function scorecardsDir(): string {
  return resolve(process.cwd(), process.env.EVERYCELL_SCORECARDS ?? '../../scorecards');
}

export function historyPath(): string {
  return join(scorecardsDir(), 'history.duckdb');
}

// Every page of a build reads the same files: parse them once per folder.
const scorecardsCache = new Map<string, Scorecard[]>();

/** Every run's scorecard, in no particular order. Bad files stop the build with the file named. */
export function readScorecards(): Scorecard[] {
  const dir = scorecardsDir();
  const cached = scorecardsCache.get(dir);
  if (cached) return cached;
  if (!existsSync(dir)) {
    throw new Error(`scorecards folder ${dir} does not exist: run a benchmark or set EVERYCELL_SCORECARDS`);
  }
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name, 'scorecard.json'))
    .filter((file) => existsSync(file));
  const scorecards = files.map(parseScorecardFile);
  scorecardsCache.set(dir, scorecards);
  return scorecards;
}

/**
 * Parses and validates one file; any problem stops the build with the file and the field named.
 * Files are named from the scorecards folder's parent ("scorecards/<run>/scorecard.json").
 */
function parseScorecardFile(file: string): Scorecard {
  const shown = relative(dirname(scorecardsDir()), file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ScorecardFileError(
      `${shown}: not valid JSON (${(error as Error).message}): re-run the benchmark or delete the run folder`,
    );
  }
  return validateScorecard(shown, parsed, basename(dirname(file)));
}

const waiversCache = new Map<string, Waiver[]>();

/** The gate waivers in `<dir>/waivers.json`; none when the file does not exist. */
export function getWaivers(): Waiver[] {
  const file = join(scorecardsDir(), 'waivers.json');
  const cached = waiversCache.get(file);
  if (cached) return cached;
  let waivers: Waiver[] = [];
  if (existsSync(file)) {
    const shown = relative(dirname(scorecardsDir()), file);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`${shown}: not valid JSON (${(error as Error).message})`);
    }
    waivers = parseWaivers(shown, raw);
  }
  waiversCache.set(file, waivers);
  return waivers;
}

export function getLatestRun(): LatestRun | undefined {
  const scorecard = latestScorecard(readScorecards());
  if (!scorecard) return undefined;
  return { scorecard, sections: groupRows(scorecard.rows) };
}

/** One run's scorecard by id, for its own page. */
export function getRun(runId: string): LatestRun | undefined {
  const scorecard = readScorecards().find((card) => card.runId === runId);
  if (!scorecard) return undefined;
  return { scorecard, sections: groupRows(scorecard.rows) };
}

/** Every run, newest first. */
export function getRunSummaries(): RunSummary[] {
  return summarizeRuns(readScorecards());
}

export function getHeatmap(): Heatmap {
  return verdictHeatmap(readScorecards());
}

/** The comparisons the site pre-renders: each run against its predecessor, as run-id pairs. */
export function getComparePairs(): { before: string; after: string }[] {
  return consecutivePairs(readScorecards()).map(({ before, after }) => ({
    before: before.runId,
    after: after.runId,
  }));
}

export function getComparison(before: string, after: string): RunComparison | undefined {
  const cards = readScorecards();
  const was = cards.find((card) => card.runId === before);
  const now = cards.find((card) => card.runId === after);
  return was && now ? compareScorecards(was, now) : undefined;
}

/** Row ids for the static row pages: every row any run measured. */
export function getRowIds(): string[] {
  return allRowIds(readScorecards());
}

export function getLatestRowResult(rowId: string): RowResult | undefined {
  return latestRowResult(readScorecards(), rowId);
}

export function getLatestRowWithRun(rowId: string): { row: RowResult; scorecard: Scorecard } | undefined {
  return latestRowWithRun(readScorecards(), rowId);
}

/** The row's ratio per run, oldest first, from the DuckDB history when it exists. */
export async function getRowTrend(rowId: string): Promise<RowTrend | undefined> {
  if (!existsSync(historyPath())) return trendFromScorecards(readScorecards(), rowId);
  return trendFromHistory(historyPath(), rowId);
}

async function trendFromHistory(path: string, rowId: string): Promise<RowTrend | undefined> {
  // Read-only, so the build's parallel page workers can open the file at the same time.
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT r.run_id, runs.created_at, r.title, r.verdict, r.ratio, r.ci_low, r.ci_high, r.reason
         FROM rows r JOIN runs USING (run_id)
        WHERE r.row_id = $row_id
        ORDER BY runs.created_at, r.run_id`,
      { row_id: rowId },
    );
    const records = reader.getRowObjectsJS();
    if (records.length === 0) return undefined;
    const points = records.map((record): TrendPoint => {
      const verdict = String(record.verdict);
      if (!(VERDICT_ORDER as readonly string[]).includes(verdict)) {
        throw new Error(
          `${path}: row ${rowId} of run ${String(record.run_id)} has unknown verdict "${verdict}"`,
        );
      }
      return {
        runId: String(record.run_id),
        createdAt: toIso(record.created_at),
        verdict: verdict as Verdict,
        ratio: optionalNumber(record.ratio),
        ciLow: optionalNumber(record.ci_low),
        ciHigh: optionalNumber(record.ci_high),
        reason: String(record.reason ?? ''),
      };
    });
    const title = String(records.at(-1)?.title ?? rowId);
    return { rowId, title, source: 'duckdb', points };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** DuckDB TIMESTAMP columns arrive as Date (no zone: the harness stores UTC). */
function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const date = new Date(`${String(value).replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

/** True when a run folder holds the file a row points at (diffPath is validated to stay inside it). */
export function runFileExists(runId: string, path: string): boolean {
  return existsSync(join(scorecardsDir(), runId, path));
}
