/** Folders the site's scripts share, resolved from this file so any working directory works. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = resolve(webDir, '../..');

/** Same rule as lib/data.ts: EVERYCELL_SCORECARDS (relative to apps/web) or the repository's folder. */
export function scorecardsDirFromEnv(): string {
  return resolve(webDir, process.env.EVERYCELL_SCORECARDS ?? '../../scorecards');
}
