import { describe, expect, it } from 'vitest';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { ReadRowRaw } from '../src/runner/readRow.js';
import type { Sample } from '../src/runner/samples.js';
import { DEFAULT_SETTINGS } from '../src/runner/settings.js';
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

function samples(latencies: number[], outcome: Sample['outcome'] = 'ok'): Sample[] {
  return latencies.map((latencyMs, i) => ({
    i,
    phase: 'timed',
    round: 0,
    atMs: i * 5,
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

  it('omits p99 below 100 samples and drops the ratio for N/A rows', () => {
    const r = raw([1, 2, 3], [1, 2, 3]);
    r.mismatch = { summary: 'count: 1 vs 2', candidate: {}, baseline: {} };
    r.signalMismatches = 1;
    const row = readRowResult(r, DEFAULT_SETTINGS);
    expect(row.candidate.p99).toBeUndefined();
    expect(row.verdict).toBe('N/A');
    expect(row.ratio).toBeUndefined();
    expect(row.mismatch?.summary).toBe('count: 1 vs 2 (1 of 5 checks differ)');
  });
});
