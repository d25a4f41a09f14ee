/**
 * All of the site's data access, run at build time by server components. It reads files only:
 * `<dir>/<run-id>/scorecard.json` for every run and `<dir>/waivers.json`; trends, heatmaps and
 * comparisons are prepared from those files by the pure functions in prepare.ts and runs.ts.
 * `<dir>` is `../../scorecards` (the repository's) unless EVERYCELL_SCORECARDS names another.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { readScorecardFile, ScorecardFileError } from '@everycell/harness/validate';
import { parseWaivers } from '@everycell/harness/waivers';
import type { LatestRun, RowResult, RowTrend, Scorecard, Waiver } from './definitions';
import {
  allRowIds,
  groupRows,
  latestRowResult,
  latestRowWithRun,
  latestScorecard,
  trendFromScorecards,
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

export function scorecardsDir(): string {
  return resolve(process.cwd(), process.env.EVERYCELL_SCORECARDS ?? '../../scorecards');
}

/** How files are named in messages: from the scorecards folder's parent ("scorecards/<run>/scorecard.json"). */
function shownFrom(dir: string): (file: string) => string {
  return (file) => relative(dirname(dir), file);
}

/** Every `<run>/scorecard.json` directly under the folder (scorecards/wordnet and ci hold their own runs). */
export function scorecardFiles(dir = scorecardsDir()): { file: string; folder: string }[] {
  if (!existsSync(dir)) {
    throw new Error(`scorecards folder ${dir} does not exist: run a benchmark or set EVERYCELL_SCORECARDS`);
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'scorecard.json')))
    .map((entry) => ({ file: join(dir, entry.name, 'scorecard.json'), folder: entry.name }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/**
 * Reads and checks every scorecard and the waivers file, collecting every problem (file and
 * field) instead of stopping at the first: the build prints them all before it compiles anything.
 */
export function loadAll(dir = scorecardsDir()): {
  scorecards: Scorecard[];
  waivers: Waiver[];
  problems: string[];
} {
  const shown = shownFrom(dir);
  const scorecards: Scorecard[] = [];
  const problems: string[] = [];
  for (const { file, folder } of scorecardFiles(dir)) {
    try {
      scorecards.push(readScorecardFile(file, shown(file), folder));
    } catch (error) {
      if (error instanceof ScorecardFileError) problems.push(...error.problems);
      else throw error;
    }
  }
  let waivers: Waiver[] = [];
  const waiversFile = join(dir, 'waivers.json');
  if (existsSync(waiversFile)) {
    try {
      waivers = parseWaivers(shown(waiversFile), JSON.parse(readFileSync(waiversFile, 'utf8')));
    } catch (error) {
      const message = (error as Error).message;
      problems.push(
        error instanceof SyntaxError ? `${shown(waiversFile)}: not valid JSON (${message})` : message,
      );
    }
  }
  return { scorecards, waivers, problems };
}

// Every page of a build reads the same files: read them once per folder.
const cache = new Map<string, { scorecards: Scorecard[]; waivers: Waiver[] }>();

function loaded(): { scorecards: Scorecard[]; waivers: Waiver[] } {
  const dir = scorecardsDir();
  const hit = cache.get(dir);
  if (hit) return hit;
  const { scorecards, waivers, problems } = loadAll(dir);
  if (problems.length > 0) throw new ScorecardFileError(problems);
  const value = { scorecards, waivers };
  cache.set(dir, value);
  return value;
}

/** Every run's scorecard, in no particular order. Bad files stop the build with every problem named. */
export function readScorecards(): Scorecard[] {
  return loaded().scorecards;
}

/** The gate waivers in `<dir>/waivers.json`; none when the file does not exist. */
export function getWaivers(): Waiver[] {
  return loaded().waivers;
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

/** The row's ratio per run, oldest first, from the scorecard files. */
export function getRowTrend(rowId: string): RowTrend | undefined {
  return trendFromScorecards(readScorecards(), rowId);
}

/** True when a run folder holds the file a row points at (diffPath is validated to stay inside it). */
export function runFileExists(runId: string, path: string): boolean {
  return existsSync(join(scorecardsDir(), runId, path));
}
