import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../src/gate/evaluate.js';
import { choosePrevious, parseScorecard, ScorecardInputError } from '../src/gate/scorecards.js';
import { isExpired, parseWaivers, WaiverFileError } from '../src/gate/waivers.js';
import type { RowResult, Scorecard } from '../src/scorecard/schema.js';
import { CLEAN, card, TODAY, waiver } from './helpers/gateCards.js';
import { tempDir } from './helpers/tempDir.js';

describe('evaluateGate', () => {
  it('passes a clean run (exit 0) and says so with the counts', () => {
    const result = evaluateGate({ scorecard: card({ rows: { ...CLEAN } }), waivers: [], today: TODAY });
    expect(result.exitCode).toBe(0);
    expect(result.failingRows).toEqual([]);
    expect(result.summaryMarkdown).toContain('everycell gate passed (exit 0)');
    expect(result.summaryMarkdown).toContain('| 2 | 0 | 1 | 1 |');
    expect(result.summaryMarkdown).toContain('no previous run to compare with');
  });

  it('fails on a LOSE (exit 1) and names the row with its reason', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.term': 'LOSE' } }),
      waivers: [],
      today: TODAY,
    });
    expect(result.exitCode).toBe(1);
    expect(result.failingRows.map((r) => r.id)).toEqual(['query.term']);
    expect(result.summaryMarkdown).toContain('### Failing rows');
    expect(result.summaryMarkdown).toMatch(
      /`query\.term` \| query\.term title \| LOSE: ratio 0\.500 \(LOSE reason for query\.term\)/,
    );
    expect(result.headline).toBe('1 LOSE row not waived');
  });

  it('fails a run that failed (exit 2), even without a LOSE, and gives the cause', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN }, status: 'failed', failure: 'baseline died during query.match' }),
      waivers: [],
      today: TODAY,
    });
    expect(result.exitCode).toBe(2);
    expect(result.summaryMarkdown).toContain('Run failure: baseline died during query.match');
    const partial = evaluateGate({
      scorecard: card({ rows: { ...CLEAN }, status: 'partial' }),
      waivers: [],
      today: TODAY,
    });
    expect(partial.exitCode).toBe(2);
    expect(partial.headline).toContain('interrupted');
  });

  it('reports a failed run before a LOSE: 2 wins over 1', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.term': 'LOSE' }, status: 'failed', failure: 'engine gone' }),
      waivers: [],
      today: TODAY,
    });
    expect(result.exitCode).toBe(2);
    expect(result.failingRows.map((r) => r.id)).toEqual(['query.term']);
  });

  it('fails on a coverage drop (exit 3): a row missing or more N/A rows on the same corpus', () => {
    const previous = card({
      rows: { ...CLEAN, 'query.range': 'TIE' },
      runId: 'prev',
      createdAt: '2026-11-21T00:00:00Z',
    });
    const missing = evaluateGate({
      scorecard: card({ rows: { ...CLEAN } }),
      previous,
      waivers: [],
      today: TODAY,
    });
    expect(missing.exitCode).toBe(3);
    expect(missing.coverage.missingRows).toEqual(['query.range']);
    expect(missing.summaryMarkdown).toContain('Rows missing since the previous run: `query.range`');

    const moreNA = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.range': 'TIE', 'query.match': 'N/A' } }),
      previous,
      waivers: [],
      today: TODAY,
    });
    expect(moreNA.exitCode).toBe(3);
    expect(moreNA.headline).toContain('N/A rows 1 -> 2');
    expect(moreNA.coverage.newlyNA).toEqual(['query.match']);
  });

  it('does not compare coverage with a run on another corpus size, and says why', () => {
    const previous = card({ rows: { ...CLEAN, 'query.range': 'TIE' }, runId: 'prev', docs: 100_000 });
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN } }),
      previous,
      waivers: [],
      today: TODAY,
    });
    expect(result.exitCode).toBe(0);
    expect(result.coverage.compared).toBe(false);
    expect(result.summaryMarkdown).toContain('100000 docs');
    expect(result.summaryMarkdown).toContain('coverage not compared');
  });

  it('lets a waived LOSE through (exit 0) and lists the waiver: row, reason, who, expiry', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.term': 'LOSE' } }),
      waivers: [waiver('query.term', TODAY)],
      today: TODAY,
    });
    expect(result.exitCode).toBe(0);
    expect(result.waivedRows.map((r) => r.id)).toEqual(['query.term']);
    expect(result.summaryMarkdown).toContain('### Waived rows');
    expect(result.summaryMarkdown).toContain(
      '| `query.term` | accepted while query.term is reworked | @octo | 2026-11-22 |',
    );
    expect(result.headline).toBe('passed with 1 waived LOSE row(s)');
  });

  it('fails a regression past the fail margin against the merge-base build (exit 4), lists smaller ones and improvements by size, and a regression waiver lets one through', () => {
    const scorecard = card({ rows: CLEAN });
    scorecard.manifest.base = { ...scorecard.manifest.candidate, role: 'base', revision: 'b'.repeat(40) };
    const versus = (
      verdict: 'REGRESSED' | 'IMPROVED' | 'SAME',
      ratio: number,
      cpuRatio: number,
      blocking = false,
    ) => ({
      baseRevision: 'b'.repeat(40),
      ratio,
      ci: [ratio * 0.95, ratio * 1.05] as [number, number],
      cpuRatio,
      cpuCi: [cpuRatio * 0.98, cpuRatio * 1.02] as [number, number],
      verdict,
      ...(verdict === 'REGRESSED' ? { blocking } : {}),
      reason: `${verdict} ${ratio}`,
    });
    const rows = scorecard.rows;
    (rows[1] as RowResult).versusBase = versus('REGRESSED', 0.95, 0.87);
    (rows[2] as RowResult).versusBase = versus('REGRESSED', 0.7, 0.75, true);
    (rows[3] as RowResult).versusBase = versus('IMPROVED', 1.3, 1.1);
    const regressed = evaluateGate({ scorecard, waivers: [], today: TODAY });
    expect(regressed.exitCode).toBe(4);
    // The failing one first, then by size: the further-from-1 of latency and CPU.
    expect(regressed.regressions.map((r) => [r.id, r.size, r.blocking])).toEqual([
      [rows[2]?.id, 0.7, true],
      [rows[1]?.id, 0.87, false],
    ]);
    expect(regressed.improvements.map((r) => r.id)).toEqual([rows[3]?.id]);
    expect(regressed.headline).toMatch(/^1 row regressed past the fail margin against bbbbbbb, worst/);
    expect(regressed.summaryMarkdown).toContain('### Regressions against the merge-base build');
    expect(regressed.summaryMarkdown).toContain(`| \`${rows[2]?.id}\` **fails** |`);
    expect(regressed.summaryMarkdown).toContain('### Improvements against the merge-base build');
    // A LOSE waiver does not cover a regression; a regression waiver does, through its day.
    const both = [waiver(rows[2]?.id as string, TODAY, 'regression')];
    expect(
      evaluateGate({ scorecard, waivers: both.map((w) => ({ ...w, kind: 'lose' as const })), today: TODAY })
        .exitCode,
    ).toBe(4);
    expect(evaluateGate({ scorecard, waivers: both, today: TODAY }).exitCode).toBe(0);
    expect(evaluateGate({ scorecard, waivers: both, today: '2026-11-23' }).exitCode).toBe(4);
    // A regression under the fail margin alone is listed and passes.
    (rows[2] as RowResult).versusBase = versus('REGRESSED', 0.86, 0.9);
    const listed = evaluateGate({ scorecard, waivers: [], today: TODAY });
    expect(listed.exitCode).toBe(0);
    expect(listed.regressions).toHaveLength(2);
  });

  it('fails when the read rows regressed together (exit 4) and a regression waiver for "overall" lets it through', () => {
    const scorecard = card({ rows: CLEAN });
    scorecard.manifest.base = { ...scorecard.manifest.candidate, role: 'base', revision: 'b'.repeat(40) };
    scorecard.versusBaseOverall = {
      baseRevision: 'b'.repeat(40),
      rows: 85,
      cpuMedian: 0.76,
      cpuCi: [0.745, 0.789],
      verdict: 'REGRESSED',
      reason: 'median CPU per request over 85 rows 0.760x',
    };
    const result = evaluateGate({ scorecard, waivers: [], today: TODAY });
    expect(result.exitCode).toBe(4);
    expect(result.headline).toContain(
      'the read rows regressed together against the merge-base build bbbbbbb',
    );
    expect(result.summaryMarkdown).toContain('**All read rows together against `bbbbbbb`: REGRESSED**');
    const waived = evaluateGate({
      scorecard,
      waivers: [waiver('overall', TODAY, 'regression')],
      today: TODAY,
    });
    expect(waived.exitCode).toBe(0);
    expect(waived.unusedWaivers).toEqual([]);
    scorecard.versusBaseOverall = { ...scorecard.versusBaseOverall, verdict: 'SAME', cpuMedian: 0.96 };
    expect(evaluateGate({ scorecard, waivers: [], today: TODAY }).exitCode).toBe(0);
  });

  it('fails a LOSE whose waiver expired (exit 1) and says it expired', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.term': 'LOSE' } }),
      waivers: [waiver('query.term', '2026-11-21')],
      today: TODAY,
    });
    expect(result.exitCode).toBe(1);
    expect(result.failingRows[0]?.expiredWaiver?.expires).toBe('2026-11-21');
    expect(result.expiredWaivers.map((w) => w.row)).toEqual(['query.term']);
    expect(result.summaryMarkdown).toContain('**waiver expired** on 2026-11-21');
    expect(result.headline).toContain('1 with an expired waiver');
  });

  it('a waiver only covers its own row, and unused or expired waivers are listed for tidying', () => {
    const result = evaluateGate({
      scorecard: card({ rows: { ...CLEAN, 'query.term': 'LOSE' } }),
      waivers: [waiver('query.match', '2027-01-01'), waiver('bucket.terms', '2020-01-01')],
      today: TODAY,
    });
    expect(result.exitCode).toBe(1);
    expect(result.unusedWaivers.map((w) => w.row)).toEqual(['query.match']);
    expect(result.summaryMarkdown).toContain('unused lose waiver for `query.match`');
    expect(result.summaryMarkdown).toContain('expired waiver for `bucket.terms`');
  });

  it('lists changed rows against the previous run, WIN/LOSE flips first', () => {
    const previous = card({
      rows: { 'ingest.1-client': 'WIN', 'query.term': 'TIE', 'query.match': 'LOSE', 'bucket.terms': 'N/A' },
      runId: 'prev',
    });
    const result = evaluateGate({
      scorecard: card({
        rows: { 'ingest.1-client': 'TIE', 'query.term': 'WIN', 'query.match': 'WIN', 'bucket.terms': 'N/A' },
      }),
      previous,
      waivers: [],
      today: TODAY,
    });
    expect(result.changedRows.map((r) => [r.id, r.from, r.to, r.flip])).toEqual([
      ['query.match', 'LOSE', 'WIN', true],
      ['ingest.1-client', 'WIN', 'TIE', false],
      ['query.term', 'TIE', 'WIN', false],
    ]);
    expect(result.summaryMarkdown).toContain('| `query.match` **flip** | LOSE | WIN |');
    expect(result.summaryMarkdown).toContain('| 2 (+1) | 0 (-1) | 1 | 1 |');
  });

  it('rejects a malformed today instead of guessing', () => {
    expect(() =>
      evaluateGate({ scorecard: card({ rows: { ...CLEAN } }), waivers: [], today: '22/11/2026' }),
    ).toThrow(/YYYY-MM-DD/);
  });
});

describe('waivers file', () => {
  const parse = (raw: unknown) => () => parseWaivers('scorecards/waivers.json', raw);

  it('accepts the documented shape and the committed file', () => {
    expect(parse({ waivers: [waiver('query.term', '2026-12-31')] })()).toHaveLength(1);
    const committed = fileURLToPath(new URL('../../../scorecards/waivers.json', import.meta.url));
    expect(parseWaivers(committed, JSON.parse(readFileSync(committed, 'utf8')))).toEqual([]);
  });

  it('names the file and the field in every error', () => {
    expect(parse([])).toThrow(WaiverFileError);
    expect(parse({ waiver: [] })).toThrow('scorecards/waivers.json: "waiver" is not a known key');
    expect(parse({ waivers: {} })).toThrow('scorecards/waivers.json: "waivers" must be an array');
    expect(parse({ waivers: [{ row: 'query.term', reason: 'x', who: 'y' }] })).toThrow(
      'scorecards/waivers.json: waivers[0].expires must be a non-empty string',
    );
    expect(parse({ waivers: [{ ...waiver('query.term', '2026-02-30') }] })).toThrow(
      'waivers[0].expires must be a date YYYY-MM-DD, got "2026-02-30"',
    );
    expect(parse({ waivers: [{ ...waiver('query.term', '2026-12-01'), who: '' }] })).toThrow(
      'waivers[0].who',
    );
    expect(parse({ waivers: [{ ...waiver('a', '2026-12-01'), until: 'x' }] })).toThrow(
      'waivers[0].until is not a waiver field',
    );
    expect(parse({ waivers: [waiver('a', '2026-12-01'), waiver('a', '2026-12-02')] })).toThrow(
      'waivers[1].row "a" already has a lose waiver, waivers[0]',
    );
    // One per row and kind: a LOSE waiver and a regression waiver for one row are two things.
    expect(
      parse({ waivers: [waiver('a', '2026-12-01'), waiver('a', '2026-12-02', 'regression')] })(),
    ).toHaveLength(2);
    expect(parse({ waivers: [{ ...waiver('a', '2026-12-01'), kind: 'slow' }] })).toThrow(
      'waivers[0].kind must be one of lose, regression, count (default lose), got "slow"',
    );
    // Files written before kinds existed read as LOSE waivers.
    const { kind: _, ...old } = waiver('a', '2026-12-01');
    expect(parse({ waivers: [old] })()[0]?.kind).toBe('lose');
  });

  it('holds through its expiry day and expires the day after', () => {
    expect(isExpired(waiver('a', '2026-11-22'), '2026-11-22')).toBe(false);
    expect(isExpired(waiver('a', '2026-11-22'), '2026-11-23')).toBe(true);
  });
});

describe('scorecard input', () => {
  it('names the file and field of a scorecard the gate cannot read', () => {
    expect(() => parseScorecard('x.json', '{')).toThrow(ScorecardInputError);
    expect(() =>
      parseScorecard('x.json', JSON.stringify({ ...card({ rows: {} }), schemaVersion: 9 })),
    ).toThrow('x.json: schemaVersion must be 1');
    const bad = card({ rows: { 'query.term': 'TIE' } }) as unknown as { rows: { verdict: string }[] };
    (bad.rows[0] as { verdict: string }).verdict = 'MAYBE';
    expect(() => parseScorecard('x.json', JSON.stringify(bad))).toThrow('x.json: rows[0].verdict must be');
  });

  it('picks the newest complete comparable run as previous, never a failed one or another size', () => {
    const dir = tempDir('gate-prev-');
    const put = (c: Scorecard) => {
      mkdirSync(join(dir, c.runId));
      writeFileSync(join(dir, c.runId, 'scorecard.json'), JSON.stringify(c));
      return join(dir, c.runId, 'scorecard.json');
    };
    const files = [
      put(card({ rows: { ...CLEAN }, runId: 'a', createdAt: '2026-11-20T00:00:00Z' })),
      put(card({ rows: { ...CLEAN }, runId: 'b', createdAt: '2026-11-21T00:00:00Z', docs: 100_000 })),
      put(card({ rows: { ...CLEAN }, runId: 'c', createdAt: '2026-11-21T12:00:00Z', status: 'failed' })),
    ];
    const current = card({ rows: { ...CLEAN }, runId: 'now' });
    expect(choosePrevious(files, current)?.card.runId).toBe('a');
    // No run of the same size: no previous run at all (a run of another size changed nothing).
    expect(choosePrevious(files, card({ rows: {}, runId: 'now', docs: 5 }))).toBeUndefined();
    expect(choosePrevious(files, card({ rows: {}, runId: 'now', docs: 100_000 }))?.card.runId).toBe('b');
    expect(choosePrevious([], current)).toBeUndefined();
  });
});
