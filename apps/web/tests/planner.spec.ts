import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEFAULT_PLANNER_INPUT } from '../components/capacity-planner';
import { answerFor, type PlannerInput } from '../lib/planner';
import { plannerData } from '../lib/planner-data';
import { latestFixture, screenshotDir } from './fixtures';

for (const width of [1440, 390]) {
  test(`the capacity planner answers per engine and family, live, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const data = plannerData(latestFixture());
    if (!data) throw new Error('the fixture run has no sweeps');
    await page.goto('./throughput/');
    const planner = page.locator('[data-planner-app]');
    await expect(planner.getByRole('heading', { name: 'Capacity planner' })).toBeVisible();
    const rows = planner.locator('table[data-table="planner"] tbody tr');
    await expect(rows).toHaveCount(data.families.length * 2);

    const expectAnswers = async (input: PlannerInput) => {
      for (const family of data.families)
        for (const engine of ['candidate', 'baseline'] as const) {
          const want = answerFor(family[engine], input, data.maxFailure);
          const row = planner.locator(`tr[data-family="${family.family}"][data-engine="${engine}"]`);
          await expect(row, `${family.family} ${engine}`).toHaveAttribute('data-holds', want.holds);
          if (want.cores !== undefined)
            await expect(row.locator('td[data-label="Cores busy"]')).toContainText(want.cores.toFixed(2));
        }
    };
    await expectAnswers(DEFAULT_PLANNER_INPUT);
    // The figures it used are on the page.
    await expect(planner.locator('[data-planner-figures="term"]')).toContainText('query.term');
    await expect(planner).toContainText("Little's law");

    // Live: a rate above every offered one is beyond what was measured, never a yes.
    await planner.getByLabel('Requests per second').fill('100000');
    await expectAnswers({ rate: 100000, p99Ms: DEFAULT_PLANNER_INPUT.p99Ms });
    await expect(planner.locator('tr[data-holds="yes"]')).toHaveCount(0);
    await planner.getByLabel('Requests per second').fill('150');
    await planner.getByLabel('p99 target (ms)').fill('2');
    await expectAnswers({ rate: 150, p99Ms: 2 });
    await planner.getByLabel('p99 target (ms)').fill('0');
    await expect(planner.getByRole('alert')).toHaveText('Enter a p99 target above 0 ms.');

    await planner.getByLabel('p99 target (ms)').fill('50');
    // On a phone the table reflows: nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await planner.screenshot({ path: join(screenshotDir, `planner-${width}.png`) });
  });
}
