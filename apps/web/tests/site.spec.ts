import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { formatDate } from '../lib/format';
import { VERDICT_ORDER as VERDICTS } from '../lib/prepare';
import { chartSvg, countMarks, latestFixture, mainSeries, rowPath, screenshotDir } from './fixtures';

/** The verdict word of a badge; its glyph is decoration. */
function badgeText(verdict: string): RegExp {
  return new RegExp(`${verdict.replace('/', '\\/')}$`);
}

/** Fails the test on any failed request (a missing favicon, script or stylesheet). */
function recordFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // Next's router cancels its own link prefetches when the page moves on: not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`failed ${request.url()}`);
  });
  page.on('pageerror', (error) => failures.push(`page error ${error.message}`));
  return failures;
}

test('home shows the latest run: headline counts equal the scorecard file', async ({ page }) => {
  const failures = recordFailures(page);
  const latest = latestFixture();
  await page.goto('./');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(latest.manifest.candidate.product);
  await expect(page.locator('.facts')).toContainText(latest.manifest.candidate.version);
  await expect(page.getByText(latest.runId, { exact: true })).toBeVisible();
  for (const verdict of VERDICTS) {
    await expect(page.getByTestId(`count-${verdict}-value`)).toHaveText(String(latest.counts[verdict]));
  }
  await expect(page.locator('.facts')).toContainText(latest.manifest.machine.cpuModel);
  await expect(page.getByText(latest.manifest.baseline.version).first()).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'home.png'), fullPage: true });
  expect(failures).toEqual([]);
});

test('home table has one row per scorecard row, each with its verdict and reason', async ({ page }) => {
  const latest = latestFixture();
  await page.goto('./');
  const table = page.getByRole('table', { name: /every row of the latest run/i });
  const rows = table.locator('tbody tr[data-row-id]');
  await expect(rows).toHaveCount(latest.rows.length);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')))).toEqual(
    expect.arrayContaining(latest.rows.map((row) => row.id)),
  );
  for (const row of latest.rows) {
    const tr = table.locator(`tr[data-row-id="${row.id}"]`);
    await expect(tr.locator('.badge')).toHaveText(badgeText(row.verdict));
    // The reason is written once, behind its disclosure, not repeated in a tooltip.
    await expect(tr.locator('td.reason .reason-details summary')).toHaveText(row.reason);
  }
  const mismatched = latest.rows.find((row) => row.mismatch);
  expect(mismatched, 'the fixtures include an N/A with a mismatch').toBeDefined();
  if (mismatched?.mismatch) {
    const tr = table.locator(`tr[data-row-id="${mismatched.id}"]`);
    await tr.getByText('Compare results').click();
    await expect(tr.getByText(mismatched.mismatch.summary)).toBeVisible();
  }
});

test('a row page shows the trend of the row within its comparable set', async ({ page }) => {
  const failures = recordFailures(page);
  const latest = latestFixture();
  const row = latest.rows.find((candidate) => candidate.id === 'query.term');
  if (!row) throw new Error('fixture row query.term is missing');
  await page.goto('./');
  await page.getByRole('link', { name: row.title }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(row.title);
  // The header names corpus, size, baseline and commit.
  await expect(page.locator('.run-context')).toContainText('200,000 docs');
  await expect(page.locator('.run-context')).toContainText(latest.manifest.gitRevision.slice(0, 7));
  const img = page.locator('figure.trend picture img');
  await expect(img).toBeVisible();
  // The chart decodes asynchronously: visible (its size is in the markup) before it has loaded.
  await expect
    .poll(() => img.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
  // Only the runs of the 200k set: the 2M run of the same commit is not part of this trend.
  const runsWithRow = mainSeries().filter((card) => card.rows.some((r) => r.id === row.id));
  const runsTable = page.getByRole('table', { name: /this row in every run/i });
  await expect(runsTable.locator('tbody tr')).toHaveCount(runsWithRow.length);
  for (const card of runsWithRow) {
    await expect(runsTable.locator(`tr[data-run-id="${card.runId}"] time`)).toHaveText(
      formatDate(card.createdAt),
    );
  }
  // One point and one error bar per run with a ratio; no line between runs.
  const svg = await chartSvg(page, 'trend');
  expect(countMarks(svg, 'mark-symbol')).toBe(runsWithRow.length);
  expect(svg).not.toContain('mark-area');
  await expect(page.locator('[data-ratio-meaning]')).toContainText(
    'baseline p50 / candidate p50: above 1 the candidate is faster',
  );
  await expect(page.getByRole('navigation', { name: 'Rows' }).locator('[aria-current="page"]')).toContainText(
    row.title,
  );
  await page.screenshot({ path: join(screenshotDir, 'row.png'), fullPage: true });
  expect(failures).toEqual([]);
});

test('an N/A row page says so and still lists every run', async ({ page }) => {
  const latest = latestFixture();
  const row = latest.rows.find((candidate) => candidate.verdict === 'N/A' && candidate.mismatch);
  if (!row) throw new Error('fixtures lack an N/A row with a mismatch');
  await page.goto(rowPath(latest, row.id));
  await expect(page.locator('.latest-result .badge')).toHaveText(badgeText('N/A'));
  await expect(page.getByText('No run has a ratio for this row yet')).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'row-na.png'), fullPage: true });
});

test('scorecard text is shown as text, never parsed as HTML', async ({ page }) => {
  const row = latestFixture().rows.find((candidate) => /[<>&]/.test(candidate.title));
  if (!row) throw new Error('fixtures lack a row title with markup characters');
  await page.goto('./');
  const tr = page.locator(`tr[data-row-id="${row.id}"]`);
  await expect(tr.getByRole('link', { name: row.title, exact: true })).toBeVisible();
  await expect(tr.locator('b')).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home table and a row trend are in the HTML', async ({ page }) => {
    const latest = latestFixture();
    await page.goto('./');
    await expect(page.getByTestId('count-LOSE-value')).toHaveText(String(latest.counts.LOSE));
    await expect(page.locator('tbody tr[data-row-id]')).toHaveCount(latest.rows.length);
    await page
      .getByRole('link', { name: latest.rows[0]?.title ?? '' })
      .first()
      .click();
    await expect(page.locator('figure.trend picture img')).toBeVisible();
    await page.screenshot({ path: join(screenshotDir, 'row-no-js.png'), fullPage: true });
  });
});
