import { expect, type Page, test } from '@playwright/test';
import { latestFixture, rowPath, setOf } from './fixtures';

/**
 * The fixtures carry markup in a row title and family, a reason, an error message and a mismatch
 * summary (test/fixtures/make-fixtures.ts). In the built site it must read as text and never run.
 */
function guard(page: Page): string[] {
  const ran: string[] = [];
  page.on('dialog', async (dialog) => {
    ran.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return ran;
}

async function expectNothingRan(page: Page, ran: string[]): Promise<void> {
  expect(ran).toEqual([]);
  expect(await page.title()).not.toBe('pwned');
  // No element came from scorecard text: no stray <img src=x>. Next's inline data scripts carry the
  // same text as JSON; there it must stay escaped (\u003c), never a raw "<script>" or "<img".
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(
    await page.locator('script').evaluateAll((scripts) =>
      scripts
        .map((script) => script.textContent ?? '')
        .filter((text) => /<script>alert|<img src=x/.test(text))
        .map((text) => text.slice(0, 80)),
    ),
  ).toEqual([]);
}

test('hostile row titles, families, reasons and summaries show as text on every page', async ({ page }) => {
  const ran = guard(page);
  const latest = latestFixture();
  const hostile = latest.rows.find((row) => row.title.includes('<img'));
  const mismatched = latest.rows.find((row) => row.mismatch?.summary.includes('<script>'));
  if (!hostile || !mismatched?.mismatch) throw new Error('fixtures lack the hostile rows');

  await page.goto('./');
  const tr = page.locator(`tr[data-row-id="${hostile.id}"]`);
  await expect(tr.getByRole('link', { name: hostile.title, exact: true })).toBeVisible();
  await expect(tr).toContainText(hostile.reason);
  await page.locator(`tr[data-row-id="${mismatched.id}"]`).getByText('Compare results').click();
  await expect(page.getByText(mismatched.mismatch.summary, { exact: true }).first()).toBeVisible();
  await expectNothingRan(page, ran);

  await page.goto(rowPath(latest, hostile.id));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(hostile.title);
  await expect(page.locator('.eyebrow')).toContainText(hostile.family);
  await expectNothingRan(page, ran);

  for (const path of [
    './runs/',
    `./runs/${latest.runId}/`,
    './throughput/',
    './compare/',
    `./sets/${setOf(latest)}/runs/`,
  ]) {
    await page.goto(path);
    await expectNothingRan(page, ran);
  }
});
