import { describe, expect, it, vi } from 'vitest';

/** Busy (real CPU) for `ms` milliseconds, as a request handler would be. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

describe('the calibration-only extra CPU switch', () => {
  it('is off unless EVERYCELL_CALIBRATION_EXTRA_CPU is set: a request costs what it costs', async () => {
    vi.resetModules();
    delete process.env.EVERYCELL_CALIBRATION_EXTRA_CPU;
    const { calibrationExtraCpu, requestCpuStart, spendExtraCpu } = await import('../ts/calibration.js');
    expect(calibrationExtraCpu).toBe(0);
    const start = requestCpuStart();
    expect(start).toBeUndefined();
    const t0 = performance.now();
    spendExtraCpu(start);
    expect(performance.now() - t0).toBeLessThan(5);
  });

  it('refuses a value that is not a positive number: the switch stays off', async () => {
    vi.resetModules();
    process.env.EVERYCELL_CALIBRATION_EXTRA_CPU = 'lots';
    try {
      const { calibrationExtraCpu } = await import('../ts/calibration.js');
      expect(calibrationExtraCpu).toBe(0);
    } finally {
      delete process.env.EVERYCELL_CALIBRATION_EXTRA_CPU;
    }
  });

  it("adds the given fraction of the handler's CPU as busy CPU on the event loop", async () => {
    vi.resetModules();
    process.env.EVERYCELL_CALIBRATION_EXTRA_CPU = '0.5';
    try {
      const { calibrationExtraCpu, requestCpuStart, spendExtraCpu } = await import('../ts/calibration.js');
      expect(calibrationExtraCpu).toBe(0.5);
      const before = process.cpuUsage();
      const start = requestCpuStart();
      expect(start).toBeDefined();
      busy(40);
      const handlerMs = cpuMs(process.cpuUsage(start));
      const t0 = performance.now();
      spendExtraCpu(start);
      const addedWallMs = performance.now() - t0;
      const totalMs = cpuMs(process.cpuUsage(before));
      // Until the first scale window closes the scale is 1: the plant is half the handler's CPU,
      // spun for that long by the clock. It is spent busy, not slept: the process's CPU grows too
      // (by less when other test files share the two cores, so only its direction is asserted).
      expect(addedWallMs).toBeGreaterThanOrEqual(handlerMs * 0.5 * 0.95);
      expect(totalMs).toBeGreaterThan(handlerMs + handlerMs * 0.1);
    } finally {
      delete process.env.EVERYCELL_CALIBRATION_EXTRA_CPU;
    }
  });

  it('leaves CPU no request spent (start-up, idle merges) out of the scale', async () => {
    vi.resetModules();
    process.env.EVERYCELL_CALIBRATION_EXTRA_CPU = '0.5';
    try {
      const { requestCpuStart, spendExtraCpu } = await import('../ts/calibration.js');
      // A process that opened its index for 300 ms of CPU before its first request: that work
      // is not the requests' cost. Then a window of small requests, and one more after it.
      busy(300);
      for (let i = 0; i < 200; i++) {
        const start = requestCpuStart();
        busy(0.2);
        spendExtraCpu(start);
      }
      const start = requestCpuStart();
      busy(2);
      const handlerMs = cpuMs(process.cpuUsage(start));
      const t0 = performance.now();
      spendExtraCpu(start);
      // Scaled by 300 ms over ~40 ms of handlers it would spin ~8x the handler; the scale is
      // estimated from the requests' own window (at most 4), so at most 2x the handler here.
      expect(performance.now() - t0).toBeLessThan(handlerMs * 0.5 * 4 + 2);
    } finally {
      delete process.env.EVERYCELL_CALIBRATION_EXTRA_CPU;
    }
  });
});
