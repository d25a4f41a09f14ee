import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { fixtureLines, latestFixture, mainSeries, rowPath, setOf } from './fixtures';

/** One page of each type; every one must have zero axe violations (WCAG 2.x A and AA rules). */
function pages(): { name: string; path: string }[] {
  const runs = mainSeries();
  const [first, before, after] = runs;
  if (!first || !before || !after) throw new Error('need three fixture runs');
  const latest = latestFixture();
  return [
    { name: 'home', path: './' },
    { name: 'set', path: `./sets/${setOf(latest)}/` },
    { name: 'row', path: rowPath(latest, 'query.term') },
    { name: 'row (N/A)', path: rowPath(latest, 'query.phrase') },
    { name: 'runs', path: './runs/' },
    { name: 'set runs (heatmap)', path: `./sets/${setOf(latest)}/runs/` },
    { name: 'run', path: `./runs/${before.runId}/` },
    { name: 'compare', path: `./compare/?a=${before.runId}&b=${after.runId}` },
    { name: 'compare (any pair)', path: `./compare/?a=${first.runId}&b=${after.runId}` },
    { name: 'compare index', path: './compare/' },
    { name: 'methodology', path: './methodology/' },
    { name: 'throughput', path: './throughput/' },
    { name: 'row (drill-down, caveats)', path: rowPath(latest, 'bucket.terms') },
    { name: 'row (waived, flaky)', path: rowPath(latest, 'query.range') },
    { name: 'row (ingest)', path: rowPath(latest, 'ingest.4-clients') },
    { name: 'row (capacity)', path: rowPath(latest, 'throughput.term') },
    { name: 'scaling line', path: `./scaling/${fixtureLines()[0]?.slug}/` },
    { name: 'row (TIE, tail)', path: rowPath(latest, 'query.fuzzy') },
  ];
}

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

// A few tests, each walking several pages in one tab: a fresh browser context per page costs more
// than the analysis on a busy machine. Failures name the page.
const all = pages();
const GROUPS = 4;
const halves = Array.from({ length: GROUPS }, (_, group) =>
  all.filter((_, index) => index % GROUPS === group),
);
for (const half of halves) {
  test(`axe finds no violations on the ${half.map((entry) => entry.name).join(', ')} pages`, async ({
    page,
  }) => {
    // Axe takes seconds per page on a busy 2-core machine.
    test.setTimeout(120_000);
    const found: Record<string, string[]> = {};
    // Console errors too: a hydration mismatch would show up here, not as a failed request.
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    for (const { name, path } of half) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      found[name] = await violations(page);
    }
    expect(found).toEqual(Object.fromEntries(half.map(({ name }) => [name, []])));
    expect(consoleErrors).toEqual([]);
  });
}

test('axe finds no violations with the filters open and the mismatch details expanded', async ({ page }) => {
  const mismatched = latestFixture().rows.find((row) => row.mismatch);
  if (!mismatched) throw new Error('fixtures lack a mismatch row');
  await page.goto('./?verdict=N%2FA');
  await expect(page.getByRole('combobox', { name: 'Verdict' })).toHaveValue('N/A');
  await page.locator(`tr[data-row-id="${mismatched.id}"]`).getByText('Compare results').click();
  expect(await violations(page)).toEqual([]);
});

test('keyboard: skip link first, then the site navigation, each with a visible focus ring', async ({
  page,
}) => {
  await page.goto('./runs/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: /everycell/ })).toBeFocused();
  await page.keyboard.press('Tab');
  const latestLink = page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Latest run' });
  await expect(latestLink).toBeFocused();
  const outline = await latestLink.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
  });
  expect(outline.style).not.toBe('none');
  expect(outline.width).toBeGreaterThanOrEqual(2);
  await expect(
    page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Runs' }),
  ).toHaveAttribute('aria-current', 'page');
});
