import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { latestFixture, screenshotDir } from './fixtures';

/**
 * Filters and sort of the home table live in the URL, so every view is a permalink. The table is
 * the server's HTML; the controls move and hide its rows, so tests count the rows on screen.
 */

test('a filter changes the visible rows and the URL', async ({ page }) => {
  const latest = latestFixture();
  const loses = latest.rows.filter((row) => row.verdict === 'LOSE');
  expect(loses.length, 'the fixtures have LOSE rows').toBeGreaterThan(0);
  await page.goto('./');
  const rows = page.locator('table.score-table tbody tr[data-row-id]:visible');
  await expect(rows).toHaveCount(latest.rows.length);

  await page.getByRole('combobox', { name: 'Verdict' }).selectOption('LOSE');
  await expect(rows).toHaveCount(loses.length);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')))).toEqual(
    loses.map(() => 'LOSE'),
  );
  await expect(page).toHaveURL(/\?verdict=LOSE$/);
  await expect(page.getByText(`Showing ${loses.length} of ${latest.rows.length} rows`)).toBeVisible();

  const term = latest.rows.find((row) => row.id === 'query.term');
  if (!term) throw new Error('fixture row query.term is missing');
  await page.getByRole('combobox', { name: 'Verdict' }).selectOption('');
  await page.getByRole('searchbox', { name: 'Search' }).fill('keyword');
  await expect(page).toHaveURL(/\?q=keyword$/);
  const matching = latest.rows.filter((row) =>
    [row.title, row.id, row.family, row.reason].some((text) => text.toLowerCase().includes('keyword')),
  );
  await expect(rows).toHaveCount(matching.length);

  await page.getByRole('searchbox', { name: 'Search' }).fill('no row is called this');
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('No row matches these filters.')).toBeVisible();

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(rows).toHaveCount(latest.rows.length);
  await expect(page).toHaveURL(/\/$/);
});

test('opening a permalink restores the view: filter and sort', async ({ page }) => {
  const latest = latestFixture();
  await page.goto('./?group=query&sort=ratio-asc');
  await expect(page.getByRole('combobox', { name: 'Group' })).toHaveValue('query');
  await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveValue('ratio-asc');
  const queryRows = latest.rows.filter((row) => row.group === 'query');
  // Worst ratio first; rows without a ratio (N/A) last.
  const expected = [...queryRows]
    .sort((a, b) => {
      if (a.ratio === undefined || b.ratio === undefined) {
        return a.ratio === b.ratio ? a.id.localeCompare(b.id) : a.ratio === undefined ? 1 : -1;
      }
      return a.ratio - b.ratio || a.id.localeCompare(b.id);
    })
    .map((row) => row.id);
  const rows = page.locator('table.score-table tbody tr[data-row-id]:visible');
  await expect(rows).toHaveCount(queryRows.length);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')))).toEqual(expected);
  // Sorted by ratio, the group headings give way to one list.
  await expect(page.locator('table.score-table .group-row:visible')).toHaveCount(0);
  await page.screenshot({ path: join(screenshotDir, 'home-filtered.png'), fullPage: true });
});

test('nonsense in the query string falls back to the full table', async ({ page }) => {
  const latest = latestFixture();
  await page.goto('./?verdict=MAYBE&sort=sideways&group=%3Cscript%3E');
  await expect(page.getByRole('combobox', { name: 'Verdict' })).toHaveValue('');
  await expect(page.locator('table.score-table tbody tr[data-row-id]:visible')).toHaveCount(
    latest.rows.length,
  );
});
