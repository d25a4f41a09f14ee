import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFORMANCE_RESULTS,
  REST_SUITE_RESULTS,
  readConformance,
  readRestSuite,
} from '../src/scorecard/conformance.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import { sampleCard } from './helpers/card.js';

describe('the conformance summary beside the verdicts', () => {
  it("reads the suite's committed summary", () => {
    const { summary, note } = readConformance(CONFORMANCE_RESULTS);
    expect(note).toBeUndefined();
    expect(summary?.cases).toBeGreaterThanOrEqual(1000);
    expect(summary?.candidatePass).toBeLessThanOrEqual(summary?.cases ?? 0);
    expect(summary?.areas.reduce((n, a) => n + a.cases, 0)).toBe(summary?.cases);
  });

  it('says why when the file is missing or not a summary, instead of attaching half of one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'everycell-conformance-'));
    expect(readConformance(join(dir, 'absent.json')).note).toMatch(/no conformance summary/);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ cases: 'many' }));
    const bad = readConformance(join(dir, 'bad.json'));
    expect(bad.summary).toBeUndefined();
    expect(bad.note).toMatch(/conformance summary not read/);
  });

  it('SCORECARD.md shows the count and each area next to the results', () => {
    const card = sampleCard('a');
    expect(renderMarkdown(card)).not.toContain('## Conformance');
    card.conformance = {
      measuredAt: '2026-11-26',
      baseline: 'OpenSearch 2.19.1',
      cases: 12,
      baselinePass: 12,
      candidatePass: 9,
      areas: [
        { area: 'bulk', cases: 5, baselinePass: 5, candidatePass: 5 },
        { area: 'scroll', cases: 7, baselinePass: 7, candidatePass: 4 },
      ],
      differences: [],
    };
    const md = renderMarkdown(card);
    expect(md).toContain('## Conformance');
    expect(md).toContain('**9 of 12** differential cases as OpenSearch 2.19.1 does');
    expect(md).toContain('| scroll | 7 | 4 | 7 |');
    expect(md.indexOf('## Conformance')).toBeGreaterThan(md.indexOf('## Results'));
  });

  it("reads Elasticsearch's REST suite results committed beside it, whole and consistent", () => {
    const { summary, note } = readRestSuite(REST_SUITE_RESULTS);
    expect(note).toBeUndefined();
    expect(summary?.suite).toBe('org.elasticsearch:rest-api-spec:7.10.2');
    expect(summary?.tests).toBe(1335);
    expect(summary?.byApi.reduce((n, a) => n + a.tests, 0)).toBe(summary?.tests);
    expect(summary?.byApi.reduce((n, a) => n + a.candidatePass, 0)).toBe(summary?.candidatePass);
    expect(summary?.candidatePass).toBeLessThanOrEqual(summary?.baselinePass ?? 0);
    for (const e of summary?.excluded ?? []) expect(e.reason.length).toBeGreaterThan(40);
    const dir = mkdtempSync(join(tmpdir(), 'everycell-restsuite-'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ summary: { tests: 'all' } }));
    expect(readRestSuite(join(dir, 'bad.json')).note).toMatch(/REST suite results not read/);
  });

  it("SCORECARD.md shows Elasticsearch's REST tests by API, with what is left out and why", () => {
    const card = sampleCard('a');
    expect(renderMarkdown(card)).not.toContain("## Elasticsearch's REST API tests");
    card.restSuite = {
      suite: 'org.elasticsearch:rest-api-spec:7.10.2',
      measuredAt: '2026-11-28',
      baseline: 'OpenSearch 2.19.1',
      tests: 10,
      skipped: 1,
      excluded: [
        { apis: ['snapshot.*'], reason: 'a one-node engine keeps no snapshot repository', tests: 2 },
      ],
      baselinePass: 6,
      candidatePass: 5,
      candidateOnly: 0,
      byApi: [
        {
          api: 'search',
          tests: 8,
          skipped: 1,
          excluded: 0,
          baselinePass: 6,
          candidatePass: 5,
          candidateOnly: 0,
        },
        {
          api: 'snapshot.get',
          tests: 2,
          skipped: 0,
          excluded: 2,
          baselinePass: 0,
          candidatePass: 0,
          candidateOnly: 0,
        },
      ],
    };
    const md = renderMarkdown(card);
    expect(md).toContain('the candidate passes **5 of the 6** tests OpenSearch 2.19.1 passes (83.3%)');
    expect(md).toContain('| snapshot.* | 2 | a one-node engine keeps no snapshot repository |');
    expect(md).toContain('| search | 8 | 6 | 5 | 1 | 0 |');
  });
});
