/**
 * Builds the static site. First it reads every scorecard once, checks it (every problem, file and
 * field, is listed before anything is compiled) and writes the run's downloads into a staging
 * folder; then `next build` renders the pages from a site index of the checked runs (the newest run
 * of each set in full, the others slimmed: lib/site-index.ts); then each run gets its run.json and
 * the one run page, which draws it in the browser. Pages grow with sets and rows, not with runs: a
 * run adds its own files and no page render. Exports to out/ (or EVERYCELL_OUT_DIR).
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { readScorecardFile, ScorecardFileError } from '@everycell/harness/validate';
import { type BuildOptions, buildSync } from 'esbuild';
import { getRunModel, readWaivers, type SiteIndex, scorecardFiles, shownFrom } from '../lib/data';
import type { Scorecard } from '../lib/definitions';
import { setKeyOf } from '../lib/sets';
import { siteIndexBuilder } from '../lib/site-index';
import { dropReactFromStaticPages, dropRouterPayloads } from './export-tidy';
import { scorecardsDirFromEnv, webDir } from './paths';
import { stageRunFiles, writeRunPage } from './run-files';
import { cachedRunParquet, pruneParquetCache } from './run-parquet';

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const scorecards = scorecardsDirFromEnv();
const outDir = join(webDir, process.env.EVERYCELL_OUT_DIR ?? 'out');
// EVERYCELL_PARQUET_CACHE names another cache (scripts/measure-build.ts --cold starts from an empty one).
const cacheDir = process.env.EVERYCELL_PARQUET_CACHE ?? join(webDir, '.cache', 'run-parquet');
// Beside the export, on the same file system, so the staged run folders move into it.
const staging = mkdtempSync(join(webDir, '.site-staging-'));
const fail = (lines: string[], code = 2): never => {
  rmSync(staging, { recursive: true, force: true });
  for (const line of lines) console.error(line);
  process.exit(code);
};

// 1. Read and check every run once; stage its downloads; keep it slim unless a row page draws from it.
const shown = shownFrom(scorecards);
const problems: string[] = [];
const index = siteIndexBuilder(setKeyOf);
const published = new Map<string, string>();
let files: ReturnType<typeof scorecardFiles> = [];
try {
  files = scorecardFiles(scorecards);
} catch (error) {
  fail([`error: ${(error as Error).message}`]);
}
for (const { file, folder } of files) {
  let card: Scorecard;
  try {
    card = readScorecardFile(file, shown(file), folder);
  } catch (error) {
    if (error instanceof ScorecardFileError) problems.push(...error.problems);
    else fail([`error: ${(error as Error).message}`]);
    continue;
  }
  if (problems.length > 0) continue;
  published.set(card.runId, stageRunFiles(card, join(scorecards, folder), join(staging, 'runs', card.runId)));
  index.add(card);
}
const { waivers, problem } = readWaivers(scorecards);
if (problem) problems.push(problem);
if (problems.length > 0) {
  fail([
    `error: ${problems.length} problem(s) in the scorecards; nothing was built:`,
    ...problems.map((p) => `  ${p}`),
  ]);
}
// A static export needs at least one row page, and an empty scorecard would say nothing.
if (published.size === 0) {
  fail([
    `error: no <run-id>/scorecard.json under ${scorecards}: run \`npm run bench\` first, or preview with EVERYCELL_SCORECARDS=test/fixtures`,
  ]);
}
const siteIndex: SiteIndex = { scorecards: index.build(), waivers };
const indexFile = join(staging, 'site-index.json');
writeFileSync(indexFile, JSON.stringify(siteIndex));
console.log(`scorecards: ${published.size} run(s) checked in ${scorecards}, downloads staged (${seconds()})`);

// 2. Each run's history tables as Parquet, from the cache when it has them.
const parquetDir = join(staging, 'parquet');
mkdirSync(cacheDir, { recursive: true });
let misses = 0;
try {
  for (const [runId, json] of published) {
    const outcome = await cachedRunParquet(
      json,
      () => JSON.parse(json) as Scorecard,
      cacheDir,
      join(parquetDir, runId),
    );
    if (outcome === 'miss') misses += 1;
  }
} catch (error) {
  fail([`error: ${(error as Error).message}`]);
}
const pruned = pruneParquetCache(cacheDir);
console.log(
  `parquet: ${published.size} run(s), ${misses} written, ${published.size - misses} from the cache${pruned > 0 ? `, ${pruned} cache entries unused for two weeks dropped` : ''} (${seconds()})`,
);

// 3. The pages.
const env = {
  ...process.env,
  EVERYCELL_SCORECARDS: scorecards,
  EVERYCELL_SITE_INDEX: indexFile,
  EVERYCELL_RUN_PARQUET: parquetDir,
  NEXT_TELEMETRY_DISABLED: '1',
};
const result = spawnSync('npx', ['next', 'build', '--webpack'], { cwd: webDir, stdio: 'inherit', env });
if (result.status !== 0) {
  fail([`error: \`next build\` failed (exit ${result.status ?? result.signal})`], result.status ?? 1);
}
console.log(`pages: exported (${seconds()})`);

// 4. Each run's folder: its downloads, its Parquet files, its run.json and the run page.
// Every page link is a plain <a> (lib/routes.ts): the router's per-page payloads (.txt) are never
// fetched, and they were a third of the export. The browser tests fail on any request that 404s.
const dropped = dropRouterPayloads(outDir);
Object.assign(process.env, env);
const shell = readFileSync(join(outDir, 'run', 'index.html'), 'utf8');
for (const runId of published.keys()) {
  // The model first: it lists the Parquet files where step 2 staged them.
  const model = getRunModel(runId);
  if (!model) fail([`error: no model for run ${runId}`]);
  const target = join(outDir, 'runs', runId);
  rmSync(target, { recursive: true, force: true });
  renameSync(join(staging, 'runs', runId), target);
  const parquet = join(parquetDir, runId);
  if (existsSync(parquet))
    for (const file of readdirSync(parquet)) renameSync(join(parquet, file), join(target, file));
  writeRunPage(target, model as NonNullable<typeof model>, shell);
}
rmSync(staging, { recursive: true, force: true });
console.log(
  `runs: ${published.size} run folder(s) with their files, run.json and page; ${dropped} router payload(s) dropped (${seconds()})`,
);

// 5. Static pages without React: only the run page's shell needs it in the browser; every other
// page is its HTML plus, where it has a run table, one small script for the table's controls, and
// on the compare page one for its picker and comparisons (scripts/export-tidy.ts), each named by
// its content so it can be cached for good.
const staticDir = join(outDir, '_static');
mkdirSync(staticDir, { recursive: true });
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';
function bundle(entry: string, name: string, options: BuildOptions = {}): { src: string; bytes: number } {
  const built = buildSync({
    entryPoints: [join(webDir, entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    outdir: staticDir,
    entryNames: `${name}-[hash]`,
    ...options,
  });
  const file =
    (built.outputFiles ?? []).find((f) => f.path.endsWith('.js')) ?? fail([`error: ${entry} did not build`]);
  writeFileSync(file.path, file.contents);
  return { src: `${basePath}/_static/${file.path.split('/').at(-1)}`, bytes: file.contents.length };
}
const enhance = bundle('scripts/enhance-entry.ts', 'enhance');
// Preact in React's place: the compare components use only what preact/compat serves (hooks,
// createRoot, startTransition), and a phone then parses ~20 KB of it instead of React and Next.
const preact: BuildOptions = {
  jsx: 'automatic',
  alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
  define: {
    'process.env.EVERYCELL_BASE_PATH': JSON.stringify(basePath),
    'process.env.NODE_ENV': '"production"',
  },
};
const compare = bundle('scripts/compare-entry.tsx', 'compare', preact);
const planner = bundle('scripts/planner-entry.tsx', 'planner', preact);
const statics = dropReactFromStaticPages(outDir, {
  enhance: enhance.src,
  compare: compare.src,
  planner: planner.src,
});
console.log(
  `static pages: ${statics} page(s) without React, table controls ${(enhance.bytes / 1024).toFixed(1)} KB, compare ${(compare.bytes / 1024).toFixed(1)} KB, planner ${(planner.bytes / 1024).toFixed(1)} KB (${seconds()})`,
);
