/**
 * Builds the site the browser tests open: copies the fixture scorecards to a scratch folder,
 * gives them a DuckDB history (the harness's rebuild when it exists, else test/write-history.ts)
 * and exports the site to out-fixtures/ so the real out/ is left alone.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Scorecard } from '../lib/definitions';
import { writeHistory } from '../test/write-history';
import { harnessHistoryCli, webDir } from './paths';

export const fixtureScorecards = join(webDir, '.fixture-scorecards');
const fixtures = join(webDir, 'test/fixtures');

rmSync(fixtureScorecards, { recursive: true, force: true });
mkdirSync(fixtureScorecards, { recursive: true });
const cards: Scorecard[] = [];
for (const entry of readdirSync(fixtures, { withFileTypes: true })) {
  const file = join(fixtures, entry.name, 'scorecard.json');
  if (!entry.isDirectory() || !existsSync(file)) continue;
  cpSync(join(fixtures, entry.name), join(fixtureScorecards, entry.name), { recursive: true });
  cards.push(JSON.parse(readFileSync(file, 'utf8')) as Scorecard);
}

// The gate waivers sit beside the run folders, as in scorecards/.
cpSync(join(fixtures, 'waivers.json'), join(fixtureScorecards, 'waivers.json'));

const useHarness = existsSync(harnessHistoryCli);
if (!useHarness) {
  console.log('history: harness command absent, writing the fixture history with test/write-history.ts');
  await writeHistory(join(fixtureScorecards, 'history.duckdb'), cards);
}

const result = spawnSync('npx', ['tsx', 'scripts/build-site.ts'], {
  cwd: webDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    EVERYCELL_SCORECARDS: fixtureScorecards,
    EVERYCELL_OUT_DIR: 'out-fixtures',
    EVERYCELL_SKIP_HISTORY_REBUILD: useHarness ? '0' : '1',
  },
});
process.exit(result.status ?? 1);
