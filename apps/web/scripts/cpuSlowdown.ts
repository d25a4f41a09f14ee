/**
 * The mobile CPU slowdown that makes this host behave like Lighthouse's mid-tier phone.
 *
 * Lighthouse's throttling guide (docs/throttling.md, "Calibrating the CPU slowdown") maps the host's
 * BenchmarkIndex to a multiplier with its calculator: 1,533 is the default 4x, each 233 points above
 * 1,300 adds 1x; from 800 to 1,300 the multiplier runs from 2x to 3x; from 150 to 800, from 1x to
 * 2x. A host below 150 is already slower than the target phone, so it is not slowed at all.
 */
export function mobileCpuSlowdown(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) {
    throw new Error(`no usable BenchmarkIndex (${benchmarkIndex}): cannot calibrate the CPU slowdown`);
  }
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return 1;
}
