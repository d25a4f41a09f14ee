/**
 * Builds the static site: checks every scorecard and the waivers file first and lists every
 * problem (file and field) before anything is compiled, then runs `next build`, which exports to
 * out/ (or EVERYCELL_OUT_DIR). The site reads the scorecard files only, and the Parquet files this
 * script writes from them beforehand (each run's history tables, for its downloads).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from '../lib/data';
import { copyRunFiles, dropRouterPayloads } from './copy-run-files';
import { scorecardsDirFromEnv, webDir } from './paths';
import { writeRunParquet } from './run-parquet';

const scorecards = scorecardsDirFromEnv();
let checked: ReturnType<typeof loadAll>;
try {
  checked = loadAll(scorecards);
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exit(2);
}
if (checked.problems.length > 0) {
  console.error(`error: ${checked.problems.length} problem(s) in the scorecards; nothing was built:`);
  for (const problem of checked.problems) console.error(`  ${problem}`);
  process.exit(2);
}
// A static export needs at least one row page, and an empty scorecard would say nothing.
if (checked.scorecards.length === 0) {
  console.error(
    `error: no <run-id>/scorecard.json under ${scorecards}: run \`npm run bench\` first, or preview with EVERYCELL_SCORECARDS=test/fixtures`,
  );
  process.exit(2);
}
console.log(`scorecards: ${checked.scorecards.length} run(s) checked in ${scorecards}`);

// Written before Next builds, so each run page links exactly the files that exist.
const parquet = mkdtempSync(join(tmpdir(), 'everycell-run-parquet-'));
try {
  const runs = await writeRunParquet(checked.scorecards, parquet);
  console.log(`parquet: wrote the history tables of ${runs} run(s) for their downloads`);
} catch (error) {
  rmSync(parquet, { recursive: true, force: true });
  console.error(`error: ${(error as Error).message}`);
  process.exit(2);
}

const result = spawnSync('npx', ['next', 'build', '--webpack'], {
  cwd: webDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    EVERYCELL_SCORECARDS: scorecards,
    EVERYCELL_RUN_PARQUET: parquet,
    NEXT_TELEMETRY_DISABLED: '1',
  },
});
rmSync(parquet, { recursive: true, force: true });
if (result.status !== 0) {
  console.error(`error: \`next build\` failed (exit ${result.status ?? result.signal})`);
  process.exit(result.status ?? 1);
}

const out = join(webDir, process.env.EVERYCELL_OUT_DIR ?? 'out');
// Every page link is a plain <a> (lib/routes.ts): the router's per-page payloads (.txt) are never
// fetched, and they were a third of the export. The browser tests fail on any request that 404s.
const dropped = dropRouterPayloads(out);
console.log(`router payloads: removed ${dropped} .txt file(s) the static site never loads`);
const copied = copyRunFiles(scorecards, out);
if (copied > 0) console.log(`run files: copied ${copied} diff file(s) into ${out}/runs/`);
