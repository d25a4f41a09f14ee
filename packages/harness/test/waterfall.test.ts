import { describe, expect, it } from 'vitest';
import { engineTimingOf } from '../src/load/engineTiming.js';
import type { EngineTiming, Sample } from '../src/model/samples.js';
import { sideWaterfalls, waterfall } from '../src/stats/waterfall.js';

const sample = (i: number, latencyMs: number, lagMs: number, engine?: EngineTiming): Sample => ({
  i,
  phase: 'timed',
  round: 0,
  atMs: i,
  outcome: 'ok',
  status: 200,
  lagMs,
  latencyMs,
  serviceMs: latencyMs - lagMs,
  ...(engine ? { engine } : {}),
});

const sum = (w: NonNullable<ReturnType<typeof waterfall>>) =>
  w.floorMs + w.queueMs + (w.engineMs ?? 0) + (w.hopMs ?? 0) + (w.serviceMs ?? 0) + w.restMs;

describe('engine timing from a response', () => {
  it("reads the candidate's Server-Timing metrics and the took at the head of the body", () => {
    expect(
      engineTimingOf('{"took":3,"timed_out":false}', 'engine;dur=0.1250, call;dur=0.2, service;dur=0.5'),
    ).toEqual({ tookMs: 3, engineMs: 0.125, callMs: 0.2, handlerMs: 0.5 });
  });

  it('ignores a took deep in the body, unknown metrics, and says nothing when there is nothing', () => {
    const deep = `{"hits":{"hits":[${'{"_id":"x"},'.repeat(8)}{"_source":{"took":9}}]}}`;
    expect(engineTimingOf(deep, 'db;dur=4')).toBeUndefined();
    expect(engineTimingOf('{"docs":[]}', undefined)).toBeUndefined();
  });
});

describe('latency waterfall', () => {
  const floor = { latencyMs: 0.3, sendLagMs: 0.05 };

  it('splits the band around the median into parts that add up to its mean latency', () => {
    // 100 requests: latency 1..100 ms over a 0.2 ms lag; the candidate's engine took 40% of it.
    const samples = Array.from({ length: 100 }, (_, k) =>
      sample(k, k + 1, 0.2, { engineMs: 0.4 * (k + 1), callMs: 0.5 * (k + 1), handlerMs: 0.6 * (k + 1) }),
    );
    const w = waterfall(samples, 50, floor);
    expect(w?.samples).toBe(11); // ranks 45..55
    expect(w?.latencyMs).toBeCloseTo(50, 6);
    expect(w?.floorMs).toBeCloseTo(0.25, 6);
    expect(w?.queueMs).toBeCloseTo(0.2, 6);
    expect(w?.engineSource).toBe('server-timing');
    expect(w?.engineMs).toBeCloseTo(20, 6);
    expect(w?.hopMs).toBeCloseTo(5, 6);
    expect(w?.serviceMs).toBeCloseTo(5, 6);
    expect(w?.restMs).toBeCloseTo(50 - 0.25 - 0.2 - 30, 4);
    expect(sum(w as NonNullable<typeof w>)).toBeCloseTo(w?.latencyMs as number, 6);
  });

  it("uses the baseline's took, and leaves the engine out where too few requests report it", () => {
    const took = Array.from({ length: 200 }, (_, k) => sample(k, 2 + k / 100, 0.1, { tookMs: 1 }));
    const w = waterfall(took, 99, floor);
    expect(w?.engineSource).toBe('took');
    expect(w?.engineMs).toBe(1);
    expect(w?.hopMs).toBeUndefined();
    expect(w?.latencyMs).toBeGreaterThan(3.9);
    expect(sum(w as NonNullable<typeof w>)).toBeCloseTo(w?.latencyMs as number, 6);
    const silent = Array.from({ length: 10 }, (_, k) => sample(k, 1, 0, k < 4 ? { tookMs: 1 } : undefined));
    expect(waterfall(silent, 50, floor)?.engineMs).toBeUndefined();
  });

  it('counts only successful requests, and has nothing to say without them', () => {
    const failed = { ...sample(0, 1000, 0), outcome: 'http_error' as const };
    const w = waterfall([failed, sample(1, 1, 0), sample(2, 1, 0)], 99, floor);
    expect(w?.latencyMs).toBe(1);
    expect(waterfall([failed], 50, floor)).toBeUndefined();
    expect(sideWaterfalls([], { p50: 0.3, p99: 0.6, sendLagP50: 0.05, sendLagP99: 0.2 })).toBeUndefined();
  });
});
