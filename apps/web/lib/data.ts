/**
 * All of the site's data access, run at build time by server components. It reads files only:
 * `<dir>/<run-id>/scorecard.json` for every run and `<dir>/waivers.json`; trends, heatmaps and
 * comparisons are prepared from those files by the pure functions in prepare.ts and runs.ts.
 * `<dir>` is `../../scorecards` (the repository's) unless EVERYCELL_SCORECARDS names another.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ConformanceSummary } from '@everycell/harness/schema';
import { conformanceSchema, readScorecardFile, ScorecardFileError } from '@everycell/harness/validate';
import { parseWaivers } from '@everycell/harness/waivers';
import { compareRows, diffRuns, type RunComparison } from './compare-data';
import type { LatestRun, RowResult, RowTrend, Scorecard, Waiver } from './definitions';
import {
  allRowIds,
  compareRuns,
  groupRows,
  latestRowResult,
  latestRowWithRun,
  trendFromScorecards,
} from './prepare';
import { consecutivePairs, type Heatmap, type RunSummary, summarizeRuns, verdictHeatmap } from './runs';
import { comparable, nextInSet, previousInSet, type RunSet, runSets, setOfRun } from './sets';

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

export function getSets(): RunSet[] {
  return runSets(readScorecards());
}

export function getSet(slug: string): RunSet | undefined {
  return getSets().find((set) => set.slug === slug);
}

/** The set of the newest run: what the home page shows. */
export function getNewestSet(): RunSet | undefined {
  return getSets()[0];
}

export interface RunView extends LatestRun {
  set: RunSet;
  previous?: Scorecard;
  next?: Scorecard;
}

function runView(scorecard: Scorecard, sets: RunSet[]): RunView {
  const set = setOfRun(sets, scorecard.runId) as RunSet;
  const view: RunView = { scorecard, sections: groupRows(scorecard.rows), set };
  const previous = previousInSet(sets, scorecard.runId);
  const next = nextInSet(sets, scorecard.runId);
  if (previous) view.previous = previous;
  if (next) view.next = next;
  return view;
}

/** The newest run of a set (the newest set when no slug is given). */
export function getLatestRun(slug?: string): RunView | undefined {
  const sets = getSets();
  const set = slug === undefined ? sets[0] : sets.find((candidate) => candidate.slug === slug);
  const scorecard = set?.runs.at(-1);
  return scorecard ? runView(scorecard, sets) : undefined;
}

/** One run's scorecard by id, for its own page. */
export function getRun(runId: string): RunView | undefined {
  const scorecard = readScorecards().find((card) => card.runId === runId);
  return scorecard ? runView(scorecard, getSets()) : undefined;
}

/** Every run, newest first. */
export function getRunSummaries(): RunSummary[] {
  return summarizeRuns(readScorecards());
}

/** The verdict heatmap of one set's newest runs. */
export function getHeatmap(slug: string): Heatmap | undefined {
  const set = getSet(slug);
  return set ? verdictHeatmap(set.runs) : undefined;
}

/** The comparisons the site pre-renders: each run against the previous run of its own set. */
export function getComparePairs(): { before: string; after: string }[] {
  return getSets().flatMap((set) =>
    consecutivePairs(set.runs).map(({ before, after }) => ({ before: before.runId, after: after.runId })),
  );
}

/** Two runs side by side, only when they are comparable (same set). */
export function getComparison(before: string, after: string): RunComparison | undefined {
  const cards = readScorecards();
  const was = cards.find((card) => card.runId === before);
  const now = cards.find((card) => card.runId === after);
  if (!was || !now || !comparable(was, now)) return undefined;
  const set = setOfRun(getSets(), was.runId)?.slug ?? '';
  return diffRuns(compareRows(was, set), compareRows(now, set));
}

/** Every (set, row) pair that has a row page: every row any run of the set measured. */
export function getRowParams(): { set: string; id: string }[] {
  return getSets().flatMap((set) => allRowIds(set.runs).map((id) => ({ set: set.slug, id })));
}

export interface RowView {
  set: RunSet;
  row: RowResult;
  /** The newest run of the set that measured the row. */
  scorecard: Scorecard;
  trend: RowTrend;
  /** The newest run's other rows, for the selector. */
  siblings: RowResult[];
}

export function getRowView(slug: string, rowId: string): RowView | undefined {
  const set = getSet(slug);
  if (!set) return undefined;
  const latest = latestRowWithRun(set.runs, rowId);
  const trend = trendFromScorecards(set.runs, rowId);
  if (!latest || !trend) return undefined;
  const siblings = allRowIds(set.runs).flatMap((id) => latestRowResult(set.runs, id) ?? []);
  return { set, row: latest.row, scorecard: latest.scorecard, trend, siblings };
}

/**
 * The engine's differential conformance count: from the newest scorecard that carries one, else
 * from the suite's own results file (packages/engine-napi/conformance/results.json, or
 * EVERYCELL_CONFORMANCE) once it exists. Undefined when neither does.
 */
export function getConformance(): { summary: ConformanceSummary; source: string } | undefined {
  const withSummary = [...readScorecards()]
    .sort(compareRuns)
    .reverse()
    .find((card) => card.conformance !== undefined);
  if (withSummary?.conformance) {
    return { summary: withSummary.conformance, source: `run ${withSummary.runId}` };
  }
  const file = resolve(
    process.cwd(),
    process.env.EVERYCELL_CONFORMANCE ?? '../../packages/engine-napi/conformance/results.json',
  );
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = conformanceSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${file}: not a conformance summary (${parsed.error.issues[0]?.message ?? 'unknown'})`);
  }
  return { summary: raw as ConformanceSummary, source: 'the conformance suite' };
}

/**
 * The history tables the site build writes per run as Parquet (scripts/run-parquet.ts), in the
 * order they are offered: the harness's PARQUET_TABLES (history/parquet.ts), which a test checks.
 */
export const RUN_PARQUET_TABLES = ['runs', 'rows', 'distributions', 'quantiles'] as const;

/** Where the site build put a run's Parquet files (EVERYCELL_RUN_PARQUET); undefined outside that build. */
function runParquetDir(runId: string): string | undefined {
  const root = process.env.EVERYCELL_RUN_PARQUET;
  return root ? join(root, runId) : undefined;
}

/** The run's Parquet files the site build wrote, by file name. */
export function runParquetFiles(runId: string): string[] {
  const dir = runParquetDir(runId);
  if (dir === undefined) return [];
  return RUN_PARQUET_TABLES.map((table) => `${table}.parquet`).filter((file) => existsSync(join(dir, file)));
}

/** A Parquet file of the run that runParquetFiles listed. */
export function readRunParquet(runId: string, name: string): Buffer {
  const dir = runParquetDir(runId);
  if (dir === undefined)
    throw new Error(`no Parquet files for run ${runId}: EVERYCELL_RUN_PARQUET is not set`);
  return readFileSync(join(dir, name));
}

/**
 * The files a run offers for download: the scorecard and a CSV of its rows (exported by the site,
 * app/runs/[id]/[file]/route.ts), the harness's SCORECARD.md when the run folder has one, and the
 * run's history tables as Parquet when the site build wrote them.
 */
export function runDownloads(runId: string): string[] {
  return [
    'scorecard.json',
    ...(runFileExists(runId, 'SCORECARD.md') ? ['SCORECARD.md'] : []),
    'rows.csv',
    ...runParquetFiles(runId),
  ];
}

/** The text of a file in a run folder (callers pass fixed names). */
export function readRunFile(runId: string, name: string): Buffer {
  return readFileSync(join(scorecardsDir(), runId, name));
}

/** True when a run folder holds the file a row points at (diffPath is validated to stay inside it). */
export function runFileExists(runId: string, path: string): boolean {
  return existsSync(join(scorecardsDir(), runId, path));
}
