import { expect, test } from '@playwright/test';
import {
  hiddenBehindScroll,
  latestFixture,
  mainSeries,
  rowPath,
  screenshotDir,
  setOf,
  WIDTHS,
} from './fixtures';

/**
 * The first screen answers before anything asks: who wins and by how much, on what and where,
 * then every row at a glance (one cell per row, linking to it), and only then the pickers. Wide
 * tables fit: nothing hides behind a sideways scroll at 1,440 px, and on a phone every cell, the
 * baseline's included, is on screen.
 */
for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the headline comes first, on the first screen, before any picker', async ({ page }) => {
      const latest = latestFixture();
      await page.goto('./');
      const claim = page.getByRole('heading', { level: 1 });
      await expect(claim).toHaveText(/^everycell is \d+\.\d\d× (faster|slower) than OpenSearch 2\.19\.1$/);
      const where = page.locator('[data-headline="where"]');
      await expect(where).toContainText(latest.manifest.corpus.name);
      await expect(where).toContainText('200,000 docs');
      await expect(where).toContainText(latest.manifest.machine.cpuModel);
      for (const block of [claim, where, page.getByTestId('count-WIN')]) {
        const box = await block.boundingBox();
        expect(box && box.y + box.height).toBeLessThanOrEqual(viewport.height);
      }
      const grid = await page.locator('.overview-grid').boundingBox();
      const picker = await page.locator('.set-picker').boundingBox();
      const claimBox = await claim.boundingBox();
      if (!grid || !picker || !claimBox) throw new Error('the home page lacks its parts');
      expect(claimBox.y).toBeLessThan(picker.y);
      expect(grid.y).toBeLessThan(picker.y);
      // The grid starts on the first screen; on a laptop all of it is there.
      expect(grid.y).toBeLessThan(viewport.height);
      if (viewport.width >= 1000) expect(grid.y + grid.height).toBeLessThanOrEqual(viewport.height);
      await page.screenshot({ path: `${screenshotDir}/first-screen-${viewport.width}.png` });
    });

    test('the overview grid has one cell per row, coloured by verdict, each naming and opening its row', async ({
      page,
    }) => {
      const latest = latestFixture();
      await page.goto('./');
      const cells = page.locator('.overview-grid a.overview-cell');
      await expect(cells).toHaveCount(latest.rows.length);
      for (const row of latest.rows) {
        const cell = page.locator(`.overview-grid a[data-row-id="${row.id}"]`);
        await expect(cell).toHaveAttribute('data-verdict', row.verdict);
        await expect(cell).toHaveAccessibleName(
          new RegExp(`\\(${row.id.replace('.', '\\.')}\\): ${row.verdict.replace('/', '\\/')}`),
        );
        await expect(cell).toHaveAttribute('href', new RegExp(`/rows/${row.id.replace('.', '\\.')}/$`));
      }
      const lose = latest.rows.find((row) => row.verdict === 'LOSE');
      const win = latest.rows.find((row) => row.verdict === 'WIN');
      const colour = (id: string) =>
        page
          .locator(`.overview-grid a[data-row-id="${id}"]`)
          .evaluate((a) => getComputedStyle(a).backgroundColor);
      expect(await colour(lose?.id as string)).not.toBe(await colour(win?.id as string));
      await page.locator(`.overview-grid a[data-row-id="query.term"]`).click();
      await expect(page).toHaveURL(new RegExp(`/sets/${setOf(latest)}/rows/query\\.term/$`));
    });

    test('long reasons sit behind a disclosure, closed until opened', async ({ page }) => {
      const latest = latestFixture();
      await page.goto('./');
      const reasons = page.locator('table.run-table td.reason');
      await expect(reasons).toHaveCount(latest.rows.length);
      await expect(page.locator('table.run-table td.reason details.reason-details')).toHaveCount(
        latest.rows.length,
      );
      await expect(page.locator('table.run-table td.reason details[open]')).toHaveCount(0);
      const long = latest.rows.reduce((a, b) => (a.reason.length > b.reason.length ? a : b));
      const cell = page.locator(`tr[data-row-id="${long.id}"] td.reason`);
      const closed = (await cell.boundingBox())?.height ?? 0;
      await cell.locator('summary').click();
      await expect(cell.locator('details')).toHaveAttribute('open', '');
      expect((await cell.boundingBox())?.height ?? 0).toBeGreaterThan(closed);
    });

    test('no table hides a column behind a sideways scroll; on a phone the baseline is on screen', async ({
      page,
    }) => {
      const latest = latestFixture();
      const [, before, after] = mainSeries();
      const pages = [
        './',
        rowPath(latest, 'query.term'),
        `./runs/${before?.runId}/`,
        `./compare/?a=${before?.runId}&b=${after?.runId}`,
        './runs/',
        './throughput/',
        './methodology/',
      ];
      for (const path of pages) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expect(page.locator('h1').first()).toBeVisible();
        if (path.startsWith('./runs/2') || path.startsWith('./compare/?')) {
          await expect(page.locator('tbody tr[data-row-id]').first()).toBeVisible();
        }
        if (viewport.width >= 1000) expect(await hiddenBehindScroll(page), path).toEqual([]);
        // Every baseline cell is inside the screen, not off its right edge.
        const outside = await page.locator('td[data-label^="Baseline"]').evaluateAll(
          (cells, width) =>
            cells
              .filter((cell) => (cell as HTMLElement).offsetParent !== null)
              .map((cell) => cell.getBoundingClientRect())
              .filter((box) => box.right > width + 1 || box.left < 0).length,
          viewport.width,
        );
        expect(outside, path).toBe(0);
      }
    });
  });
}
