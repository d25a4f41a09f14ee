import { expect, test } from '@playwright/test';
import { latestFixture, rowPath } from './fixtures';

/**
 * Static pages are their HTML, not their HTML twice: no React framework and no RSC payload (which
 * repeated the whole page as data, 95 of the home page's 150 KB), so a phone parses the content
 * once and its main thread has no hydration to do. A run's page is drawn into HTML by the build;
 * the /run/?id= shell keeps React, and the compare page draws pairs from run.json with one small
 * Preact script of its own.
 */

// The home page is the headline, the overview grid and every row of the latest run once: 56 KB of
// HTML for the fixture run's rows at this commit. 80 KB leaves room for new columns and rows, and
// stays far below the 150 KB the page weighed while it carried the RSC payload; on Lighthouse's
// simulated slow 4G (1.6 Mbit/s) it arrives in about 0.4 s.
const HOME_BUDGET = 80 * 1024;

test('the home page is within its HTML budget and ships no framework or RSC payload', async ({ request }) => {
  const response = await request.get('./');
  expect(response.ok()).toBe(true);
  const html = await response.text();
  expect(Buffer.byteLength(html), 'home page HTML bytes').toBeLessThan(HOME_BUDGET);
  expect(html).not.toContain('self.__next_f');
  expect(html).not.toMatch(/<script[^>]+_next\/static\/chunks/);
  // Its one script is the table controls', deferred.
  expect(html.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/_static\/enhance-\w+\.js" defer/)]);
});

test('static pages without a run table carry no script at all', async ({ request }) => {
  const latest = latestFixture();
  for (const path of ['./methodology/', './runs/', rowPath(latest, 'query.term')]) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toContain('<script');
  }
});

test('the throughput page carries only its planner script, deferred and small', async ({ request }) => {
  const html = await (await request.get('./throughput/')).text();
  expect(html.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/_static\/planner-\w+\.js" defer/)]);
  const src = /_static\/planner-\w+\.js/.exec(html)?.[0] ?? '';
  const script = await request.get(`./${src}`);
  expect(script.ok()).toBe(true);
  // Preact, the planner component and the harness's sustained-rate rule.
  expect((await script.body()).length, 'planner script bytes').toBeLessThan(30 * 1024);
});

test('a run page is static; the run shell keeps React; the compare page has only its own script', async ({
  request,
}) => {
  const latest = latestFixture();
  const run = await (await request.get(`./runs/${latest.runId}/`)).text();
  expect(run).not.toContain('self.__next_f');
  expect(run.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/_static\/enhance-\w+\.js" defer/)]);
  const shell = await (await request.get('./run/')).text();
  expect(shell).toMatch(/<script[^>]+_next\/static\/chunks/);
  const compare = await (await request.get('./compare/')).text();
  expect(compare).not.toContain('self.__next_f');
  // Its own script, and the inline line that hides the index before the first paint of a pair.
  expect(compare.match(/<script\b[^>]*>/g)).toEqual([
    expect.stringMatching(/_static\/compare-\w+\.js" defer/),
    '<script>',
  ]);
  // Its script is Preact and the compare components, not a framework: 40 KB leaves room to grow.
  const src = /_static\/compare-\w+\.js/.exec(compare)?.[0] ?? '';
  const script = await request.get(`./${src}`);
  expect(script.ok()).toBe(true);
  expect((await script.body()).length, 'compare script bytes').toBeLessThan(40 * 1024);
});
