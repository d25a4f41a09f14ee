/** Reads the fixture scorecards the site under test was built from, so tests compare against files. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scorecard } from '../lib/definitions';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '../test/fixtures');

export function fixtureScorecards(): Scorecard[] {
  return readdirSync(fixturesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(
      (entry) =>
        JSON.parse(readFileSync(join(fixturesDir, entry.name, 'scorecard.json'), 'utf8')) as Scorecard,
    );
}

export function latestFixture(): Scorecard {
  const [latest] = fixtureScorecards().sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  if (!latest) throw new Error(`no fixture scorecards under ${fixturesDir}`);
  return latest;
}

export const screenshotDir = join(dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');
