/**
 * Elasticsearch's REST API tests on the site: a run shows the summary its card recorded (by API:
 * tests, OpenSearch passes, candidate passes, skipped, left out) beside the project's own cases,
 * and nothing for a card from before cards carried it; the methodology shows the committed one.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConformancePanel } from '../components/conformance-panel';
import { HeadlineNumbers } from '../components/run-headline';
import { restSuiteShare, runConformance, runRestSuite } from '../lib/conformance';
import { getSuiteRestSuite } from '../lib/data';
import type { Scorecard } from '../lib/definitions';
import { runModel } from '../lib/run-model';
import { runSets } from '../lib/sets';
import { loadFixtures } from './load-fixtures';

const cards = loadFixtures().sort((a, b) => a.createdAt.localeCompare(b.createdAt));
const newest = cards.at(-1) as Scorecard;
const summary = newest.restSuite;

function modelOf(card: Scorecard) {
  const set = runSets(cards).find((candidate) => candidate.runs.some((run) => run.runId === card.runId));
  if (!set) throw new Error(`no set for ${card.runId}`);
  return runModel(card, { set, calibrations: [], downloads: [] });
}

describe('the REST suite of a run', () => {
  it('is the card’s own summary, with what was left out summed; none for an older card', () => {
    if (!summary) throw new Error('the newest fixture lacks restSuite');
    const view = runRestSuite(newest);
    expect(view).toMatchObject({
      id: 'rest-suite',
      suite: summary.suite,
      measuredAt: summary.measuredAt,
      tests: summary.tests,
      skipped: summary.skipped,
      baselinePass: summary.baselinePass,
      candidatePass: summary.candidatePass,
      candidateOnly: summary.candidateOnly,
      source: 'this run',
    });
    expect(view?.leftOut).toBe(summary.excluded.reduce((sum, group) => sum + group.tests, 0));
    expect(view?.byApi.map((api) => api.api)).toEqual(summary.byApi.map((api) => api.api));
    for (const card of cards.filter((candidate) => !candidate.restSuite)) {
      expect(runRestSuite(card), card.runId).toBeUndefined();
      expect(modelOf(card).restSuite, card.runId).toBeUndefined();
    }
    expect(modelOf(newest).restSuite).toEqual(view);
  });

  it('states the candidate’s passes as a share of the baseline’s', () => {
    expect(restSuiteShare({ candidatePass: 340, baselinePass: 938 })).toBe('36.2%');
    expect(restSuiteShare({ candidatePass: 0, baselinePass: 0 })).toBe('no tests');
  });

  it('is drawn beside the project’s own cases: passes, one table row per API, the groups left out', () => {
    if (!summary) throw new Error('the newest fixture lacks restSuite');
    const html = renderToStaticMarkup(
      <ConformancePanel
        suites={runConformance(newest)}
        restSuite={runRestSuite(newest)}
        empty="none recorded"
      />,
    );
    expect(html).toContain('data-suite="differential"');
    expect(html).toContain('data-suite="rest-suite"');
    expect(html).toContain(
      `<strong data-suite-pass="true">${summary.candidatePass} of ${summary.baselinePass}</strong>`,
    );
    expect(html).not.toContain('none recorded');
    const rows = [...html.matchAll(/<tr data-api="([^"]+)">(.*?)<\/tr>/g)];
    expect(rows.map((row) => row[1])).toEqual(summary.byApi.map((api) => api.api));
    for (const [index, api] of summary.byApi.entries()) {
      const cells = [...(rows[index]?.[2] ?? '').matchAll(/<td class="num"[^>]*>(\d+)<\/td>/g)].map((cell) =>
        Number(cell[1]),
      );
      expect(cells, api.api).toEqual([
        api.tests,
        api.baselinePass,
        api.candidatePass,
        api.skipped,
        api.excluded,
      ]);
    }
    expect(html).toContain(`data-left-out="${summary.excluded.length}"`);
    // A reason is text, never markup.
    expect(html).toContain('&lt;b&gt;blob store&lt;/b&gt;');
    expect(html).not.toContain('<b>blob store</b>');
    // With no suite at all, the panel says so.
    expect(renderToStaticMarkup(<ConformancePanel suites={[]} empty="none recorded" />)).toContain(
      'none recorded',
    );
  });

  it('puts its passes among the headline numbers only when the run recorded it', () => {
    const withSuite = renderToStaticMarkup(<HeadlineNumbers model={modelOf(newest)} />);
    expect(withSuite).toContain('data-headline="rest-suite"');
    expect(withSuite).toContain(
      `${summary?.candidatePass}<span class="of"> / ${summary?.baselinePass}</span>`,
    );
    const older = cards.find((card) => card.conformance && !card.restSuite) as Scorecard;
    expect(renderToStaticMarkup(<HeadlineNumbers model={modelOf(older)} />)).not.toContain('rest-suite');
  });

  it('reads the committed results for the methodology, whose API rows add up to its totals', () => {
    const committed = resolve(process.cwd(), '../../packages/harness/restsuite/results.json');
    if (!existsSync(committed)) return;
    const view = getSuiteRestSuite();
    if (!view) throw new Error('results.json exists but was not read');
    expect(view.source).toBe('packages/harness/restsuite/results.json');
    const sum = (key: 'tests' | 'skipped' | 'excluded' | 'baselinePass' | 'candidatePass') =>
      view.byApi.reduce((total, api) => total + api[key], 0);
    expect(sum('tests')).toBe(view.tests);
    expect(sum('skipped')).toBe(view.skipped);
    expect(sum('excluded')).toBe(view.leftOut);
    expect(sum('baselinePass')).toBe(view.baselinePass);
    expect(sum('candidatePass')).toBe(view.candidatePass);
  });
});
