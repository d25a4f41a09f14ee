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
      '| `ingest.1-client` | bulk ingest | 30,000 docs/s | 10,000 docs/s | 3x | [2.5, 3.5] | - | - | **WIN** |',
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

  it("shows each read row's engine share of its p50 and the parts in their own section", () => {
    const card = sampleCard();
    const read = card.rows.find((r) => r.unit === 'ms' && r.candidate.p50 !== undefined);
    if (!read) throw new Error('the sample card has no read row');
    const parts = { q: 50, samples: 11, floorMs: 0.2, queueMs: 0.05, restMs: 0.15 };
    read.candidate.waterfall = {
      p50: {
        ...parts,
        latencyMs: 1,
        engineMs: 0.4,
        engineSource: 'server-timing',
        hopMs: 0.1,
        serviceMs: 0.1,
      },
      p99: {
        ...parts,
        q: 99,
        latencyMs: 2,
        engineMs: 1.4,
        engineSource: 'server-timing',
        hopMs: 0.1,
        serviceMs: 0.1,
      },
    };
    read.baseline.waterfall = {
      p50: { ...parts, latencyMs: 4, engineMs: 3, engineSource: 'took', restMs: 0.75 },
      p99: { ...parts, q: 99, latencyMs: 9, engineMs: 8, engineSource: 'took', restMs: 0.75 },
    };
    const md = renderMarkdown(card);
    expect(md).toContain('| 40% · ≥75% |');
    expect(md).toContain('## Where the p50 goes');
    expect(md).toContain(
      `| \`${read.id}\` | candidate | 1.000 | 0.200 | 0.050 | 0.400 | 0.100 | 0.100 | 0.150 |`,
    );
    expect(md).toContain(
      `| \`${read.id}\` | baseline | 4.000 | 0.200 | 0.050 | 3.000 (took) | - | - | 0.750 |`,
    );
    expect(renderMarkdown(sampleCard())).not.toContain('## Where the p50 goes');
  });

  it("splits the harness's floor by the null server's stamps in its own section", () => {
    const card = sampleCard();
    const split = {
      samples: 101,
      queueMs: 0.011,
      toServerMs: 0.569,
      inServerMs: 0.116,
      toClientMs: 0.262,
      restMs: 0.028,
    };
    card.floor = {
      rate: 200,
      p50: 0.988,
      p99: 4.246,
      sendLagP50: 0.01,
      sendLagP99: 0.481,
      split: {
        p50: { q: 50, latencyMs: 0.986, ...split },
        p99: { q: 99, latencyMs: 4.364, ...split, toServerMs: 3.947 },
      },
      runQueueWaitMs: { harness: 94.092, server: 126.133 },
    };
    const md = renderMarkdown(card);
    expect(md).toContain("## The harness's floor");
    expect(md).toContain('| p50 | 0.986 | 0.011 | 0.569 | 0.116 | 0.262 | 0.028 | 101 |');
    expect(md).toContain('| p99 | 4.364 | 0.011 | 3.947 | 0.116 | 0.262 | 0.028 | 101 |');
    expect(md).toContain("the harness's sending thread 94.092 ms, the null server's threads 126.133 ms");
  });

  it('marks a partial run at the top', () => {
    const card = { ...sampleCard(), status: 'partial' as const, failure: 'interrupted (Ctrl-C)' };
    expect(renderMarkdown(card)).toContain('> **This run is partial**: interrupted (Ctrl-C).');
  });
});
