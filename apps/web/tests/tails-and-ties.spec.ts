import { expect, test } from '@playwright/test';
import { formatRatio } from '../lib/format';
import { p99Ratio, tailDisagreement, tieMarginOf } from '../lib/tails';
import { latestFixture, rowPath, WIDTHS } from './fixtures';

/**
 * Tails in view: where p50 and p99 point opposite ways the row says so (a marker and the p99
 * column), and the methodology says which quantile decides and why. A TIE with a large ratio says
 * why it is a TIE.
 */
for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('rows whose p50 and p99 disagree are marked, with the p99 ratio beside every read row', async ({
      page,
    }) => {
      const latest = latestFixture();
      const margin = tieMarginOf(latest.manifest.settings);
      const disagree = latest.rows
        .filter((row) => tailDisagreement(row, margin) !== undefined)
        .map((row) => row.id);
      // A WIN with a slower tail and a LOSE with a faster one.
      expect(disagree).toEqual(expect.arrayContaining(['query.term', 'query.bool']));
      await page.goto('./');
      const marked = await page
        .locator('table.run-table tr:has([data-marker="tail"])')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')));
      expect(marked).toEqual(disagree);
      const term = latest.rows.find((row) => row.id === 'query.term');
      if (!term) throw new Error('no query.term');
      await expect(page.locator('tr[data-row-id="query.term"] td[data-p99]')).toHaveText(
        formatRatio(p99Ratio(term)),
      );
      await expect(page.locator('tr[data-row-id="query.term"] [data-marker="tail"]')).toBeVisible();
      await page.goto(rowPath(latest, 'query.term'));
      await expect(page.locator('[data-tail="p99-worse"]')).toContainText(
        'wins on p50, but its p99 is slower',
      );
      await page.goto('./methodology/');
      const rule = page.locator('ol.rules li', { hasText: 'Which quantile decides' });
      await expect(rule).toContainText('judged on the p50');
      await expect(rule).toContainText('p99 disagrees');
    });

    test('a TIE with a large ratio says why it is a TIE', async ({ page }) => {
      const latest = latestFixture();
      const fuzzy = latest.rows.find((row) => row.id === 'query.fuzzy');
      if (!fuzzy?.ci) throw new Error('fixtures lack the wide TIE');
      expect(fuzzy.verdict).toBe('TIE');
      expect(fuzzy.ratio).toBeGreaterThan(3);
      await page.goto('./');
      const item = page.locator('[data-not-win="TIE"] li[data-row-id="query.fuzzy"]');
      await expect(item).toContainText(`${formatRatio(fuzzy.ratio)} — its 99% interval`);
      await expect(item).toContainText('reaches below 1');
      if (viewport.width >= 1000) {
        await expect(page.locator('tr[data-row-id="query.fuzzy"] [data-tie-why]')).toHaveText(
          'interval reaches 1',
        );
      }
      await page.goto(rowPath(latest, 'query.fuzzy'));
      await expect(page.locator('p[data-tie-why]')).toContainText(
        `its 99% interval ${fuzzy.ci[0].toFixed(2)}–${fuzzy.ci[1].toFixed(2)} reaches below 1`,
      );
    });
  });
}
