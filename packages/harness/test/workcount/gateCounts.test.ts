import { describe, expect, it } from 'vitest';
import { judgeCounts } from '../../src/gate/counts.js';
import { evaluateGate } from '../../src/gate/evaluate.js';
import { countSections } from '../../src/gate/renderCounts.js';
import { parseWaivers } from '../../src/gate/waivers.js';
import type { CountComparison, RowCountChange } from '../../src/workcount/types.js';
import { card, TODAY, waiver } from '../helpers/gateCards.js';

const change = (row: string, base: number, head: number): RowCountChange => {
  const c = head / base - 1;
  return {
    row,
    base,
    head,
    change: c,
    verdict: c >= 0.03 ? 'REGRESSED' : c <= -0.03 ? 'IMPROVED' : 'SAME',
    reason: `${head} against ${base}`,
  };
};

const comparison = (rows: RowCountChange[]): CountComparison => ({
  baseRevision: 'abcdef1234567890',
  headRevision: 'fedcba0987654321',
  threshold: 0.03,
  corpus: { name: 'llm-telemetry', docs: 20_000, seed: 42 },
  sizes: { warmup: 10, timed: 40 },
  rows,
  timings: { total: 95_000 },
});

const CLEAN = { 'query.term': 'WIN', 'query.match': 'WIN', 'bucket.terms': 'WIN' } as const;
const gate = (rows: RowCountChange[], waivers = [] as ReturnType<typeof waiver>[]) =>
  evaluateGate({ scorecard: card({ rows: { ...CLEAN } }), waivers, today: TODAY, counts: comparison(rows) });

describe('the count check in the gate', () => {
  it('fails with exit 4 on a row up 3% or more, naming it', () => {
    const result = gate([change('query.term', 1000, 1000), change('query.match', 1000, 1031)]);
    expect(result.exitCode).toBe(4);
    expect(result.headline).toMatch(
      /1 row counted 3% or more instructions per request than at abcdef1, worst query.match \+3.10%/,
    );
    expect(result.counts?.regressions.map((r) => r.row)).toEqual(['query.match']);
  });

  it('passes A/A counts and rows that moved less than the threshold, and lists improvements', () => {
    expect(gate([change('query.term', 1000, 1000), change('query.match', 1000, 1029)]).exitCode).toBe(0);
    const result = gate([change('query.term', 1000, 900)]);
    expect(result.exitCode).toBe(0);
    expect(result.counts?.improvements.map((r) => r.row)).toEqual(['query.term']);
  });

  it('lets a waived row through until its expiry, then fails on it again', () => {
    const rows = [change('query.match', 1000, 1100)];
    expect(gate(rows, [waiver('query.match', '2026-12-31', 'count')]).exitCode).toBe(0);
    const expired = gate(rows, [waiver('query.match', '2026-11-01', 'count')]);
    expect(expired.exitCode).toBe(4);
    expect(expired.counts?.regressions[0]?.waiver?.expires).toBe('2026-11-01');
    // A regression waiver (the wall-clock check's) does not cover a count.
    expect(gate(rows, [waiver('query.match', '2026-12-31', 'regression')]).exitCode).toBe(4);
  });

  it('reads count waivers from the waivers file and reports an unused one', () => {
    const [w] = parseWaivers('w.json', {
      waivers: [
        {
          row: 'query.term',
          kind: 'count',
          reason: 'a check every search needs',
          who: '@a',
          expires: '2026-12-31',
        },
      ],
    });
    expect(w?.kind).toBe('count');
    expect(
      gate([change('query.term', 1000, 1000)], [w as ReturnType<typeof waiver>]).unusedWaivers,
    ).toHaveLength(1);
  });

  it('still decides a LOSE first (exit 1) and leaves the gate alone when no count ran', () => {
    const lose = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.term': 'LOSE' } }),
      waivers: [],
      today: TODAY,
      counts: comparison([change('query.match', 1000, 1100)]),
    });
    expect(lose.exitCode).toBe(1);
    const none = evaluateGate({ scorecard: card({ rows: { ...CLEAN } }), waivers: [], today: TODAY });
    expect(none.counts).toBeUndefined();
    expect(none.summaryMarkdown).not.toMatch(/Instructions per request/);
  });

  it('shows every moved row, largest change first, each linked to its row, in the summary and the comment', () => {
    const result = gate([
      change('query.term', 1000, 1001),
      change('query.match', 1000, 1200),
      change('bucket.terms', 1000, 950),
      change('metric.avg', 1000, 1000),
    ]);
    const link = (id: string) => `[${id}](https://site/rows/${id}/)`;
    const lines = countSections(result.counts, link, 'summary').filter((l) => l.startsWith('| ['));
    expect(lines.map((l) => l.split(']')[0]?.slice(3))).toEqual([
      'query.match',
      'bucket.terms',
      'query.term',
    ]);
    expect(lines[0]).toMatch(/\| 1,000 \| 1,200 \| \+20\.00% \| \*\*fails\*\* \|$/);
    expect(lines[1]).toMatch(/-5\.00% \| improved \|$/);
    expect(result.summaryMarkdown).toMatch(
      /### Instructions per request against the merge-base build `abcdef1`/,
    );
    expect(result.summaryMarkdown).toMatch(
      /\*\*1 row 3% or more instructions per request \(1 failing the gate\)\*\*/,
    );
  });

  it('says when the builds could not be compared', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN } }),
      waivers: [],
      today: TODAY,
      counts: { ...comparison([]), note: 'building the count runner against /x failed' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.summaryMarkdown).toMatch(/Not compared: building the count runner against \/x failed/);
  });

  it('keeps the comment short: the largest changes, then how many more', () => {
    const rows = Array.from({ length: 30 }, (_, i) => change(`query.r${i}`, 1000, 1000 + i + 1));
    const judged = judgeCounts(comparison(rows), [], TODAY);
    const comment = countSections(judged, (id) => id, 'comment');
    expect(comment.filter((l) => l.startsWith('| query.'))).toHaveLength(15);
    expect(comment.join('\n')).toMatch(/15 more rows moved less/);
  });
});
