import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../src/engines/types.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { realClock } from '../src/load/clock.js';
import { Side } from '../src/load/side.js';
import { measureSweep, selectSweeps, sweepRates } from '../src/measure/sweep.js';
import type { SweepRaw } from '../src/model/raw.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { SweepSide } from '../src/scorecard/schema.js';
import { sweepRowResult } from '../src/verdict/sweepRowResult.js';
import { sampleCard } from './helpers/card.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const family = (id: string) => ALL_FAMILIES.find((f) => f.id === id) as Family;
const side = (achievedRate: number, p99: number, dropped = 0): SweepSide => ({
  achievedRate,
  p50: p99 / 4,
  p99,
  p999: p99 * 2,
  errors: 0,
  dropped,
});

function raw(points: SweepRaw['points']): SweepRaw {
  return {
    family: family('query.term'),
    supported: { candidate: { ok: true }, baseline: { ok: true } },
    capacity: { candidate: 4000, baseline: 2000 },
    points,
    skipped: [],
  };
}

describe('latency at target throughput', () => {
  it('offers a geometric ladder from a quarter of the slower capacity to 1.5x the faster one', () => {
    const rates = sweepRates(2000, 8000);
    expect(rates).toHaveLength(9);
    expect(rates[0]).toBe(500);
    expect(rates.at(-1)).toBe(12_000);
    // Each step the same factor up: (12000 / 500) ** (1 / 8) = 1.488.
    for (let k = 1; k < rates.length; k++)
      expect((rates[k] as number) / (rates[k - 1] as number)).toBeCloseTo(1.488, 1);
    expect(sweepRates(1000)).toEqual(sweepRates(1000, 1000));
    expect(selectSweeps('*').map((f) => f.id)).toEqual([
      'query.term',
      'query.match',
      'query.sort_timestamp',
      'bucket.terms',
      'bucket.date_histogram_day',
    ]);
    expect(selectSweeps('query.*')).toEqual([]);
  });

  it('scores the highest offered rate each engine sustained with p99 under the bound', () => {
    const { sweep, row } = sweepRowResult(
      raw([
        { offeredRate: 500, requests: 1000, candidate: side(499, 3), baseline: side(498, 5) },
        { offeredRate: 1000, requests: 2000, candidate: side(995, 4), baseline: side(990, 20) },
        // The baseline keeps up but its p99 breaks the 50 ms bound; the candidate's does not.
        { offeredRate: 1500, requests: 3000, candidate: side(1490, 9), baseline: side(1480, 80) },
        // Nobody sustains 1800: the candidate drops too many, the baseline falls behind.
        { offeredRate: 1800, requests: 3600, candidate: side(1790, 12, 90), baseline: side(1500, 400) },
      ]),
      50,
      0.1,
      0.01,
    );
    expect(row.id).toBe('throughput.term');
    expect(row.group).toBe('throughput');
    expect(row.unit).toBe('req/s');
    expect(row.betterIs).toBe('higher');
    expect(row.candidate.value).toBe(1500);
    expect(row.baseline.value).toBe(1000);
    expect(row.ratio).toBe(1.5);
    expect(row.verdict).toBe('WIN');
    expect(row.reason).toMatch(
      /^highest sustained rate .*: candidate 1500, baseline 1000 req\/s; ratio 1.500/,
    );
    expect(row.reason).toMatch(/closed-loop capacity 4000 \/ 2000 req\/s$/);
    expect(sweep.points).toHaveLength(4);
    // Each point keeps its request count: the site's planner judges failures against it.
    expect(sweep.points.map((p) => p.requests)).toEqual([1000, 2000, 3000, 3600]);
    const card = sampleCard();
    card.sweeps = [sweep];
    card.rows.push(row);
    const md = renderMarkdown(card);
    expect(md).toContain('## Latency at target throughput');
    expect(md).toContain(
      '| 1,500 req/s | 1,490 req/s, p50 2.25 / p99 9 / p99.9 18 ms | 1,480 req/s, p50 20 / p99 80 / p99.9 160 ms |',
    );
    expect(md).toContain('| 1,500 req/s | 1,000 req/s |');
  });

  it('a candidate that sustains no rate loses; two that sustain none are N/A', () => {
    const lose = sweepRowResult(
      raw([{ offeredRate: 500, requests: 1000, candidate: side(300, 900), baseline: side(499, 4) }]),
      50,
      0.1,
      0.01,
    ).row;
    expect(lose.verdict).toBe('LOSE');
    expect(lose.candidate.value).toBe(0);
    const none = sweepRowResult(
      raw([{ offeredRate: 500, requests: 1000, candidate: side(300, 900), baseline: side(300, 900) }]),
      50,
      0.1,
      0.01,
    ).row;
    expect(none.verdict).toBe('N/A');
  });

  it('measures closed-loop capacity, then the open-loop points on both engines', async () => {
    const fc = await startFakeEs({ name: 'c' });
    const fb = await startFakeEs({ name: 'b', delayMs: 5 });
    fakes.push(fc, fb);
    const engine = (role: 'candidate' | 'baseline', url: string): RunningEngine => ({
      role,
      product: role,
      version: '0',
      url,
      pid: undefined,
      exited: new Promise(() => {}),
      stop: async () => {},
    });
    const abort = new AbortController().signal;
    const sides = {
      candidate: new Side(engine('candidate', fc.url), 32, 5000, abort),
      baseline: new Side(engine('baseline', fb.url), 32, 5000, abort),
    };
    const r = await measureSweep(family('query.term'), sides, 'idx', DEFAULT_SETTINGS, realClock, {
      clients: 4,
      capacityMs: 500,
      minRequests: 100,
      maxRequests: 400,
      pointMs: 200,
      stopAfterFailures: 2,
      p99BoundMs: 50,
    });
    // The baseline answers each request 5 ms late: 4 clients give it at most 800 req/s, however
    // idle the machine (how far below that depends on the load, so no lower bound but > 0).
    expect(r.capacity.baseline).toBeGreaterThan(0);
    expect(r.capacity.baseline).toBeLessThan(800);
    expect(r.capacity.candidate).toBeGreaterThan(0);
    const slower = Math.min(r.capacity.candidate, r.capacity.baseline);
    const faster = Math.max(r.capacity.candidate, r.capacity.baseline);
    expect(r.points.map((p) => p.offeredRate)).toEqual(sweepRates(slower, faster));
    // Past its knee (two failed rates in a row) an engine is not offered more; before it, every
    // point has an answer rate and Little's law's in-flight count.
    for (const role of ['candidate', 'baseline'] as const) {
      const run = r.points.map((p) => p[role]).filter((x) => !x.skipped);
      expect(run.length).toBeGreaterThan(0);
      for (const x of run) {
        expect(x.achievedRate).toBeGreaterThan(0);
        // Little's law from the point's own rate and mean, both published rounded (rate to 0.1,
        // mean to 0.001 ms, in-flight to 0.001): equal up to what those roundings can move the
        // product. A slow, long-latency point moves it most (0.05 req/s x 250 ms = 0.0125).
        const mean = x.meanMs as number;
        const littlesLaw = (x.achievedRate * mean) / 1000;
        const roundingBound = 0.0005 + (0.05 * mean) / 1000 + (x.achievedRate * 0.0005) / 1000 + 1e-9;
        expect(Math.abs((x.inFlight as number) - littlesLaw)).toBeLessThanOrEqual(roundingBound);
      }
    }
  }, 60_000);
});

describe('capacity past the knee', () => {
  it('marks an engine that sustained the top of the ladder as a lower bound ("at least")', () => {
    const { sweep, row } = sweepRowResult(
      raw([
        { offeredRate: 1000, requests: 2000, candidate: side(998, 3), baseline: side(995, 9) },
        { offeredRate: 3000, requests: 6000, candidate: side(2990, 5), baseline: side(2100, 900) },
        {
          offeredRate: 6000,
          requests: 6000,
          candidate: side(5990, 8),
          baseline: { ...side(0, 0), p50: Number.NaN, p99: Number.NaN, skipped: true },
        },
      ]),
      50,
      0.1,
      0.01,
    );
    expect(sweep.highest).toEqual({ candidate: 6000, baseline: 1000 });
    expect(sweep.atLeast).toEqual({ candidate: true, baseline: false });
    expect(row.verdict).toBe('WIN');
    expect(row.reason).toMatch(
      /candidate at least 6000, baseline 1000 req\/s \(at least: it sustained the top of the ladder/,
    );
  });
});

describe('a sweep on a family an engine refuses', () => {
  it('is N/A after one probe request, with the engine error', async () => {
    const fc = await startFakeEs({ name: 'c', searchStatus: 400 });
    const fb = await startFakeEs({ name: 'b' });
    fakes.push(fc, fb);
    const engine = (role: 'candidate' | 'baseline', url: string): RunningEngine => ({
      role,
      product: role,
      version: '0',
      url,
      pid: undefined,
      exited: new Promise(() => {}),
      stop: async () => {},
    });
    const abort = new AbortController().signal;
    const sides = {
      candidate: new Side(engine('candidate', fc.url), 4, 5000, abort),
      baseline: new Side(engine('baseline', fb.url), 4, 5000, abort),
    };
    const r = await measureSweep(family('query.term'), sides, 'idx', DEFAULT_SETTINGS, realClock);
    expect(fc.requests.filter((q) => q.url.includes('_search'))).toHaveLength(1);
    expect(fb.requests.filter((q) => q.url.includes('_search'))).toHaveLength(1);
    const { row } = sweepRowResult(r, 50, 0.1, 0.01);
    expect(row.verdict).toBe('N/A');
    expect(row.reason).toBe('not comparable, candidate: HTTP 400 parsing_exception: fake refuses');
  });
});

describe('a sweep with every point skipped', () => {
  it('is N/A and names the skipped rates', () => {
    const r = raw([]);
    r.capacity = { candidate: 60, baseline: 20 };
    r.skipped = ['5 req/s (1000 requests would take over 6 s)'];
    const { row } = sweepRowResult(r, 50, 0.1, 0.01);
    expect(row.verdict).toBe('N/A');
    expect(row.reason).toBe(
      'no offered rate could be run: the slower capacity is too low for the minimum requests per point in the time bound; closed-loop capacity 60 / 20 req/s; not run: 5 req/s (1000 requests would take over 6 s)',
    );
  });
});
