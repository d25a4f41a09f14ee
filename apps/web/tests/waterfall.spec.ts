import { expect, test } from '@playwright/test';
import { formatPartMs } from '../lib/waterfall-chart';
import { fixtureRun, latestFixture, rowPath, screenshotDir, WIDTHS } from './fixtures';

/**
 * "Where the time goes" on a row page: each engine's p50 and p99 split into parts, drawn and
 * tabulated, for a run that recorded it; nothing for a card from before the harness did.
 */
function waterfallRow() {
  const row = latestFixture().rows.find((r) => r.id === 'query.term');
  if (!row?.candidate.waterfall || !row.baseline.waterfall) throw new Error('fixtures lack a waterfall');
  return row;
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a row page shows where the time goes, as charts and a table, without widening the page', async ({
      page,
    }) => {
      const row = waterfallRow();
      await page.goto(rowPath(latestFixture(), row.id));
      const section = page.locator('section[data-waterfall]');
      await expect(section.getByRole('heading', { level: 2, name: 'Where the time goes' })).toBeVisible();
      const narrow = viewport.width <= 640;
      for (const quantile of ['p50', 'p99']) {
        const img = section.locator(`picture[data-chart="waterfall-${quantile}"] img`);
        await img.scrollIntoViewIfNeeded();
        await expect(img).toHaveAttribute('alt', new RegExp(`${quantile} latency goes`));
        // Drawn, in the drawing that suits the width.
        await expect
          .poll(() =>
            img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth),
          )
          .toBeGreaterThan(0);
        const src = await img.evaluate((el) => (el as HTMLImageElement).currentSrc);
        expect(src).toMatch(narrow ? /waterfall-\w+\.narrow\.svg$/ : /waterfall-\w+\.svg$/);
        if (!narrow) expect(src).not.toMatch(/\.narrow\.svg$/);
      }
      const table = section.getByRole('table', { name: /each part in milliseconds/i });
      await expect(table).toBeVisible();
      // Columns: p50 candidate, p50 baseline, p99 candidate, p99 baseline.
      const { candidate, baseline } = row;
      const cells = (part: string) => table.locator(`tr[data-part="${part}"] td`);
      await expect(cells('Latency (band mean)')).toHaveText([
        formatPartMs(candidate.waterfall?.p50.latencyMs),
        formatPartMs(baseline.waterfall?.p50.latencyMs),
        formatPartMs(candidate.waterfall?.p99.latencyMs),
        formatPartMs(baseline.waterfall?.p99.latencyMs),
      ]);
      // The baseline's engine part is its took: a lower bound, and the note says why.
      await expect(cells('Engine').nth(1)).toHaveText(`≥ ${formatPartMs(baseline.waterfall?.p50.engineMs)}`);
      await expect(cells('napi hop').nth(1)).toHaveText('—');
      await expect(section.locator('[data-waterfall-note]')).toContainText('rounded down');
      // Nothing scrolls sideways: not the page, not the table's frame.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      const frame = section.locator('.table-scroll');
      expect(await frame.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
      await section.screenshot({ path: `${screenshotDir}/row-waterfall-${viewport.width}.png` });
    });
  });
}

test('a row page of a run that recorded no waterfalls has no such section', async ({ page }) => {
  const card = fixtureRun((c) => c.manifest.settings.knn === true);
  const row = card.rows.find((r) => r.id === 'query.term');
  expect(row?.candidate.waterfall ?? row?.baseline.waterfall).toBeUndefined();
  await page.goto(rowPath(card, 'query.term'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The page is a latency row with its other drill-downs: only the waterfall is missing.
  await expect(page.locator('picture[data-chart="ecdf"]')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Where the time goes' })).toHaveCount(0);
  await expect(page.locator('section[data-waterfall], picture[data-chart^="waterfall-"]')).toHaveCount(0);
});
