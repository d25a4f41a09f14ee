import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatSide } from '../lib/format';
import { chartSvg, countMarks, latestFixture, screenshotDir } from './fixtures';

test('the throughput page shows the ingest scaling curve and each rate sweep', async ({ page }) => {
  const latest = latestFixture();
  await page.goto('./');
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Throughput' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How far each engine scales');
  await expect(
    page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Throughput' }),
  ).toHaveAttribute('aria-current', 'page');

  const ingest = latest.rows
    .filter((row) => /^ingest\.\d+-clients?$/.test(row.id))
    .sort((a, b) => Number.parseInt(a.id.slice(7), 10) - Number.parseInt(b.id.slice(7), 10));
  const scaling = page.locator('table[data-table="scaling"] tbody tr');
  expect(await scaling.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')))).toEqual(
    ingest.map((row) => row.id),
  );
  for (const row of ingest) {
    await expect(
      page.locator(`table[data-table="scaling"] tr[data-row-id="${row.id}"] td[data-label="Candidate"]`),
    ).toHaveText(formatSide(row, row.candidate));
  }
  // One point per engine and client count.
  expect(countMarks(await chartSvg(page, 'scaling'), 'mark-symbol')).toBe(ingest.length * 2);

  const sweeps = latest.sweeps ?? [];
  expect(sweeps.length).toBeGreaterThan(0);
  for (const sweep of sweeps) {
    const section = page.locator(`[data-sweep="${sweep.family}"]`);
    await expect(section.locator('table[data-table="sweep"] tbody tr')).toHaveCount(sweep.points.length);
    expect(countMarks(await chartSvg(page, `sweep-${sweep.family}`), 'mark-line')).toBe(4);
    const capacity = latest.rows.find((row) => row.id === sweep.rowId);
    if (!capacity) throw new Error(`no capacity row ${sweep.rowId}`);
    await expect(section.locator('.badge')).toHaveText(
      new RegExp(`${capacity.verdict.replace('/', '\\/')}$`),
    );
  }
  // A capacity at the sweep's highest rate is a lower bound; none sustained is below the lowest rate.
  const terms = page.locator('[data-capacity="terms"]');
  await expect(terms.locator('[data-side="candidate"]')).toHaveAttribute('data-bound', 'at-least');
  await expect(terms.locator('[data-side="candidate"]')).toContainText('at least');
  await expect(terms.locator('[data-side="baseline"]')).toHaveAttribute('data-bound', 'below');
  await expect(terms).toContainText('sustained none of the offered rates');
  await expect(terms).toContainText('no ratio: one side sustained no rate');
  // Disqualified points are explained in words beside the chart.
  await expect(page.locator('[data-sweep="terms"] table[data-table="sweep"]')).toContainText(
    'p99 over the bound',
  );
  await expect(page.locator('[data-notice="no-sweep"]')).toHaveCount(0);
  await page.screenshot({ path: join(screenshotDir, 'throughput.png'), fullPage: true });
});
