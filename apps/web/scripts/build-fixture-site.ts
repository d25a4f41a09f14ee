/**
 * Builds the site the browser tests open: copies the fixture scorecards to a scratch folder and
 * exports the site to out-fixtures/ so the real out/ is left alone.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { webDir } from './paths';

export const fixtureScorecards = join(webDir, '.fixture-scorecards');
const fixtures = join(webDir, 'test/fixtures');

rmSync(fixtureScorecards, { recursive: true, force: true });
mkdirSync(fixtureScorecards, { recursive: true });
for (const entry of readdirSync(fixtures, { withFileTypes: true })) {
  if (!entry.isDirectory() || !existsSync(join(fixtures, entry.name, 'scorecard.json'))) continue;
  cpSync(join(fixtures, entry.name), join(fixtureScorecards, entry.name), { recursive: true });
}
// The gate waivers and the calibrations sit beside the run folders, as in scorecards/.
cpSync(join(fixtures, 'waivers.json'), join(fixtureScorecards, 'waivers.json'));
cpSync(join(fixtures, 'calibration'), join(fixtureScorecards, 'calibration'), { recursive: true });

const result = spawnSync('npx', ['tsx', 'scripts/build-site.ts'], {
  cwd: webDir,
  stdio: 'inherit',
  env: { ...process.env, EVERYCELL_SCORECARDS: fixtureScorecards, EVERYCELL_OUT_DIR: 'out-fixtures' },
});
process.exit(result.status ?? 1);
