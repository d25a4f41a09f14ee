import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { intervalLevel, levelText } from '../lib/interval';
import { lagLimit, NO_CAVEATS, rowMarkers } from '../lib/markers';
import { fixtureRun, latestFixture, rowPath, WIDTHS } from './fixtures';

/**
 * Every label true: the interval's level is the one its run computed, caveats agree with the
 * reason, conformance and calibration are the run's own with their date and scale, and no path of
 * the machine that ran a benchmark is published.
 */
for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('each interval says the level its run computed: 99% for the forks, 95% for the ingest bootstrap', async ({
      page,
    }) => {
      const latest = latestFixture();
      const term = latest.rows.find((row) => row.id === 'query.term');
      const ingest = latest.rows.find((row) => row.id === 'ingest.1-client');
      if (!term || !ingest) throw new Error('fixtures lack query.term or ingest.1-client');
      expect(levelText(intervalLevel(term, latest.manifest.settings) as number)).toBe('99%');
      // The reason the harness wrote and the label agree.
      expect(term.reason).toContain('99% CI');
      expect(ingest.reason).toContain('95% CI');

      await page.goto(rowPath(latest, 'query.term'));
      await expect(page.locator('[data-interval]')).toHaveText(/^99% CI /);
      await expect(page.locator('.latest-result')).not.toContainText('95% CI');
      await page.goto(rowPath(latest, 'ingest.1-client'));
      await expect(page.locator('[data-interval]')).toHaveText(/^95% CI /);

      await page.goto('./');
      await expect(page.locator('tr[data-row-id="query.term"] td.ratio .ci')).toHaveText(/^99% CI /);
      await expect(page.locator('tr[data-row-id="ingest.1-client"] td.ratio .ci')).toHaveText(/^95% CI /);
      await expect(page.locator('table.run-table caption')).toContainText('99% (');
      await expect(page.locator('.site-footer')).not.toContainText('95%');
    });

    test('a reason that says the machine saturated or the row ran on service time has that caveat', async ({
      page,
    }) => {
      const latest = latestFixture();
      for (const [id, marker, words] of [
        ['bucket.date_histogram', 'machine-saturated', 'it saturated the machine'],
        ['query.match', 'service-time', 'scored on service time'],
      ] as const) {
        const row = latest.rows.find((candidate) => candidate.id === id);
        expect(row?.reason).toContain(words);
        await page.goto(rowPath(latest, id));
        await expect(page.locator(`.marker-list li[data-marker="${marker}"]`)).toBeVisible();
        await expect(page.getByText(/^No caveats/)).toHaveCount(0);
      }
      // A row with no caveat says exactly what was checked.
      const plain = latest.rows.find(
        (row) => rowMarkers(row, { maxSendLagP99Ms: lagLimit(latest.manifest.settings) }).length === 0,
      );
      if (!plain) throw new Error('fixtures lack a row without caveats');
      await page.goto(rowPath(latest, plain.id));
      await expect(page.getByText(NO_CAVEATS)).toBeVisible();
    });

    test('a run shows the conformance it recorded, with its date, scale and known differences', async ({
      page,
    }) => {
      const latest = latestFixture();
      const older = fixtureRun((card) => card.manifest.corpus.docs === 20_000_000);
      const own = older.conformance;
      const newest = latest.conformance;
      if (!own || !newest) throw new Error('fixtures lack conformance summaries');
      expect(own.candidatePass).not.toBe(newest.candidatePass);

      await page.goto(`./runs/${older.runId}/`);
      const panel = page.locator('[data-conformance] [data-suite="differential"]');
      await expect(panel.locator('[data-suite-pass]')).toHaveText(`${own.candidatePass} of ${own.cases}`);
      await expect(panel).toContainText(`run ${own.measuredAt}`);
      await expect(page.locator('[data-headline="conformance"]')).toContainText(
        `${own.candidatePass} / ${own.cases}`,
      );
      await expect(page.locator('[data-conformance]')).not.toContainText(`${newest.candidatePass} of`);
      await panel.locator('details.differences summary').click();
      await expect(panel.locator('details.differences li')).toHaveCount(own.differences.length);

      // A run from before cards carried conformance says so instead of borrowing the newest.
      const first = fixtureRun((card) => card.schemaVersion === 1 && card.manifest.corpus.docs === 200_000);
      await page.goto(`./runs/${first.runId}/`);
      await expect(page.locator('[data-conformance]')).toContainText('recorded no conformance result');
      await expect(page.locator('[data-headline="conformance"]')).toHaveCount(0);

      // The methodology lists the suite as committed now, every known difference with its reason.
      await page.goto('./methodology/');
      const suite = page.locator('[data-suite="differential"] details.differences');
      const count = Number(await suite.getAttribute('data-differences'));
      expect(count).toBeGreaterThan(0);
      await suite.locator('summary').click();
      await expect(suite.locator('li')).toHaveCount(count);
    });

    test('a run that recorded Elasticsearch’s REST tests shows them by API, beside its own cases', async ({
      page,
    }) => {
      const latest = latestFixture();
      const rest = latest.restSuite;
      if (!rest) throw new Error('the newest fixture lacks restSuite');
      await page.goto(`./runs/${latest.runId}/`);
      const block = page.locator('[data-conformance] [data-suite="rest-suite"]');
      await expect(page.locator('[data-conformance] [data-suite="differential"]')).toBeVisible();
      await expect(block.locator('[data-suite-pass]')).toHaveText(
        `${rest.candidatePass} of ${rest.baselinePass}`,
      );
      await expect(block).toContainText(`run ${rest.measuredAt}`);
      await expect(page.locator('[data-headline="rest-suite"]')).toContainText(
        `${rest.candidatePass} / ${rest.baselinePass}`,
      );
      // Its closed disclosures, stacked under the project's own, are targets a finger can hit.
      const targets = await new AxeBuilder({ page })
        .include('[data-conformance]')
        .withRules(['target-size'])
        .analyze();
      expect(targets.violations.flatMap((violation) => violation.nodes.map((node) => node.target))).toEqual(
        [],
      );
      const apis = block.locator('details.rest-apis');
      await apis.locator('summary').click();
      const rows = apis.locator('tbody tr[data-api]');
      await expect(rows).toHaveCount(rest.byApi.length);
      for (const api of rest.byApi) {
        await expect(apis.locator(`tr[data-api="${api.api}"] td`)).toHaveText(
          [api.tests, api.baselinePass, api.candidatePass, api.skipped, api.excluded].map(String),
        );
      }
      // Every column on screen, the phone's included.
      const outside = await apis
        .locator('td, th')
        .evaluateAll(
          (cells, width) =>
            cells.map((cell) => cell.getBoundingClientRect()).filter((box) => box.right > width + 1).length,
          viewport.width,
        );
      expect(outside).toBe(0);
      await block.locator('details[data-left-out] summary').click();
      await expect(block.locator('details[data-left-out] li')).toHaveCount(rest.excluded.length);
      // Opened, the table and the list pass axe as the rest of the site does.
      const axe = await new AxeBuilder({ page })
        .include('[data-suite="rest-suite"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      expect(axe.violations.map((violation) => violation.id)).toEqual([]);

      // A run whose card predates the REST suite shows only its own cases.
      const older = fixtureRun((card) => card.manifest.corpus.docs === 20_000_000);
      expect(older.restSuite).toBeUndefined();
      await page.goto(`./runs/${older.runId}/`);
      await expect(page.locator('[data-suite="differential"]')).toBeVisible();
      await expect(page.locator('[data-suite="rest-suite"]')).toHaveCount(0);
      await expect(page.locator('[data-headline="rest-suite"]')).toHaveCount(0);
    });

    test('the calibration is shown with its date and scale, and marked stale beside a newer, larger run', async ({
      page,
    }) => {
      await page.goto('./');
      const fact = page.locator('[data-fact="calibration"]');
      await expect(fact).toContainText('20,000 documents');
      await expect(fact.locator('[data-stale]')).toHaveText('stale for this run');
      await expect(fact).toContainText('smaller than this run: 20,000 documents against 200,000');
      await expect(fact).toContainText('older than this run');
      await page.goto('./methodology/');
      await expect(page.locator('p[data-stale]')).toContainText('incomplete');
    });

    test('no page or download publishes a path of the machine that ran the benchmark', async ({
      page,
      request,
    }) => {
      const old = fixtureRun((card) => typeof card.manifest.settings.engineLogs === 'string');
      expect(String(old.manifest.settings.engineLogs)).toMatch(/^\/home\//);
      await page.goto(`./runs/${old.runId}/`);
      await page.locator('details.all-settings summary').click();
      await expect(page.locator('[data-setting="engineLogs"] dd')).toHaveText(`.runs/${old.runId}`);
      expect(await page.content()).not.toContain('/home/runner');
      for (const file of ['scorecard.json', 'run.json', 'rows.csv']) {
        const text = await (await request.get(`./runs/${old.runId}/${file}`)).text();
        expect(text, file).not.toContain('/home/runner');
      }
    });
  });
}
