import { expect, test } from '@playwright/test';
import { compareRunFromModel, diffRuns } from '../lib/compare-data';
import type { Scorecard } from '../lib/definitions';
import { runModel } from '../lib/run-model';
import { runSets } from '../lib/sets';
import { mainSeries, WIDTHS } from './fixtures';

/** The comparison the page should draw, from the fixture files. */
function expected(before: Scorecard, after: Scorecard) {
  const [set] = runSets([before, after]);
  if (!set) throw new Error('no set');
  const model = (card: Scorecard) =>
    compareRunFromModel(runModel(card, { set, calibrations: [], downloads: [] }));
  return diffRuns(model(before), model(after));
}

/**
 * Compare pages judge: an overall line first (the read rows' geometric mean change with its
 * interval, and how many rows improved, regressed or stayed within noise), then every flip marked
 * as beyond or within the two runs' noise.
 */
for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the overall line and each flip beyond or within noise', async ({ page }) => {
      const [oldest, middle, newest] = mainSeries();
      if (!oldest || !middle || !newest) throw new Error('need three runs');
      const comparison = expected(middle, newest);
      const { overall } = comparison;
      if (!overall.geomean) throw new Error('the fixtures need read rows in both runs');
      await page.goto(`./compare/?a=${middle.runId}&b=${newest.runId}`);
      const line = page.locator('[data-overall]');
      await expect(line).toBeVisible();
      await expect(line.locator('[data-overall-geomean]')).toContainText(
        `${overall.geomean.change.toFixed(2)}×`,
      );
      await expect(line.locator('[data-overall-geomean]')).toContainText(
        `${overall.geomean.low.toFixed(3)}–${overall.geomean.high.toFixed(3)}`,
      );
      for (const key of ['improved', 'regressed', 'unchanged'] as const) {
        await expect(line.locator(`[data-count="${key}"] strong`)).toHaveText(String(overall[key]));
      }
      // The overall line comes before the table, on the first screen of a laptop.
      if (viewport.width >= 1000) await expect(line).toBeInViewport();
      const flips = comparison.changes.filter((change) => change.kind === 'flipped');
      expect(flips.length).toBeGreaterThan(0);
      for (const flip of flips) {
        const tr = page.locator(`tbody[data-kind="flipped"] tr[data-row-id="${flip.rowId}"]`);
        await expect(tr).toHaveAttribute('data-noise', flip.noise);
        await expect(tr.locator('.noise')).toHaveText(
          {
            beyond: 'beyond noise',
            within: 'within noise',
            'no-interval': 'no interval',
            'not-comparable': 'N/A in a run',
          }[flip.noise],
        );
        // The flip's bar (an inset shadow) never covers the row's name or id.
        const cell = await tr.locator('th.row-name').boundingBox();
        for (const part of [tr.locator('th.row-name a'), tr.locator('th.row-name code')]) {
          const box = await part.boundingBox();
          if (!cell || !box) throw new Error(`${flip.rowId}: no name cell`);
          expect(box.x, flip.rowId).toBeGreaterThanOrEqual(cell.x + 4);
        }
      }
      // Both kinds of flip exist between these runs, so both marks are tested.
      expect(new Set(flips.map((flip) => flip.noise)).size).toBeGreaterThan(1);
    });
  });
}

for (const viewport of WIDTHS) {
  test(`a pair's comparison arrives without moving what was painted, every row drawn, at ${viewport.width} px`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    // Layout shifts from the first paint on, as Lighthouse's CLS counts them.
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!entry.hadRecentInput) w.shifts += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const [, middle, newest] = mainSeries();
    if (!middle || !newest) throw new Error('need two runs');
    const comparison = expected(middle, newest);
    await page.goto(`./compare/?a=${middle.runId}&b=${newest.runId}`);
    await expect(page.locator('[data-overall]')).toBeVisible();
    // The rows come a slice per task; all of them, in the end.
    await expect(page.locator('.compare-table tbody tr[data-row-id]')).toHaveCount(comparison.changes.length);
    await expect(page.locator('#compare-index')).toBeHidden();
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number }).shifts);
    expect(shifts).toBeLessThan(0.01);
  });
}

test('an unknown pair shows why, and the index comes back', async ({ page }) => {
  await page.goto('./compare/?a=no-such-run&b=other-run');
  await expect(page.getByRole('alert')).toContainText('No comparison');
  await expect(page.locator('#compare-index')).toBeVisible();
});
