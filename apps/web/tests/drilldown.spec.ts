import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RowResult } from '../lib/definitions';
import { formatMs } from '../lib/format';
import { chartSvg, countMarks, latestFixture, rowPath, screenshotDir } from './fixtures';

function rowOf(predicate: (row: RowResult) => boolean, what: string): RowResult {
  const row = latestFixture().rows.find(predicate);
  if (!row) throw new Error(`fixtures lack ${what}`);
  return row;
}

test('a row page draws both engines’ latency distribution and timeline, with p99.9', async ({ page }) => {
  const row = rowOf(
    (r) => r.candidate.timeline !== undefined && r.candidate.saturated === true,
    'a saturated row',
  );
  await page.goto(rowPath(latestFixture(), row.id));
  await expect(page.locator('picture[data-chart="ecdf"] img')).toBeVisible();
  await expect(page.locator('picture[data-chart="timeline"] img')).toBeVisible();
  // One line per engine in the ECDF; p50 and p99 per engine over time.
  expect(countMarks(await chartSvg(page, 'ecdf'), 'mark-line')).toBe(2);
  expect(countMarks(await chartSvg(page, 'timeline'), 'mark-line')).toBe(4);
  await expect(page.locator('picture[data-chart="ecdf"] img')).toHaveAttribute(
    'alt',
    /latency distribution/i,
  );
  const p999 = page.locator('table.side-stats tr[data-stat="p99.9"] td');
  await expect(p999).toHaveText([
    formatMs(row.candidate.p999 as number),
    formatMs(row.baseline.p999 as number),
  ]);
  // The saturation reason is spelled out under the caveats.
  const saturated = page.locator('.marker-list li[data-marker="saturated"]');
  await expect(saturated).toContainText(row.candidate.saturationReason as string);
  await page.screenshot({ path: join(screenshotDir, 'row-drilldown.png'), fullPage: true });
});

test('each caveat appears on its row page in words', async ({ page }) => {
  const cases: { row: RowResult; marker: string; text: RegExp }[] = [
    {
      row: rowOf((r) => r.baseline.collapsed === true, 'a collapsed side'),
      marker: 'collapsed',
      text: /Baseline collapsed/,
    },
    {
      row: rowOf((r) => r.baseline.cache?.suspected === true, 'a cache suspicion'),
      marker: 'cache',
      text: /a cache may flatter it/,
    },
    {
      row: rowOf((r) => r.belowResolution === true, 'a row below resolution'),
      marker: 'below-resolution',
      text: /too small to resolve/,
    },
    {
      row: rowOf((r) => r.remeasured === true, 'a re-measured row'),
      marker: 'remeasured',
      text: /re-measured with \d+ rounds/,
    },
    {
      row: rowOf((r) => r.flaky !== undefined, 'a flaky row'),
      marker: 'flaky',
      text: /flipped \d+ times in the last \d+ runs/,
    },
  ];
  for (const { row, marker, text } of cases) {
    await page.goto(rowPath(latestFixture(), row.id));
    await expect(page.locator(`.marker-list li[data-marker="${marker}"]`), row.id).toContainText(text);
  }
  const remeasured = cases[3]?.row as RowResult;
  await page.goto(rowPath(latestFixture(), remeasured.id));
  await expect(page.locator('.marker-list')).toContainText(`${remeasured.rounds} rounds`);
});

test('a waived LOSE says who waived it, why and until when (scorecards/waivers.json)', async ({ page }) => {
  const waived = rowOf((r) => r.verdict === 'LOSE', 'a LOSE row');
  await page.goto(rowPath(latestFixture(), waived.id));
  const item = page.locator('.marker-list li[data-marker="waived"]');
  await expect(item).toContainText('until 2026-12-31 (fixture-owner)');
  await expect(item).toContainText('<b>bold?</b>');
});

test('an N/A row links to the full diff the run kept, and the file is served', async ({ page, request }) => {
  const row = rowOf((r) => r.diffPath !== undefined, 'a row with a diff');
  await page.goto(rowPath(latestFixture(), row.id));
  const link = page.getByRole('link', { name: 'Full diff of the two responses' });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute('href')) as string;
  expect(href).toMatch(new RegExp(`/runs/${latestFixture().runId}/${row.diffPath}$`));
  const response = await request.get(href);
  expect(response.status()).toBe(200);
  expect(await response.text()).toContain('hits.total');
});

test('the home table marks flaky, below-resolution and collapsed rows in words', async ({ page }) => {
  const latest = latestFixture();
  await page.goto('./');
  const expected: [string, (row: RowResult) => boolean][] = [
    ['flaky', (row) => row.flaky !== undefined],
    ['below-resolution', (row) => row.belowResolution === true],
    ['collapsed', (row) => row.candidate.collapsed === true || row.baseline.collapsed === true],
  ];
  for (const [marker, has] of expected) {
    const ids = latest.rows.filter(has).map((row) => row.id);
    expect(ids.length, marker).toBeGreaterThan(0);
    const marked = page.locator(`table.score-table tr:has([data-marker="${marker}"])`);
    expect(await marked.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')))).toEqual(ids);
  }
  await expect(page.locator('table.score-table [data-marker="flaky"]').first()).toHaveAttribute(
    'title',
    /flipped/,
  );
});

test('the floor is on the methodology page and in the run facts; older runs without it still render', async ({
  page,
}) => {
  const latest = latestFixture();
  const floor = latest.floor;
  if (!floor) throw new Error('the newest fixture has a floor');
  await page.goto('./methodology/');
  const table = page.locator('table[data-table="floor"]');
  await expect(table.locator('td')).toHaveText([
    formatMs(floor.p50),
    formatMs(floor.p99),
    formatMs(floor.sendLagP50),
    formatMs(floor.sendLagP99),
  ]);
  await page.goto('./');
  await expect(page.locator('[data-fact="floor"]')).toContainText(`p50 ${formatMs(floor.p50)}`);
  const [oldest] = (await import('./fixtures'))
    .fixtureScorecards()
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  if (!oldest || oldest.floor) throw new Error('the oldest fixture predates the floor');
  await page.goto(`./runs/${oldest.runId}/`);
  // The run page is drawn from its run.json: wait for its rows before looking for what it lacks.
  await expect(page.locator('tbody tr[data-row-id]')).toHaveCount(oldest.rows.length);
  await expect(page.locator('[data-fact="floor"]')).toHaveCount(0);
});
