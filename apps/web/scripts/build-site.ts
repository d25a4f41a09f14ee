/**
 * Builds the static site: rebuilds the DuckDB history from the scorecard files with the
 * harness's own command (so the trend reads the same database the harness writes), then runs
 * `next build`, which exports to out/ (or EVERYCELL_OUT_DIR).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyRunFiles } from './copy-run-files';
import { harnessHistoryCli, repoDir, scorecardsDirFromEnv, webDir } from './paths';

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`error: \`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

const scorecards = scorecardsDirFromEnv();
if (!existsSync(scorecards)) {
  console.error(
    `error: scorecards folder ${scorecards} does not exist: run \`npm run bench\` or set EVERYCELL_SCORECARDS`,
  );
  process.exit(2);
}

// A static export needs at least one row page, and an empty scorecard would say nothing.
const hasRun = readdirSync(scorecards, { withFileTypes: true }).some(
  (entry) => entry.isDirectory() && existsSync(join(scorecards, entry.name, 'scorecard.json')),
);
if (!hasRun) {
  console.error(
    `error: no <run-id>/scorecard.json under ${scorecards}: run \`npm run bench\` first, or preview with EVERYCELL_SCORECARDS=test/fixtures`,
  );
  process.exit(2);
}

if (process.env.EVERYCELL_SKIP_HISTORY_REBUILD === '1') {
  console.log('history: rebuild skipped (EVERYCELL_SKIP_HISTORY_REBUILD=1)');
} else if (existsSync(harnessHistoryCli)) {
  console.log(`history: rebuilding ${scorecards}/history.duckdb with the harness`);
  run('npm', ['run', 'history', '-w', 'packages/harness', '--', 'rebuild', '--out', scorecards], repoDir);
} else {
  console.log(
    'history: the harness has no history command yet; the trend reads history.duckdb if present, else the JSON files',
  );
}

run('npx', ['next', 'build'], webDir, {
  ...process.env,
  EVERYCELL_SCORECARDS: scorecards,
  NEXT_TELEMETRY_DISABLED: '1',
});

const out = join(webDir, process.env.EVERYCELL_OUT_DIR ?? 'out');
const copied = copyRunFiles(scorecards, out);
if (copied > 0) console.log(`run files: copied ${copied} diff file(s) into ${out}/runs/`);
