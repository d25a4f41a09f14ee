import { expect, test } from '@playwright/test';
import { fixtureLines, fixtureSets, WIDTHS } from './fixtures';

/**
 * Sets that compare: a set's name is its corpus and size, its options are chips; the sizes of one
 * set of options form a scaling line (200k → 2M → 20M here), named by its sizes, with a page that
 * lays the sizes side by side; a list of client counts never reads as a decimal.
 */
for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the picker shows one line per set of options, its sizes in order, options as chips', async ({
      page,
    }) => {
      const [line, knnLine] = fixtureLines();
      if (!line || !knnLine) throw new Error('the fixtures need two lines');
      await page.goto('./');
      const picker = page.locator('.set-picker');
      const sizes = picker.locator(`[data-line="${line.slug}"] .line-sizes a`);
      await expect(sizes).toHaveCount(3);
      expect(await sizes.evaluateAll((links) => links.map((a) => a.firstChild?.textContent))).toEqual([
        '200k',
        '2M',
        '20M',
      ]);
      const knn = picker.locator(`[data-line="${knnLine.slug}"]`);
      await expect(knn.locator('.chip')).toHaveText(['kNN, 5,000 vectors', 'ingest at 1 and 8 clients']);
      await expect(picker).not.toContainText('1,8');
      await expect(picker.locator(`[data-line-link="${line.slug}"]`)).toHaveText(
        '200k → 2M → 20M side by side',
      );
      // The sets of one corpus and size differ only in their chips: the name stays corpus and size.
      const [plain, withKnn] = fixtureSets();
      await page.goto(`./sets/${withKnn?.slug}/`);
      await expect(page.locator('.hero .chips .chip')).toHaveText([
        'kNN, 5,000 vectors',
        'ingest at 1 and 8 clients',
      ]);
      await page.goto(`./sets/${plain?.slug}/`);
      await expect(page.locator('.hero .chips .chip')).toHaveText(['ingest at 1, 2, 4 and 8 clients']);
    });

    test('a scaling line lays its sizes side by side, each cell opening the row at that size', async ({
      page,
    }) => {
      const [line] = fixtureLines();
      if (!line) throw new Error('no line');
      await page.goto('./');
      await page.locator(`[data-line-link="${line.slug}"]`).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('logs-zipf: 200k → 2M → 20M');
      const table = page.locator('table.line-table');
      await expect(table.locator('thead th.num')).toHaveText(['200k', '2M', '20M']);
      const cells = table.locator('tr[data-row-id="query.term"] td a');
      await expect(cells).toHaveCount(3);
      for (const [index, set] of line.sets.entries()) {
        await expect(cells.nth(index)).toHaveAttribute(
          'href',
          new RegExp(`/sets/${set.slug}/rows/query\\.term/$`),
        );
        // On screen without scrolling sideways.
        const box = await cells.nth(index).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      }
    });
  });
}
