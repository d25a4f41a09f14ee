import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { fixtureScorecards, mainSeries, WIDTHS } from './fixtures';

const exported = join(dirname(fileURLToPath(import.meta.url)), '../out-fixtures');

/**
 * A site that scales: a run is not a page render. Each run's folder holds its files and its page,
 * the run drawn into the exported page shell as static HTML by the site build (no React, no second
 * copy of the run as data); pairs of runs are compared from those files, with no page per pair.
 */
test('every run folder holds its static run page, its run.json and downloads, and no pair has a page', () => {
  for (const card of fixtureScorecards()) {
    const folder = join(exported, 'runs', card.runId);
    const files = readdirSync(folder);
    expect(files).toEqual(expect.arrayContaining(['index.html', 'run.json', 'scorecard.json', 'rows.csv']));
    const html = readFileSync(join(folder, 'index.html'), 'utf8');
    expect(html).toContain(`<title>Run ${card.runId} · everycell scorecard</title>`);
    // The run is in the HTML, once: every row, and no framework or RSC payload repeating it.
    for (const row of card.rows) expect(html).toContain(`data-row-id="${row.id}" data-verdict`);
    expect(html).not.toContain('self.__next_f');
    expect(html).not.toMatch(/<script[^>]+_next\/static\/chunks/);
  }
  expect(readdirSync(join(exported, 'compare')).filter((name) => !name.startsWith('index'))).toEqual([]);
});

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a run page shows its run from the HTML, and /run/?id= draws it from run.json', async ({ page }) => {
      const [, middle] = mainSeries();
      if (!middle) throw new Error('need runs');
      await page.goto(`./runs/${middle.runId}/`);
      await expect(page.locator('table.run-table tbody tr[data-row-id]')).toHaveCount(middle.rows.length);
      await expect(page.locator('.overview-grid a.overview-cell')).toHaveCount(middle.rows.length);
      await expect(page.locator('.run-id code')).toHaveText(middle.runId);
      // Its table's controls work without React.
      await expect(page.getByRole('combobox', { name: 'Verdict' })).toBeVisible();

      const loaded = page.waitForResponse((response) =>
        response.url().endsWith(`/runs/${middle.runId}/run.json`),
      );
      await page.goto(`./run/?id=${middle.runId}`);
      expect((await loaded).status()).toBe(200);
      await expect(page.locator('table.run-table tbody tr[data-row-id]')).toHaveCount(middle.rows.length);
      await expect(page.locator('.run-id code')).toHaveText(middle.runId);
      await expect(page.getByRole('combobox', { name: 'Verdict' })).toBeVisible();
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
