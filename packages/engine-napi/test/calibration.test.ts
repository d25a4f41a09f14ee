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
});
