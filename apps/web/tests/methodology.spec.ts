import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { latestFixture, screenshotDir } from './fixtures';

test('the methodology page is generated from the latest manifest', async ({ page }) => {
  const { manifest, runId } = latestFixture();
  await page.goto('./');
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Methodology' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How the scorecard is measured');
  await expect(page.getByRole('link', { name: runId })).toBeVisible();
  for (const key of Object.keys(manifest.settings)) {
    await expect(page.locator(`tr[data-setting="${key}"]`)).toHaveCount(1);
  }
  await expect(page.getByText(manifest.machine.cpuModel)).toBeVisible();
  await expect(page.getByText(manifest.gitRevision, { exact: true })).toBeVisible();
  const command = page.locator('pre.command');
  await expect(command).toContainText(`git checkout ${manifest.gitRevision}`);
  await expect(command).toContainText('npm install && npm run bench --');
  await expect(command).toContainText(`--rate ${String(manifest.settings.rate)}`);
  await expect(command).toContainText(`--margin ${String(manifest.settings.tieMargin)}`);
  await expect(command).toContainText(`--families '*'`);
  // The rules quote the run's own margin: 1 + tieMargin as the WIN threshold.
  await expect(page.locator('ol.rules')).toContainText((1 + Number(manifest.settings.tieMargin)).toFixed(3));
  await expect(
    page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Methodology' }),
  ).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: join(screenshotDir, 'methodology.png'), fullPage: true });
});
