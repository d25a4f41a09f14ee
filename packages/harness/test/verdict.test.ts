import { describe, expect, it } from 'vitest';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { ReadRowRaw } from '../src/model/raw.js';
import type { Sample } from '../src/model/samples.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import type { SideMeasurement } from '../src/scorecard/schema.js';
import { decideVerdict } from '../src/verdict/decide.js';
import { readRowResult } from '../src/verdict/readRowResult.js';

const side = (over: Partial<SideMeasurement> = {}): SideMeasurement => ({
  supported: true,
  samples: 1000,
  errors: 0,
  ...over,
});
const base = { tieMargin: 0.05, collapseErrorRate: 0.01 };

describe('decideVerdict', () => {
  it('WIN needs the whole interval above 1 and the ratio past the margin', () => {
    expect(
      decideVerdict({ ...base, candidate: side(), baseline: side(), ratio: 1.3, ci: [1.2, 1.4] }).verdict,
    ).toBe('WIN');
    // Interval above 1 but the ratio inside the 5% margin: a tie.
    const d = decideVerdict({ ...base, candidate: side(), baseline: side(), ratio: 1.03, ci: [1.01, 1.05] });
    expect(d.verdict).toBe('TIE');
    expect(d.reason).toMatch(/margin/);
  });
  it('LOSE is the mirror case', () => {
    expect(
      decideVerdict({ ...base, candidate: side(), baseline: side(), ratio: 0.7, ci: [0.6, 0.8] }).verdict,
    ).toBe('LOSE');
    expect(
      decideVerdict({ ...base, candidate: side(), baseline: side(), ratio: 0.97, ci: [0.95, 0.99] }).verdict,
    ).toBe('TIE');
  });
  it('a WIN or LOSE must be the direction of a strict majority of the paired rounds', () => {
    const at = (ratio: number, ci: [number, number], roundRatios: number[]) =>
      decideVerdict({ ...base, candidate: side(), baseline: side(), ratio, ci, roundRatios });
    expect(at(1.3, [1.2, 1.4], [1.5, 1.4, 1.1, 0.98]).reason).toBe(
      'ratio 1.300, 95% CI [1.200, 1.400]: interval above 1 and ratio >= 1.050; 3 of 4 paired rounds agree',
    );
    const split = at(1.3, [1.2, 1.4], [1.8, 1.6, 0.97, 0.95]);
    expect(split.verdict).toBe('TIE');
    expect(split.reason).toBe(
      'ratio 1.300, 95% CI [1.200, 1.400] favours the candidate, but only 2 of 4 paired rounds do (their ratios 1.800, 1.600, 0.970, 0.950)',
    );
    expect(at(0.7, [0.6, 0.8], [0.6, 0.7, 0.8]).verdict).toBe('LOSE');
    expect(at(0.7, [0.6, 0.8], [0.5, 1.01, 1.02]).verdict).toBe('TIE');
    // Without per-round ratios (ingest, kNN rows) the interval alone decides.
    expect(at(0.7, [0.6, 0.8], []).verdict).toBe('LOSE');
  });
  it('TIE when the interval contains 1', () => {
    const d = decideVerdict({ ...base, candidate: side(), baseline: side(), ratio: 1.2, ci: [0.9, 1.5] });
    expect(d.verdict).toBe('TIE');
    expect(d.reason).toMatch(/contains 1/);
  });
  it('N/A when a side is unsupported, naming the engine error', () => {
    const d = decideVerdict({
      ...base,
      candidate: side({ supported: false, error: 'HTTP 400 parsing_exception: unknown query [x]' }),
      baseline: side(),
      ratio: 2,
      ci: [1.5, 2.5],
    });
    expect(d.verdict).toBe('N/A');
    expect(d.reason).toMatch(/candidate: HTTP 400 parsing_exception/);
  });
  it('N/A when results differ, however fast', () => {
    const d = decideVerdict({
      ...base,
      candidate: side(),
      baseline: side(),
      ratio: 5,
      ci: [4, 6],
      mismatch: { summary: 'hits.total: 1 vs 2', candidate: {}, baseline: {} },
    });
    expect(d).toEqual({ verdict: 'N/A', reason: 'results differ: hits.total: 1 vs 2' });
  });
  it('N/A when the harness could not keep its schedule on both sides; one-sided lag is charged to that engine', () => {
    const lagged = (c: number, b: number) =>
      decideVerdict({
        ...base,
        maxSendLagP99Ms: 10,
        candidate: side({ sendLagP99: c }),
        baseline: side({ sendLagP99: b }),
        ratio: 2,
        ci: [1.5, 2.5],
      });
    expect(lagged(12, 42).verdict).toBe('N/A');
    expect(lagged(12, 42).reason).toMatch(/send lag p99 12.0 \/ 42.0 ms > 10 ms/);
    expect(lagged(3, 42).verdict).toBe('WIN');
    expect(lagged(3, 42).reason).toMatch(/send lag p99 42.0 ms while the baseline ran/);
    expect(lagged(3, 4).reason).not.toMatch(/send lag/);
  });
  it('a candidate with more errors than the baseline cannot WIN', () => {
    const d = decideVerdict({
      ...base,
      candidate: side({ errors: 3 }),
      baseline: side({ errors: 1 }),
      ratio: 2,
      ci: [1.8, 2.2],
    });
    expect(d.verdict).toBe('TIE');
    expect(d.reason).toMatch(/more failed requests/);
  });
  it('more than 1% failures (errors or drops) collapses a side, which loses', () => {
    const lose = decideVerdict({
      ...base,
      candidate: side({ errors: 5, dropped: 10 }),
      baseline: side(),
      ratio: 3,
      ci: [2, 4],
    });
    expect(lose.verdict).toBe('LOSE');
    expect(lose.reason).toMatch(/candidate collapsed/);
    const win = decideVerdict({
      ...base,
      candidate: side(),
      baseline: side({ dropped: 20 }),
      ratio: 0.5,
      ci: [0.4, 0.6],
    });
    expect(win.verdict).toBe('WIN');
    expect(win.reason).toMatch(/baseline collapsed/);
    // Exactly 1% is not a collapse.
    expect(
      decideVerdict({
        ...base,
        candidate: side({ errors: 10 }),
        baseline: side({ errors: 10 }),
        ratio: 1,
        ci: [0.9, 1.1],
      }).verdict,
    ).toBe('TIE');
  });
});

/** Timed samples spread over four forks of one round each (the interval needs replications). */
function samples(latencies: number[], outcome: Sample['outcome'] = 'ok'): Sample[] {
  return latencies.map((latencyMs, i) => ({
    i,
    phase: 'timed',
    fork: i % 4,
    round: i % 4,
    atMs: Math.floor(i / 4) * 5,
    outcome,
    status: 200,
    lagMs: 0.1,
    latencyMs,
    serviceMs: latencyMs - 0.1,
  }));
}

describe('readRowResult', () => {
  const family = ALL_FAMILIES[0] as (typeof ALL_FAMILIES)[number];
  const raw = (c: number[], b: number[]): ReadRowRaw => ({
    family,
    probeBody: { query: { match_all: {} } },
    candidate: { supported: true, timed: samples(c), warmup: [] },
    baseline: { supported: true, timed: samples(b), warmup: [] },
    rounds: 4,
    forks: 4,
    signalChecks: 5,
    signalMismatches: 0,
  });

  it('computes p50/p99 from successful samples and a ratio baseline/candidate', () => {
    const c = Array.from({ length: 200 }, (_, i) => 1 + (i % 10) / 100);
    const b = c.map((x) => x * 2);
    const row = readRowResult(raw(c, b), DEFAULT_SETTINGS);
    expect(row.candidate.p50).toBeCloseTo(1.04, 6);
    expect(row.candidate.p99).toBeDefined();
    expect(row.ratio).toBeCloseTo(2, 2);
    expect(row.verdict).toBe('WIN');
    expect(row.signalChecks).toBe(5);
  });

  it('marks rows within 2x of the floor on both sides below resolution: TIE, ratio kept', () => {
    const c = Array.from({ length: 200 }, (_, i) => 0.5 + (i % 10) / 100);
    const b = c.map((x) => x * 1.5);
    const row = readRowResult(raw(c, b), DEFAULT_SETTINGS, { p50: 0.6 });
    expect(row.belowResolution).toBe(true);
    expect(row.verdict).toBe('TIE');
    expect(row.reason).toMatch(/^below resolution: both p50 within 2x of the harness floor \(0\.600 ms\)/);
    expect(row.ratio).toBeCloseTo(1.5, 1);
    // One side above 2x the floor: the row is resolved and scored.
    const resolved = readRowResult(raw(c, b), DEFAULT_SETTINGS, { p50: 0.3 });
    expect(resolved.belowResolution).toBe(false);
    expect(resolved.verdict).toBe('WIN');
  });

  it('fills the per-side quality fields: collapsed, saturated, ECDF, timeline, cache', () => {
    const c = Array.from({ length: 300 }, (_, i) => 1 + (i % 10) / 100);
    const r = raw(c, c);
    // The same request repeated answers 5x faster on the baseline only: a cache is suspected there.
    r.baseline.repeated = samples(Array.from({ length: 50 }, () => 0.2));
    r.candidate.repeated = samples(Array.from({ length: 50 }, () => 0.9));
    const row = readRowResult(r, DEFAULT_SETTINGS);
    const side = row.candidate;
    expect(side.collapsed).toBe(false);
    expect(side.saturated).toBe(false);
    expect(side.p999).toBeUndefined(); // 300 samples cannot support a p99.9
    expect(side.ecdf?.q[0]).toBe(0.01);
    expect(side.ecdf?.q.at(-1)).toBe(0.99);
    expect(side.ecdf?.ms).toHaveLength(side.ecdf?.q.length ?? -1);
    expect(side.timeline?.count.reduce((a, x) => a + x, 0)).toBe(300);
    expect(row.baseline.cache).toEqual({ repeatedP50: 0.2, variedP50: row.baseline.p50, suspected: true });
    expect(row.candidate.cache?.suspected).toBe(false);
    expect(row.rounds).toBe(4);
    expect(row.forks).toBe(4);
    expect(row.remeasured).toBe(false);
  });

  it('a collapsed candidate loses; a collapsed baseline is a WIN only if candidate answers were checked', () => {
    const ok = Array.from({ length: 200 }, () => 1);
    const failing = (n: number) => [...samples(ok.slice(n)), ...samples(ok.slice(0, n), 'http_error')];
    const r = raw(ok, ok);
    r.candidate.timed = failing(10);
    const lose = readRowResult(r, DEFAULT_SETTINGS);
    expect(lose.candidate.collapsed).toBe(true);
    expect(lose.verdict).toBe('LOSE');
    const r2 = raw(ok, ok);
    r2.baseline.timed = failing(10);
    expect(readRowResult(r2, DEFAULT_SETTINGS).verdict).toBe('WIN');
    r2.signalChecks = 1; // only the probe: the candidate's timed answers were never compared
    const unchecked = readRowResult(r2, DEFAULT_SETTINGS);
    expect(unchecked.verdict).toBe('N/A');
    expect(unchecked.reason).toMatch(/no timed candidate answer could be checked/);
  });

  it('a crash flagged on a side collapses it even without errors', () => {
    const d = decideVerdict({
      ...base,
      candidate: side({ collapsed: true, error: 'engine process exited (code 137)' }),
      baseline: side(),
      ratio: 2,
      ci: [1.8, 2.2],
    });
    expect(d).toEqual({ verdict: 'LOSE', reason: 'candidate collapsed: engine process exited (code 137)' });
  });

  it('omits p99 below 100 samples and drops the ratio for N/A rows', () => {
    const r = raw([1, 2, 3], [1, 2, 3]);
    r.mismatch = { summary: 'count: 1 vs 2', candidate: {}, baseline: {} };
    r.signalMismatches = 1;
    const row = readRowResult(r, DEFAULT_SETTINGS);
    expect(row.candidate.p99).toBeUndefined();
    expect(row.verdict).toBe('N/A');
    expect(row.ratio).toBeUndefined();
    expect(row.mismatch?.summary).toBe('count: 1 vs 2 (1 of 5 checks differ)');
    // A row judged again (after more forks) says it once, and the raw measurement is untouched.
    expect(readRowResult(r, DEFAULT_SETTINGS).reason).toBe(
      'results differ: count: 1 vs 2 (1 of 5 checks differ)',
    );
    expect(r.mismatch.summary).toBe('count: 1 vs 2');
  });

  it('says why scores differ against a sharded cluster baseline, and only then', () => {
    const r = raw([1, 2, 3], [1, 2, 3]);
    r.mismatch = { summary: 'hits[0]._score: 6.72 vs 7.00', candidate: {}, baseline: {} };
    r.signalMismatches = 5;
    const cluster = { ...DEFAULT_SETTINGS, baselineNodes: 3 };
    expect(readRowResult(r, cluster).reason).toBe(
      "results differ: hits[0]._score: 6.72 vs 7.00 (5 of 5 checks differ); the baseline's 3 shards each score with their own term statistics, the candidate's one index with the whole corpus's",
    );
    expect(readRowResult(r, DEFAULT_SETTINGS).reason).toBe(
      'results differ: hits[0]._score: 6.72 vs 7.00 (5 of 5 checks differ)',
    );
    r.mismatch = { summary: 'hits.total: 1 vs 2', candidate: {}, baseline: {} };
    expect(readRowResult(r, cluster).reason).toBe(
      'results differ: hits.total: 1 vs 2 (5 of 5 checks differ)',
    );
  });
});
