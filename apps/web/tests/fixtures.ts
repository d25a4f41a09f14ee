/** Reads the fixture scorecards the site under test was built from, so tests compare against files. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { Scorecard } from '../lib/definitions';
import { runSets, scalingLines, setSlug } from '../lib/sets';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '../test/fixtures');

export function fixtureScorecards(): Scorecard[] {
  return readdirSync(fixturesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(fixturesDir, entry.name, 'scorecard.json')))
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

/** The comparable set of a fixture run, as the site names it in URLs. */
export function setOf(card: Scorecard): string {
  return setSlug(card);
}

/** A row page: rows live inside their comparable set. */
export function rowPath(card: Scorecard, rowId: string): string {
  return `./sets/${setSlug(card)}/rows/${rowId}/`;
}

/** The fixture runs of the newest run's comparable set (the 200k series), oldest first. */
export function mainSeries(): Scorecard[] {
  const latest = latestFixture();
  return fixtureScorecards()
    .filter((card) => setSlug(card) === setSlug(latest))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/** The text of the wide SVG file a chart <img> shows. */
export async function chartSvg(page: Page, chart: string): Promise<string> {
  const img = page.locator(`picture[data-chart="${chart}"] img`);
  const src = await img.getAttribute('src');
  if (!src) throw new Error(`no chart ${chart}`);
  const response = await page.request.get(new URL(src, page.url()).toString());
  if (!response.ok()) throw new Error(`${src}: ${response.status()}`);
  return response.text();
}

/** How many marks of a kind an SVG has, e.g. ('mark-symbol', 'path'). */
export function countMarks(svg: string, markClass: string): number {
  const groups = [...svg.matchAll(new RegExp(`class="${markClass} role-mark[^"]*"[^>]*>(.*?)</g>`, 'g'))];
  return groups.reduce((sum, group) => sum + ((group[1] ?? '').match(/<path/g)?.length ?? 0), 0);
}

/** The two widths every page is checked at: a laptop and a phone. */
export const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The fixture runs' comparable sets and scaling lines, as the site groups them. */
export function fixtureSets() {
  return runSets(fixtureScorecards());
}

export function fixtureLines() {
  return scalingLines(fixtureSets());
}

/** A fixture run by its corpus size and options. */
export function fixtureRun(match: (card: Scorecard) => boolean): Scorecard {
  const card = fixtureScorecards().find(match);
  if (!card) throw new Error('no such fixture run');
  return card;
}

/** Every `.table-scroll` frame whose content is wider than the frame: content hidden behind a sideways scroll. */
export async function hiddenBehindScroll(page: Page): Promise<string[]> {
  return page
    .locator('.table-scroll')
    .evaluateAll((frames) =>
      frames
        .filter((frame) => frame.scrollWidth > frame.clientWidth + 1)
        .map((frame) => `${frame.getAttribute('aria-label')}: ${frame.scrollWidth} > ${frame.clientWidth}`),
    );
}
