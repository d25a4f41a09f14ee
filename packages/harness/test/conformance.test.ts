import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_RESULTS, readConformance } from '../src/scorecard/conformance.js';
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
});
