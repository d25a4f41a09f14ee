import { expect, test } from '@playwright/test';
import { fixtureLines, latestFixture, mainSeries, rowPath, setOf } from './fixtures';

/**
 * WCAG 1.4.10 reflow: at 390 px (a phone) no page scrolls sideways. Wide tables become cards or
 * scroll inside their own frame, charts take the narrow drawing, long tokens wrap.
 */
function pages(): string[] {
  const latest = latestFixture();
  const [first, before, after] = mainSeries();
  if (!first || !before || !after) throw new Error('need three fixture runs');
  return [
    './',
    `./sets/${setOf(latest)}/`,
    rowPath(latest, 'bucket.terms'),
    rowPath(latest, 'query.phrase'),
    './runs/',
    `./sets/${setOf(latest)}/runs/`,
    `./runs/${before.runId}/`,
    `./compare/?a=${before.runId}&b=${after.runId}`,
    `./compare/?a=${first.runId}&b=${after.runId}`,
    './compare/',
    './throughput/',
    './methodology/',
    `./scaling/${fixtureLines()[0]?.slug}/`,
  ];
}

test.use({ viewport: { width: 390, height: 844 } });

test('no page scrolls sideways at 390 px, and charts load their narrow drawing', async ({ page }) => {
  test.setTimeout(90_000);
  const wide: Record<string, number> = {};
  for (const path of pages()) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) wide[path] = width;
    const images = await page
      .locator('picture.chart img')
      .evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((img) => img.currentSrc));
    for (const src of images.filter(Boolean)) expect(src, path).toMatch(/\.narrow\.svg$/);
  }
  expect(wide).toEqual({});
});

test('on a phone the home table shows verdict and ratio beside each row name', async ({ page }) => {
  const row = latestFixture().rows.find((candidate) => candidate.ratio !== undefined);
  if (!row) throw new Error('no row with a ratio');
  await page.goto('./');
  const tr = page.locator(`table.score-table tr[data-row-id="${row.id}"]`);
  const name = await tr.locator('th.row-name').boundingBox();
  const verdict = await tr.locator('.verdict-cell').boundingBox();
  const ratio = await tr.locator('td.ratio').boundingBox();
  if (!name || !verdict || !ratio) throw new Error('row cells are not laid out');
  // Same line as the name (top edges within a few pixels), inside the screen.
  expect(Math.abs(verdict.y - name.y)).toBeLessThan(8);
  expect(Math.abs(ratio.y - name.y)).toBeLessThan(8);
  expect(ratio.x + ratio.width).toBeLessThanOrEqual(390);
});
