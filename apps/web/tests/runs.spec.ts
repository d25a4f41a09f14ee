import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Scorecard } from '../lib/definitions';
import { formatDate } from '../lib/format';
import { fixtureScorecards, mainSeries, screenshotDir, setOf } from './fixtures';

/** Row ids whose verdict differs between two runs that both measured them, worked out from the files. */
function flippedIds(before: Scorecard, after: Scorecard): string[] {
  return after.rows
    .filter((row) => {
      const was = before.rows.find((candidate) => candidate.id === row.id);
      return was !== undefined && was.verdict !== row.verdict;
    })
    .map((row) => row.id);
}

const big = () => fixtureScorecards().find((card) => card.manifest.corpus.docs === 2_000_000) as Scorecard;

test('the runs page lists every run in its comparable set, with its counts', async ({ page }) => {
  const runs = mainSeries();
  await page.goto('./runs/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Runs');
  const table = page.locator(`section[data-set="${setOf(runs[0] as Scorecard)}"] table`);
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
  // The 2M run is in a set of its own, and "vs previous run" never crosses sets.
  const other = page.locator(`section[data-set="${setOf(big())}"]`);
  await expect(other.locator('tbody tr[data-run-id]')).toHaveCount(1);
  await expect(other.locator('h2')).toHaveText('logs-zipf, 2,000,000 docs');
  await expect(other.getByText('first run of the set')).toBeVisible();
  const middle = runs[1] as Scorecard;
  await expect(
    table.locator(`tr[data-run-id="${middle.runId}"]`).getByRole('link', { name: 'vs previous run' }),
  ).toHaveAttribute('href', new RegExp(`/compare/\\?a=${(runs[0] as Scorecard).runId}&b=${middle.runId}$`));
  await page.screenshot({ path: join(screenshotDir, 'runs.png'), fullPage: true });
});

test('the heatmap of a set marks where a row changed verdict, in words as well as colour', async ({
  page,
}) => {
  const runs = mainSeries();
  const [first, second] = runs;
  if (!first || !second) throw new Error('need two fixture runs');
  const flipped = flippedIds(first, second);
  expect(flipped.length, 'the fixtures have a flip between the first two runs').toBeGreaterThan(0);
  await page.goto(`./sets/${setOf(first)}/runs/`);
  const heatmap = page.getByRole('table', { name: /verdict of every row in each run/i });
  // Only this set's runs are columns.
  await expect(heatmap.locator('thead th.heat-run')).toHaveCount(runs.length);
  for (const rowId of flipped) {
    const was = first.rows.find((row) => row.id === rowId)?.verdict;
    const now = second.rows.find((row) => row.id === rowId)?.verdict;
    const cell = heatmap.locator(`tr[data-row-id="${rowId}"] td`).nth(1);
    await expect(cell).toHaveAttribute('data-changed', 'true');
    await expect(cell).toHaveText(
      new RegExp(`${now?.replace('/', '\\/')} \\(was ${was?.replace('/', '\\/')}\\)`),
    );
  }
  const steady = runs
    .at(-1)
    ?.rows.find((row) => runs.every((run) => run.rows.find((r) => r.id === row.id)?.verdict === row.verdict));
  if (!steady) throw new Error('fixtures lack a row with a steady verdict');
  await expect(heatmap.locator(`tr[data-row-id="${steady.id}"] td[data-changed]`)).toHaveCount(0);
});

test('a run page shows that run’s own table and names its corpus, size, baseline and commit', async ({
  page,
}) => {
  const [oldest] = mainSeries();
  if (!oldest) throw new Error('no fixture runs');
  await page.goto('./runs/');
  await page.getByRole('link', { name: formatDate(oldest.createdAt) }).click();
  await expect(page.getByText(oldest.runId, { exact: true })).toBeVisible();
  await expect(page.locator('[data-headline="where"]')).toContainText('200,000 docs');
  await expect(page.locator('[data-headline="where"]')).toContainText(
    oldest.manifest.gitRevision.slice(0, 7),
  );
  const table = page.getByRole('table', { name: new RegExp(`every row of run ${oldest.runId}`, 'i') });
  await expect(table.locator('tbody tr[data-row-id]')).toHaveCount(oldest.rows.length);
  await expect(page.getByTestId('count-LOSE-value')).toHaveText(String(oldest.counts.LOSE));
  await page.screenshot({ path: join(screenshotDir, 'run.png'), fullPage: true });
});

test('the compare view lists flipped rows first and names both commits and sizes', async ({ page }) => {
  const runs = mainSeries();
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
  await expect(page).toHaveURL(new RegExp(`/compare/\\?a=${before.runId}&b=${after.runId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(after.manifest.gitRevision.slice(0, 7));
  await expect(page.locator(`[data-compare-run="${before.runId}"]`)).toContainText('200,000 docs');
  const table = page.getByRole('table', { name: /every row of either run/i });
  const order = await table
    .locator('tbody tr[data-row-id]')
    .evaluateAll((trs) =>
      trs.map((tr) => ({ id: tr.getAttribute('data-row-id'), kind: tr.getAttribute('data-kind') })),
    );
  expect(order.slice(0, flipped.length).map((row) => row.kind)).toEqual(flipped.map(() => 'flipped'));
  expect(
    order
      .slice(0, flipped.length)
      .map((row) => row.id)
      .sort(),
  ).toEqual([...flipped].sort());
  await expect(page.getByTestId('changes-flipped')).toContainText(String(flipped.length));
  await page.screenshot({ path: join(screenshotDir, 'compare.png'), fullPage: true });
});

test('any two comparable runs compare from the URL; runs of different sets are refused', async ({ page }) => {
  const [oldest, middle, newest] = mainSeries();
  if (!oldest || !middle || !newest) throw new Error('need three fixture runs');
  // Any pair of one set is drawn from the two runs' rows, whatever order they are given in.
  await page.goto(`./compare/?a=${newest.runId}&b=${oldest.runId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    newest.manifest.gitRevision.slice(0, 7),
  );
  await expect(page.locator(`[data-compare-run="${oldest.runId}"]`)).toContainText('Earlier:');
  const flipped = flippedIds(oldest, newest);
  await expect(page.getByTestId('changes-flipped')).toContainText(String(flipped.length));
  // The picker offers only runs of the chosen set and writes the choice into the URL.
  await page.getByRole('combobox', { name: 'Earlier run' }).selectOption(middle.runId);
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(new RegExp(`/compare/\\?a=${middle.runId}&b=${newest.runId}$`));
  // 200k against 2M: the same commit, but not comparable.
  await page.goto(`./compare/?a=${big().runId}&b=${middle.runId}`);
  await expect(page.locator('p.notice[role="alert"]')).toContainText('are not comparable');
  await page.screenshot({ path: join(screenshotDir, 'compare-index.png'), fullPage: true });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the runs list and heatmap are in the HTML, and link the comparisons', async ({ page }) => {
    const runs = mainSeries();
    await page.goto(`./sets/${setOf(runs[0] as Scorecard)}/runs/`);
    await expect(page.locator('table.heatmap tbody tr[data-row-id]')).not.toHaveCount(0);
    await expect(page.locator('table.heatmap td[data-changed="true"] a').first()).toHaveAttribute(
      'href',
      /\/compare\/\?a=[^&]+&b=/,
    );
    await expect(page.locator('table.runs-table tbody tr[data-run-id]')).toHaveCount(runs.length);
    // Drawing a comparison needs JavaScript; the index lists each set's newest pairs as links.
    await page.goto('./compare/');
    await expect(page.locator('.pair-list a')).toHaveCount(runs.length - 1);
  });
});
