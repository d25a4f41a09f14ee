/**
 * Builds the site from a scorecards folder and reports what the build cost: wall time, bytes and
 * files written, and the pages among them, split into the run folders (a run's own files) and the
 * rest (pages that grow with sets and rows, not runs). `npx tsx scripts/measure-build.ts
 * --scorecards DIR [--out out-measure] [--cold]`; `--cold` builds with an empty Parquet cache of
 * its own (the shared cache is left as it is).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { webDir } from './paths';

const { values } = parseArgs({
  options: {
    scorecards: { type: 'string' },
    out: { type: 'string', default: 'out-measure' },
    cold: { type: 'boolean', default: false },
  },
});
if (!values.scorecards) {
  console.error('usage: measure-build.ts --scorecards DIR [--out out-measure] [--cold]');
  process.exit(2);
}
const scorecards = resolve(values.scorecards);
const out = join(webDir, values.out);
const coldCache = values.cold ? mkdtempSync(join(tmpdir(), 'everycell-parquet-cold-')) : undefined;

interface Tally {
  bytes: number;
  files: number;
  pages: number;
}
function tally(dir: string, into: Tally = { bytes: 0, files: 0, pages: 0 }): Tally {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tally(path, into);
    else {
      into.bytes += statSync(path).size;
      into.files += 1;
      if (entry.name.endsWith('.html')) into.pages += 1;
    }
  }
  return into;
}

const runs = readdirSync(scorecards, { withFileTypes: true }).filter(
  (entry) => entry.isDirectory() && existsSync(join(scorecards, entry.name, 'scorecard.json')),
).length;
const started = Date.now();
const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-site.ts'], {
  cwd: webDir,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    EVERYCELL_SCORECARDS: scorecards,
    EVERYCELL_OUT_DIR: values.out,
    ...(coldCache ? { EVERYCELL_PARQUET_CACHE: coldCache } : {}),
  },
});
const seconds = (Date.now() - started) / 1000;
if (coldCache) rmSync(coldCache, { recursive: true, force: true });
if (result.status !== 0) {
  console.error(`error: the build failed (exit ${result.status ?? result.signal})`);
  process.exit(1);
}
const all = tally(out);
const runFolders = tally(join(out, 'runs'));
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const report = {
  runs,
  parquetCache: values.cold ? 'empty' : 'shared',
  seconds: Math.round(seconds),
  megabytes: mb(all.bytes),
  files: all.files,
  pages: all.pages,
  runFolders: { megabytes: mb(runFolders.bytes), files: runFolders.files, pages: runFolders.pages },
  perRunKilobytes: Math.round(runFolders.bytes / runs / 1000),
};
console.log(`measure: ${JSON.stringify(report)}`);
