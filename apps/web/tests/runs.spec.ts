import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Scorecard } from '../lib/definitions';
import { formatDate } from '../lib/format';
import { fixtureScorecards, screenshotDir } from './fixtures';

function oldestFirst(): Scorecard[] {
  return fixtureScorecards().sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/** Row ids whose verdict differs between two runs that both measured them, worked out from the files. */
function flippedIds(before: Scorecard, after: Scorecard): string[] {
  return after.rows
    .filter((row) => {
      const was = before.rows.find((candidate) => candidate.id === row.id);
      return was !== undefined && was.verdict !== row.verdict;
    })
    .map((row) => row.id);
}

test('the runs page lists every run with its counts', async ({ page }) => {
  const runs = oldestFirst();
  await page.goto('./runs/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Runs');
  const table = page.getByRole('table', { name: /every run, newest first/i });
  const trs = table.locator('tbody tr[data-run-id]');
  expect(await trs.evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-run-id')))).toEqual(
    runs.map((run) => run.runId).reverse(),
  );
  for (const run of runs) {
    const tr = table.locator(`tr[data-run-id="${run.runId}"]`);
    await expect(tr).toContainText(run.manifest.gitRevision.slice(0, 7));
    await expect(tr.locator('td.count-cell')).toHaveText(
      (['WIN', 'LOSE', 'TIE', 'N/A'] as const).map((verdict) => String(run.counts[verdict])),
    );
  }
  await page.screenshot({ path: join(screenshotDir, 'runs.png'), fullPage: true });
});

test('the heatmap marks where a row changed verdict, in words as well as colour', async ({ page }) => {
  const runs = oldestFirst();
  const [first, second] = runs;
  if (!first || !second) throw new Error('need two fixture runs');
  const flipped = flippedIds(first, second);
  expect(flipped.length, 'the fixtures have a flip between the first two runs').toBeGreaterThan(0);
  await page.goto('./runs/');
  const heatmap = page.getByRole('table', { name: /verdict of every row in each run/i });
  for (const rowId of flipped) {
    const was = first.rows.find((row) => row.id === rowId)?.verdict;
    const now = second.rows.find((row) => row.id === rowId)?.verdict;
    const cell = heatmap.locator(`tr[data-row-id="${rowId}"] td.heat-cell`).nth(1);
    await expect(cell).toHaveAttribute('data-changed', 'true');
    await expect(cell).toHaveText(
      new RegExp(`${now?.replace('/', '\\/')} \\(was ${was?.replace('/', '\\/')}\\)`),
    );
  }
  // A row that never changed has no marked cell.
  const steady = runs
    .at(-1)
    ?.rows.find((row) => runs.every((run) => run.rows.find((r) => r.id === row.id)?.verdict === row.verdict));
  if (!steady) throw new Error('fixtures lack a row with a steady verdict');
  await expect(heatmap.locator(`tr[data-row-id="${steady.id}"] td[data-changed]`)).toHaveCount(0);
});

test('a run page shows that run’s own table', async ({ page }) => {
  const [oldest] = oldestFirst();
  if (!oldest) throw new Error('no fixture runs');
  await page.goto('./runs/');
  await page.getByRole('link', { name: formatDate(oldest.createdAt) }).click();
  await expect(page.getByText(oldest.runId, { exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: new RegExp(`every row of run ${oldest.runId}`, 'i') });
  await expect(table.locator('tbody tr[data-row-id]')).toHaveCount(oldest.rows.length);
  await expect(page.getByTestId('count-LOSE-value')).toHaveText(String(oldest.counts.LOSE));
  await page.screenshot({ path: join(screenshotDir, 'run.png'), fullPage: true });
});

test('the compare view lists flipped rows first', async ({ page }) => {
  const runs = oldestFirst();
  const after = runs.at(-1);
  const before = runs.at(-2);
  if (!after || !before) throw new Error('need two fixture runs');
  const flipped = flippedIds(before, after);
  expect(flipped.length, 'the fixtures have a flip between the last two runs').toBeGreaterThan(0);
  await page.goto('./runs/');
  await page
    .locator(`tr[data-run-id="${after.runId}"]`)
    .getByRole('link', { name: 'vs previous run' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/compare/${before.runId}/${after.runId}/$`));
  const table = page.getByRole('table', { name: /every row of either run/i });
  const dataRows = table.locator('tbody tr[data-row-id]');
  const order = await dataRows.evaluateAll((trs) =>
    trs.map((tr) => ({ id: tr.getAttribute('data-row-id'), kind: tr.getAttribute('data-kind') })),
  );
  expect(order.slice(0, flipped.length).map((row) => row.kind)).toEqual(flipped.map(() => 'flipped'));
  expect(
    order
      .slice(0, flipped.length)
      .map((row) => row.id)
      .sort(),
  ).toEqual([...flipped].sort());
  expect(order.slice(flipped.length).some((row) => row.kind === 'flipped')).toBe(false);
  await expect(page.getByTestId('changes-flipped')).toContainText(String(flipped.length));
  const first = flipped[0] as string;
  const tr = table.locator(`tr[data-row-id="${first}"]`);
  await expect(tr.locator('.badge').nth(0)).toHaveText(
    new RegExp(`${before.rows.find((row) => row.id === first)?.verdict.replace('/', '\\/')}$`),
  );
  await expect(tr.locator('.badge').nth(1)).toHaveText(
    new RegExp(`${after.rows.find((row) => row.id === first)?.verdict.replace('/', '\\/')}$`),
  );
  await page.screenshot({ path: join(screenshotDir, 'compare.png'), fullPage: true });
});

test('the compare picker and ?a=&b= links reach the pre-rendered pairs', async ({ page }) => {
  const [oldest, middle, newest] = oldestFirst();
  if (!oldest || !middle || !newest) throw new Error('need three fixture runs');
  await page.goto(`./compare/?a=${oldest.runId}&b=${middle.runId}`);
  await expect(page).toHaveURL(new RegExp(`/compare/${oldest.runId}/${middle.runId}/$`));
  await page.getByRole('combobox', { name: 'Compare' }).selectOption({ index: 0 });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`/compare/${middle.runId}/${newest.runId}/$`));
  // Only consecutive runs are pre-rendered: any other pair says so instead of showing nothing.
  await page.goto(`./compare/?a=${oldest.runId}&b=${newest.runId}`);
  await expect(page.locator('p.notice[role="alert"]')).toContainText('no comparison page');
  await expect(page.locator('.pair-list li')).toHaveCount(2);
  await page.screenshot({ path: join(screenshotDir, 'compare-index.png'), fullPage: true });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the runs list, heatmap and comparisons are in the HTML', async ({ page }) => {
    const runs = oldestFirst();
    await page.goto('./runs/');
    await expect(page.locator('table.heatmap tbody tr[data-row-id]')).not.toHaveCount(0);
    await expect(page.locator('table.heatmap td[data-changed="true"]').first()).toBeVisible();
    await page.locator('table.heatmap td[data-changed="true"] a').first().click();
    await expect(page.locator('tbody[data-kind="flipped"] tr[data-row-id]').first()).toBeVisible();
    // The picker needs JavaScript, so it is not drawn; the index lists every pair as a link instead.
    await expect(page.getByRole('combobox', { name: 'Compare' })).toHaveCount(0);
    await page.goto('./compare/');
    await expect(page.locator('.pair-list a')).toHaveCount(runs.length - 1);
  });
});
