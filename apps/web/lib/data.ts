/**
 * All of the site's data access, run at build time by server components and the build script. It
 * reads files only: `<dir>/<run-id>/scorecard.json` for every run, `<dir>/waivers.json`,
 * `<dir>/calibration/*.json` and the conformance suite's results; trends, heatmaps and run models
 * are prepared from those by the pure functions of the other lib/ modules.
 * `<dir>` is `../../scorecards` (the repository's) unless EVERYCELL_SCORECARDS names another.
 *
 * The site build (scripts/build-site.ts) checks every file once and hands Next a site index
 * (EVERYCELL_SITE_INDEX): the same scorecards with the latency distributions, timelines and
 * request bodies left out wherever no row page draws them (lib/site-index.ts), so the pages' build
 * reads tens of kilobytes a run instead of hundreds.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import {
  conformanceSchema,
  readScorecardFile,
  restSuiteSchema,
  ScorecardFileError,
} from '@everycell/harness/validate';
import { parseWaivers } from '@everycell/harness/waivers';
import { type Calibration, calibrationProblem } from './calibration';
import { type ConformanceView, differentialView, type RestSuiteView, restSuiteView } from './conformance';
import type { RowResult, RowTrend, RunModel, Scorecard, Waiver } from './definitions';
import { allRowIds, latestRowResult, latestRowWithRun, trendFromScorecards } from './prepare';
import { runModel } from './run-model';
import { consecutivePairs, type Heatmap, type RunSummary, summarizeRuns, verdictHeatmap } from './runs';
import {
  lineOfSet,
  nextInSet,
  previousInSet,
  type RunSet,
  runSets,
  type ScalingLine,
  scalingLines,
  setOfRun,
} from './sets';

export function scorecardsDir(): string {
  return resolve(process.cwd(), process.env.EVERYCELL_SCORECARDS ?? '../../scorecards');
}

/** How files are named in messages: from the scorecards folder's parent ("scorecards/<run>/scorecard.json"). */
export function shownFrom(dir: string): (file: string) => string {
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

/** The gate waivers of a scorecards folder, or the problem with its file. */
export function readWaivers(dir: string): { waivers: Waiver[]; problem?: string } {
  const file = join(dir, 'waivers.json');
  if (!existsSync(file)) return { waivers: [] };
  const shown = shownFrom(dir);
  try {
    return { waivers: parseWaivers(shown(file), JSON.parse(readFileSync(file, 'utf8'))) };
  } catch (error) {
    const message = (error as Error).message;
    return {
      waivers: [],
      problem: error instanceof SyntaxError ? `${shown(file)}: not valid JSON (${message})` : message,
    };
  }
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
  const { waivers, problem } = readWaivers(dir);
  if (problem) problems.push(problem);
  return { scorecards, waivers, problems };
}

/** What the site build hands Next (EVERYCELL_SITE_INDEX): checked scorecards, slimmed, and the waivers. */
export interface SiteIndex {
  scorecards: Scorecard[];
  waivers: Waiver[];
}

interface Loaded {
  scorecards: Scorecard[];
  waivers: Waiver[];
  sets: RunSet[];
  lines: ScalingLine[];
}

// Every page of a build reads the same files: read them once per source.
const cache = new Map<string, Loaded>();

function withSets(scorecards: Scorecard[], waivers: Waiver[]): Loaded {
  const sets = runSets(scorecards);
  return { scorecards, waivers, sets, lines: scalingLines(sets) };
}

function loaded(): Loaded {
  const index = process.env.EVERYCELL_SITE_INDEX;
  const source = index ?? scorecardsDir();
  const hit = cache.get(source);
  if (hit) return hit;
  let value: Loaded;
  if (index) {
    const parsed = JSON.parse(readFileSync(index, 'utf8')) as SiteIndex;
    value = withSets(parsed.scorecards, parsed.waivers);
  } else {
    const { scorecards, waivers, problems } = loadAll(source);
    if (problems.length > 0) throw new ScorecardFileError(problems);
    value = withSets(scorecards, waivers);
  }
  cache.set(source, value);
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
  return loaded().sets;
}

export function getSet(slug: string): RunSet | undefined {
  return getSets().find((set) => set.slug === slug);
}

/** The scaling lines: sets that differ only in corpus size. */
export function getLines(): ScalingLine[] {
  return loaded().lines;
}

export function getLine(slug: string): ScalingLine | undefined {
  return getLines().find((line) => line.slug === slug);
}

/** The set of the newest run: what the home page shows. */
export function getNewestSet(): RunSet | undefined {
  return getSets()[0];
}

/** The newest run of a set (the newest set when no slug is given). */
export function getLatestScorecard(slug?: string): { scorecard: Scorecard; set: RunSet } | undefined {
  const sets = getSets();
  const set = slug === undefined ? sets[0] : sets.find((candidate) => candidate.slug === slug);
  const scorecard = set?.runs.at(-1);
  return set && scorecard ? { scorecard, set } : undefined;
}

/** A run's page as data: what its run.json holds and what the static pages render. */
export function getRunModel(runId: string): RunModel | undefined {
  const sets = getSets();
  const set = setOfRun(sets, runId);
  const scorecard = set?.runs.find((run) => run.runId === runId);
  if (!set || !scorecard) return undefined;
  return runModel(scorecard, {
    set,
    line: lineOfSet(getLines(), set.slug),
    calibrations: getCalibrations(),
    downloads: runDownloads(runId),
    previous: previousInSet(sets, runId),
    next: nextInSet(sets, runId),
  });
}

/** The newest run of a set as a model (the newest set when no slug is given). */
export function getLatestModel(slug?: string): RunModel | undefined {
  const latest = getLatestScorecard(slug);
  return latest ? getRunModel(latest.scorecard.runId) : undefined;
}

/** Every run, newest first. */
export function getRunSummaries(): RunSummary[] {
  return summarizeRuns(readScorecards(), getSets());
}

/** The verdict heatmap of one set's newest runs. */
export function getHeatmap(slug: string): Heatmap | undefined {
  const set = getSet(slug);
  return set ? verdictHeatmap(set.runs) : undefined;
}

/** Each run against the previous run of its set, newest first, at most `perSet` per set. */
export function getComparePairs(perSet = Number.POSITIVE_INFINITY): { before: string; after: string }[] {
  return getSets().flatMap((set) =>
    consecutivePairs(set.runs)
      .slice(-perSet)
      .reverse()
      .map(({ before, after }) => ({ before: before.runId, after: after.runId })),
  );
}

/** Every (set, row) pair that has a row page: every row any run of the set measured. */
export function getRowParams(): { set: string; id: string }[] {
  return getSets().flatMap((set) => allRowIds(set.runs).map((id) => ({ set: set.slug, id })));
}

/** How many of a set's newest runs a row page draws and lists: the page stays the same size as runs pile up. */
export const TREND_RUNS = 30;

export interface RowView {
  set: RunSet;
  row: RowResult;
  /** The newest run of the set that measured the row. */
  scorecard: Scorecard;
  /** The newest TREND_RUNS runs of the set that measured the row. */
  trend: RowTrend;
  /** Runs of the set that measured the row and are older than the trend shows. */
  olderRuns: number;
  /** The newest run's other rows, for the selector. */
  siblings: RowResult[];
}

export function getRowView(slug: string, rowId: string): RowView | undefined {
  const set = getSet(slug);
  if (!set) return undefined;
  const latest = latestRowWithRun(set.runs, rowId);
  const full = trendFromScorecards(set.runs, rowId);
  if (!latest || !full) return undefined;
  const trend = { ...full, points: full.points.slice(-TREND_RUNS) };
  const siblings = allRowIds(set.runs).flatMap((id) => latestRowResult(set.runs, id) ?? []);
  return {
    set,
    row: latest.row,
    scorecard: latest.scorecard,
    trend,
    olderRuns: full.points.length - trend.points.length,
    siblings,
  };
}

/** The newest row ids' set: where `/rows/<id>/` (the harness's links) sends a reader. */
export function getRowHomes(): { id: string; set: string }[] {
  const homes = new Map<string, string>();
  for (const set of getSets())
    for (const id of allRowIds(set.runs)) if (!homes.has(id)) homes.set(id, set.slug);
  return [...homes].map(([id, set]) => ({ id, set }));
}

/**
 * The differential conformance suite as committed now (packages/engine-napi/conformance/results.json,
 * or EVERYCELL_CONFORMANCE): the methodology page lists its known differences. Runs show their own.
 */
export function getSuiteConformance(): ConformanceView | undefined {
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
  return differentialView(
    raw as Parameters<typeof differentialView>[0],
    'packages/engine-napi/conformance/results.json',
  );
}

/**
 * Elasticsearch's REST API tests as committed now (the `summary` of
 * packages/harness/restsuite/results.json, or EVERYCELL_REST_SUITE): the methodology page shows
 * them by API. Runs show the summary their card recorded.
 */
export function getSuiteRestSuite(): RestSuiteView | undefined {
  const file = resolve(
    process.cwd(),
    process.env.EVERYCELL_REST_SUITE ?? '../../packages/harness/restsuite/results.json',
  );
  if (!existsSync(file)) return undefined;
  let raw: { summary?: unknown };
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as { summary?: unknown };
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = restSuiteSchema.safeParse(raw.summary);
  if (!parsed.success) {
    throw new Error(`${file}: no REST suite summary (${parsed.error.issues[0]?.message ?? 'unknown'})`);
  }
  return restSuiteView(
    raw.summary as Parameters<typeof restSuiteView>[0],
    'packages/harness/restsuite/results.json',
  );
}

/**
 * Every committed calibration (`<dir>/calibration/<date>.json`), oldest first; throws on a file
 * that is not one (the build lists it).
 */
export function getCalibrations(dir = join(scorecardsDir(), 'calibration')): Calibration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^\d{4}-\d{2}-\d{2}.*\.json$/.test(name))
    .sort()
    .map((name) => {
      const raw = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
      const bad = calibrationProblem(raw);
      if (bad) throw new Error(`scorecards/calibration/${name}: not a calibration result (field ${bad})`);
      return { ...(raw as unknown as Calibration), file: `scorecards/calibration/${name}` };
    });
}

/** The newest committed calibration, for the methodology page. */
export function getCalibration(dir?: string): Calibration | undefined {
  return getCalibrations(dir).at(-1);
}

/**
 * The history tables the site build writes per run as Parquet (scripts/run-parquet.ts), in the
 * order they are offered: the harness's PARQUET_TABLES (history/parquet.ts), which a test checks.
 */
export const RUN_PARQUET_TABLES = ['runs', 'rows', 'distributions', 'quantiles'] as const;

/** Where the site build put a run's Parquet files (EVERYCELL_RUN_PARQUET); undefined outside that build. */
export function runParquetDir(runId: string): string | undefined {
  const root = process.env.EVERYCELL_RUN_PARQUET;
  return root ? join(root, runId) : undefined;
}

/** The run's Parquet files the site build wrote, by file name. */
export function runParquetFiles(runId: string): string[] {
  const dir = runParquetDir(runId);
  if (dir === undefined) return [];
  return RUN_PARQUET_TABLES.map((table) => `${table}.parquet`).filter((file) => existsSync(join(dir, file)));
}

/**
 * The files a run offers for download, written beside its page by the site build
 * (scripts/run-files.ts): the scorecard as published, the harness's SCORECARD.md when the run
 * folder has one, a CSV of its rows, and its history tables as Parquet when the build wrote them.
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
