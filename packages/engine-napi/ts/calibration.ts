/**
 * Calibration only (`npm run calibrate`'s power run): EVERYCELL_CALIBRATION_EXTRA_CPU=f makes
 * every search spend f of its own time again as busy CPU on the event loop, so the harness can
 * check it finds a slowdown of known size by CPU per request and by latency. Unset (every
 * benchmark run, every deployment) it costs one comparison per search.
 */
const fraction = Number(process.env.EVERYCELL_CALIBRATION_EXTRA_CPU ?? 0);
export const calibrationExtraCpu = Number.isFinite(fraction) && fraction > 0 ? fraction : 0;

/** Busy-wait (real CPU work, not sleep) for `ms`. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // burn
  }
}

/** Run a search and add `calibrationExtraCpu` of its time as CPU work before answering. */
export function withExtraCpu<T>(search: () => T | Promise<T>): T | Promise<T> {
  if (calibrationExtraCpu === 0) return search();
  const started = performance.now();
  const result = search();
  if (result instanceof Promise)
    return result.then((reply) => {
      spin((performance.now() - started) * calibrationExtraCpu);
      return reply;
    });
  spin((performance.now() - started) * calibrationExtraCpu);
  return result;
}
