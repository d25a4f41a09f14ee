/**
 * The repository's committed scorecards (scorecards/<run>/scorecard.json), for tests that hold
 * the site's derived labels to what the harness wrote: every reason it stated must agree with
 * the label the site derives from the same row. Empty in a checkout without runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scorecard } from '../lib/definitions';

export const realScorecardsDir = join(dirname(fileURLToPath(import.meta.url)), '../../../scorecards');

export function loadRealScorecards(): Scorecard[] {
  if (!existsSync(realScorecardsDir)) return [];
  return readdirSync(realScorecardsDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(realScorecardsDir, entry.name, 'scorecard.json')),
    )
    .map(
      (entry) =>
        JSON.parse(readFileSync(join(realScorecardsDir, entry.name, 'scorecard.json'), 'utf8')) as Scorecard,
    );
}
