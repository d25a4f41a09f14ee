/** The committed fixture scorecards, parsed, for unit tests. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scorecard } from '../lib/definitions';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function loadFixtures(): Scorecard[] {
  return readdirSync(fixturesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(fixturesDir, entry.name, 'scorecard.json')))
    .map(
      (entry) =>
        JSON.parse(readFileSync(join(fixturesDir, entry.name, 'scorecard.json'), 'utf8')) as Scorecard,
    );
}
