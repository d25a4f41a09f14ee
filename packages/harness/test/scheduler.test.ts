import { describe, expect, it } from 'vitest';
import { type Clock, spinWhileInFlight } from '../src/load/clock.js';
import { runOpenLoop } from '../src/load/openLoop.js';
import { constantRate } from '../src/load/scheduler.js';
import type { SendResult } from '../src/model/samples.js';

/** A clock that jumps to each requested instant, optionally arriving late by `lateNs`. */
function fakeClock(lateNs = 0n) {
  let now = 1_000_000_000n;
  const sleeps: bigint[] = [];
  const clock: Clock = {
    now: () => now,
    sleepUntil: async (t) => {
      sleeps.push(t);
      // Let responses that are already done complete at the current instant before time jumps.
      await new Promise((resolve) => setImmediate(resolve));
      if (t + lateNs > now) now = t + lateNs;
    },
  };
  return { clock, sleeps, advance: (ns: bigint) => (now += ns), start: now };
}

describe('constantRate', () => {
  it('schedules request i at i / rate', () => {
    const s = constantRate(200);
    expect(s.next(0)).toBe(0n);
    expect(s.next(1)).toBe(5_000_000n);
    expect(s.next(200)).toBe(1_000_000_000n);
  });
  it('rejects a non-positive rate', () => {
    expect(() => constantRate(0)).toThrow(/rate/);
  });
});

describe('runOpenLoop with a fake clock', () => {
  it('sends at the intended instants and measures latency from them', async () => {
    const f = fakeClock();
    const samples = await runOpenLoop({
      count: 4,
      schedule: constantRate(100),
      clock: f.clock,
      maxInFlight: 8,
      phase: 'timed',
      send: async () => {
        f.advance(2_000_000n); // each response takes 2 ms of fake time
        return { outcome: 'ok', status: 200 };
      },
    });
    expect(f.sleeps.map((t) => t - f.start)).toEqual([0n, 10_000_000n, 20_000_000n, 30_000_000n]);
    expect(samples.map((s) => s.atMs)).toEqual([0, 10, 20, 30]);
    for (const s of samples) {
      expect(s.lagMs).toBe(0);
      expect(s.latencyMs).toBe(2);
      expect(s.serviceMs).toBe(2);
    }
  });

  it('counts a late send as lag and includes it in latency, not in service time', async () => {
    const f = fakeClock(3_000_000n); // the sleeper always wakes 3 ms late
    const samples = await runOpenLoop({
      count: 3,
      schedule: constantRate(10),
      clock: f.clock,
      maxInFlight: 8,
      phase: 'timed',
      send: async () => {
        f.advance(1_000_000n);
        return { outcome: 'ok', status: 200 };
      },
    });
    for (const s of samples) {
      expect(s.lagMs).toBe(3);
      expect(s.serviceMs).toBe(1);
      expect(s.latencyMs).toBe(4);
    }
  });

  it('drops requests when the in-flight cap is reached instead of queueing them', async () => {
    const f = fakeClock();
    const release: (() => void)[] = [];
    const promise = runOpenLoop({
      count: 5,
      schedule: constantRate(1000),
      clock: f.clock,
      maxInFlight: 2,
      phase: 'timed',
      send: () =>
        new Promise<SendResult>((resolve) => release.push(() => resolve({ outcome: 'ok', status: 200 }))),
    });
    // Let the loop schedule everything, then answer the two that were sent.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(release).toHaveLength(2);
    for (const r of release) r();
    const samples = await promise;
    expect(samples.map((s) => s.outcome)).toEqual(['ok', 'ok', 'dropped', 'dropped', 'dropped']);
    expect(Number.isNaN(samples[2]?.latencyMs)).toBe(true);
  });

  it('stops scheduling on shouldStop and rethrows a fatal send error after in-flight requests settle', async () => {
    const f = fakeClock();
    let sent = 0;
    const stopped = await runOpenLoop({
      count: 10,
      schedule: constantRate(1000),
      clock: f.clock,
      maxInFlight: 4,
      phase: 'timed',
      send: async () => {
        sent++;
        return { outcome: 'ok', status: 200 };
      },
      shouldStop: () => sent >= 3,
    });
    expect(stopped).toHaveLength(3);

    await expect(
      runOpenLoop({
        count: 10,
        schedule: constantRate(1000),
        clock: f.clock,
        maxInFlight: 4,
        phase: 'timed',
        send: async (i) => {
          if (i === 1) throw new Error('engine gone');
          return { outcome: 'ok', status: 200 };
        },
      }),
    ).rejects.toThrow('engine gone');
  });

  it('tells the clock while a request is in flight, so the wait spins instead of sleeping', async () => {
    let now = 0n;
    const inFlightAtSleep: boolean[] = [];
    const release: (() => void)[] = [];
    const clock: Clock = {
      now: () => now,
      sleepUntil: async (t, inFlight) => {
        inFlightAtSleep.push(inFlight?.() ?? false);
        // Answer the outstanding request before time moves on.
        release.shift()?.();
        await new Promise((resolve) => setImmediate(resolve));
        if (t > now) now = t;
      },
    };
    const done = runOpenLoop({
      count: 3,
      schedule: constantRate(100),
      clock,
      maxInFlight: 4,
      phase: 'timed',
      send: () =>
        new Promise<SendResult>((resolve) => release.push(() => resolve({ outcome: 'ok', status: 200 }))),
    });
    // The last request is still out when the loop stops scheduling: answer it.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    for (const r of release.splice(0)) r();
    await done;
    // Nothing is out before the first send; each later wait starts with the previous request out.
    expect(inFlightAtSleep).toEqual([false, true, true]);
  });
});

describe('spinWhileInFlight', () => {
  it('returns once nothing is in flight, before the target', async () => {
    let polls = 0;
    const start = process.hrtime.bigint();
    await spinWhileInFlight(start + 5_000_000_000n, () => ++polls < 5);
    expect(polls).toBe(5);
    expect(Number(process.hrtime.bigint() - start) / 1e6).toBeLessThan(1000);
  });

  it('returns at the target even while a request is still in flight', async () => {
    const target = process.hrtime.bigint() + 2_000_000n;
    await spinWhileInFlight(target, () => true);
    expect(process.hrtime.bigint()).toBeGreaterThanOrEqual(target);
  });
});
