import { expect, test } from '@playwright/test';
import { geometricMean, isReadRow } from '../lib/headline';
import { latestFixture } from './fixtures';

test('the home headline: geometric mean, CPU, conformance, the rows that did not win, every row charted', async ({
  page,
}) => {
  const latest = latestFixture();
  await page.goto('./');
  const ratios = latest.rows
    .filter((row) => isReadRow(row) && row.ratio !== undefined)
    .map((row) => row.ratio as number);
  const geomean = geometricMean(ratios) as number;
  const block = page.locator('[data-headline="geomean"]');
  await expect(block).toContainText(`${geomean.toFixed(2)}×`);
  await expect(block).toContainText('baseline p50 / candidate p50');
  await expect(page.locator('[data-headline="cpu"]')).toContainText('less CPU');
  const conformance = latest.conformance;
  if (!conformance) throw new Error('the newest fixture carries a conformance summary');
  await expect(page.locator('[data-headline="conformance"]')).toContainText(
    `${conformance.candidatePass} / ${conformance.cases}`,
  );
  for (const verdict of ['LOSE', 'TIE', 'N/A'] as const) {
    const named = page.locator(`[data-not-win="${verdict}"] li`);
    await expect(named).toHaveCount(latest.rows.filter((row) => row.verdict === verdict).length);
  }
  // The chart sits behind a disclosure (the grid above answers at a glance) and loads when opened.
  await page.locator('details.ratios-figure summary').click();
  const chart = page.locator('picture[data-chart="ratios"] img');
  await expect(chart).toBeVisible();
  await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(await chart.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // The CPU column appears with its numbers where the run measured them.
  await expect(page.locator('table.score-table thead')).toContainText('CPU per request');
});

test('each run offers its files, without the build machine’s paths, and a status badge', async ({
  page,
  request,
}) => {
  await page.goto('./runs/2026-11-18T02-10-04Z-3f9c2ab/');
  const links = page.locator('.downloads a');
  await expect(links).toHaveText([
    'scorecard.json',
    'rows.csv',
    'runs.parquet',
    'rows.parquet',
    'distributions.parquet',
    'quantiles.parquet',
  ]);
  const json = await (await request.get((await links.nth(0).getAttribute('href')) as string)).text();
  expect(JSON.parse(json).runId).toBe('2026-11-18T02-10-04Z-3f9c2ab');
  expect(json).not.toContain('/home/runner');
  const csv = await (await request.get((await links.nth(1).getAttribute('href')) as string)).text();
  expect(csv.split('\n')[0]).toMatch(/^id,group,family,title/);
  // Parquet files begin and end with the magic bytes "PAR1".
  const parquet = await (await request.get((await links.nth(3).getAttribute('href')) as string)).body();
  expect(parquet.subarray(0, 4).toString()).toBe('PAR1');
  expect(parquet.subarray(-4).toString()).toBe('PAR1');
  const badge = await request.get('./badge.svg');
  expect(badge.headers()['content-type']).toContain('image/svg+xml');
  expect(await badge.text()).toContain(`WIN ${latestFixture().counts.WIN}`);
});
