import { describe, expect, it, vi } from 'vitest';

describe('the calibration-only extra CPU switch', () => {
  it('is off unless EVERYCELL_CALIBRATION_EXTRA_CPU is set: the search runs as it is', async () => {
    vi.resetModules();
    delete process.env.EVERYCELL_CALIBRATION_EXTRA_CPU;
    const { calibrationExtraCpu, withExtraCpu } = await import('../ts/calibration.js');
    expect(calibrationExtraCpu).toBe(0);
    expect(withExtraCpu(() => 42)).toBe(42);
  });

  it('adds the given fraction of a search time as busy CPU, for sync and async searches', async () => {
    vi.resetModules();
    process.env.EVERYCELL_CALIBRATION_EXTRA_CPU = '0.5';
    try {
      const { calibrationExtraCpu, withExtraCpu } = await import('../ts/calibration.js');
      expect(calibrationExtraCpu).toBe(0.5);
      const busy = (ms: number) => {
        const end = performance.now() + ms;
        while (performance.now() < end);
        return 'reply';
      };
      const t0 = performance.now();
      expect(withExtraCpu(() => busy(40))).toBe('reply');
      // 40 ms of search plus half of it again, spent busy on the event loop.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(59);
      const t1 = performance.now();
      await expect(withExtraCpu(() => new Promise((r) => setTimeout(() => r('async'), 40)))).resolves.toBe(
        'async',
      );
      expect(performance.now() - t1).toBeGreaterThanOrEqual(55);
    } finally {
      delete process.env.EVERYCELL_CALIBRATION_EXTRA_CPU;
    }
  });
});
