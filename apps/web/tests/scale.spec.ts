import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { fixtureScorecards, mainSeries, WIDTHS } from './fixtures';

const exported = join(dirname(fileURLToPath(import.meta.url)), '../out-fixtures');

/**
 * A site that scales: a run is not a page render. Each run's folder holds its files and one shared
 * page that draws the run from its run.json in the browser; pairs of runs are compared from those
 * files, with no page per pair; only sets and rows are pages.
 */
test('every run folder holds the one run page, its run.json and downloads, and no pair has a page', () => {
  const shell = readFileSync(join(exported, 'run/index.html'), 'utf8');
  // Only the title and the preload of the run's own run.json differ from run to run.
  const normal = (html: string) =>
    html.replace(/<title>[^<]*<\/title>(<link rel="preload"[^>]*>)?/, '<title></title>');
  for (const card of fixtureScorecards()) {
    const folder = join(exported, 'runs', card.runId);
    const files = readdirSync(folder);
    expect(files).toEqual(expect.arrayContaining(['index.html', 'run.json', 'scorecard.json', 'rows.csv']));
    const html = readFileSync(join(folder, 'index.html'), 'utf8');
    // The same page for every run: no rows, reasons or numbers of the run are rendered into it.
    expect(normal(html)).toBe(normal(shell));
    expect(html).toContain(`<title>Run ${card.runId} · everycell scorecard</title>`);
    expect(html).toContain(`<link rel="preload" href="/runs/${card.runId}/run.json" as="fetch"`);
    expect(html).not.toContain(card.rows[0]?.reason as string);
  }
  expect(readdirSync(join(exported, 'compare')).filter((name) => !name.startsWith('index'))).toEqual([]);
});

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a run page draws its run from run.json in the browser', async ({ page }) => {
      const [, middle] = mainSeries();
      if (!middle) throw new Error('need runs');
      const loaded = page.waitForResponse((response) =>
        response.url().endsWith(`/runs/${middle.runId}/run.json`),
      );
      await page.goto(`./runs/${middle.runId}/`);
      expect((await loaded).status()).toBe(200);
      await expect(page.locator('table.run-table tbody tr[data-row-id]')).toHaveCount(middle.rows.length);
      await expect(page.locator('.overview-grid a.overview-cell')).toHaveCount(middle.rows.length);
      await expect(page.locator('.run-id code')).toHaveText(middle.runId);
    });

    test('drawing the run moves nothing already on screen (no layout shift)', async ({ page }) => {
      const [, middle] = mainSeries();
      if (!middle) throw new Error('need runs');
      // The Layout Instability API's running total, as Lighthouse's cumulative layout shift counts it.
      await page.addInitScript(() => {
        const total = window as unknown as { layoutShift: number };
        total.layoutShift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) total.layoutShift += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`./runs/${middle.runId}/`);
      await expect(page.locator('table.run-table tbody tr[data-row-id]')).toHaveCount(middle.rows.length);
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))),
      );
      const shift = await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
      expect(shift).toBeLessThan(0.1);
    });
  });
}
