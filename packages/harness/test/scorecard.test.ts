import { describe, expect, it } from 'vitest';
import { buildScorecard, countVerdicts, exitCodeFor } from '../src/scorecard/build.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import { makeRunId } from '../src/scorecard/runId.js';
import { sampleCard } from './helpers/card.js';

describe('scorecard', () => {
  it('counts verdicts and derives the exit code', () => {
    const card = sampleCard();
    expect(card.counts).toEqual({ WIN: 1, LOSE: 1, TIE: 0, 'N/A': 1 });
    expect(card.exitCode).toBe(1);
    expect(exitCodeFor('complete', countVerdicts([]))).toBe(0);
    expect(exitCodeFor('partial', countVerdicts([]))).toBe(2);
    const failed = buildScorecard({
      ...card,
      createdAt: new Date(),
      status: 'failed',
      failure: 'candidate: died',
    });
    expect(failed.exitCode).toBe(2);
    expect(failed.failure).toBe('candidate: died');
  });

  it('makes time-sortable run ids with the short revision', () => {
    expect(makeRunId(new Date('2026-11-22T02:30:00.123Z'), 'abcdef1234')).toBe('20261122T023000Z-abcdef1');
    expect(makeRunId(new Date('2026-11-22T02:30:00Z'), 'none')).toBe('20261122T023000Z-nogit');
  });

  it('renders SCORECARD.md with headline counts, the full table, setup and generated methodology', () => {
    const md = renderMarkdown(sampleCard());
    expect(md).toContain('# everycell scorecard `20261122T023000Z-abcdef1`');
    expect(md).toContain('| 1 | 1 | 0 | 1 |');
    expect(md).toContain(
      '| `ingest.1-client` | bulk ingest | 30,000 docs/s | 10,000 docs/s | 3x | [2.5, 3.5] | - | **WIN** |',
    );
    expect(md).toContain('p50 2 ms, p99 9');
    // Pipes inside cells are escaped so the table survives.
    expect(md).toContain('term \\| tenant');
    expect(md).toContain('| **N/A** | not comparable, candidate: HTTP 400 parsing_exception: no terms |');
    expect(md).toContain('Test CPU, 2 cores, 24 GiB');
    // Methodology quotes the run's settings, not fixed prose.
    expect(md).toContain('open loop at 200 requests/s');
    expect(md).toContain('600 timed requests per engine per row over 2 rounds');
    expect(md).toContain('at least 1 + 5%');
    expect(md).toContain('Exit status 1: at least one LOSE.');
  });

  it('marks a partial run at the top', () => {
    const card = { ...sampleCard(), status: 'partial' as const, failure: 'interrupted (Ctrl-C)' };
    expect(renderMarkdown(card)).toContain('> **This run is partial**: interrupted (Ctrl-C).');
  });
});
