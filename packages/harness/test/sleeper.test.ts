import { describe, expect, it } from 'vitest';
import { preciseSleepUntil } from '../src/load/clock.js';

describe('preciseSleepUntil', () => {
  it('never wakes early and is late by a bounded amount', async () => {
    const lateness: number[] = [];
    for (const waitMs of [0.2, 1, 3, 7]) {
      const target = process.hrtime.bigint() + BigInt(Math.round(waitMs * 1e6));
      await preciseSleepUntil(target);
      const late = Number(process.hrtime.bigint() - target) / 1e6;
      expect(late).toBeGreaterThanOrEqual(0);
      lateness.push(late);
    }
    // Generous bound: a shared 2-core box can stall, but a coarse timer alone would be ~1 ms off every time.
    expect(Math.max(...lateness)).toBeLessThan(20);
  });

  it('returns at once for an instant in the past', async () => {
    const before = process.hrtime.bigint();
    await preciseSleepUntil(before - 1_000_000n);
    expect(Number(process.hrtime.bigint() - before) / 1e6).toBeLessThan(5);
  });
});

describe('workerClock', () => {
  it('never wakes early, is late by a bounded amount, and closes', async () => {
    const { workerClock } = await import('../src/load/timerWorker.js');
    const clock = workerClock();
    try {
      const lateness: number[] = [];
      for (const waitMs of [0.1, 0.5, 1, 3, 7]) {
        const target = clock.now() + BigInt(Math.round(waitMs * 1e6));
        await clock.sleepUntil(target);
        const late = Number(clock.now() - target) / 1e6;
        expect(late).toBeGreaterThanOrEqual(0);
        lateness.push(late);
      }
      expect(Math.max(...lateness)).toBeLessThan(20);
      const past = clock.now() - 1_000_000n;
      await clock.sleepUntil(past);
    } finally {
      await clock.close();
    }
  });
});
