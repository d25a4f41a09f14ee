/**
 * Calibration only (`npm run calibrate`'s power run): EVERYCELL_CALIBRATION_EXTRA_CPU=f makes
 * every request cost f more CPU, so the harness can check it finds a slowdown of known size by
 * CPU per request and by latency. Unset (every benchmark run, every deployment) it costs one
 * comparison per request.
 *
 * "f more" is of the request's whole cost, as the harness measures it (the process's CPU over a
 * row, divided by its requests): the handler's own CPU is scaled up by the process's total CPU
 * over the handlers' (HTTP parsing, writing the reply and GC happen outside the handler), the
 * scale re-estimated every SCALE_WINDOW requests with the added work itself left out. A plant of
 * the search's own time alone was a few per cent of a small request's cost, and the power run
 * then measured a slowdown far smaller than the one it reported.
 */
const fraction = Number(process.env.EVERYCELL_CALIBRATION_EXTRA_CPU ?? 0);
export const calibrationExtraCpu = Number.isFinite(fraction) && fraction > 0 ? fraction : 0;

const SCALE_WINDOW = 200;

const cpuUs = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

let windowStart = process.cpuUsage();
let handlerUs = 0;
let addedUs = 0;
let requests = 0;
/** Process CPU over handler CPU; at least 1. */
let scale = 1;

/** Busy-wait (real CPU work, not sleep) for `us` microseconds. */
function spin(us: number): void {
  const end = performance.now() + us / 1000;
  while (performance.now() < end) {
    // burn
  }
}

/** Where a request's handler starts: undefined when the switch is off. */
export function requestCpuStart(): NodeJS.CpuUsage | undefined {
  return calibrationExtraCpu === 0 ? undefined : process.cpuUsage();
}

/** Before the reply goes out: spend `calibrationExtraCpu` of the request's estimated cost. */
export function spendExtraCpu(start: NodeJS.CpuUsage | undefined): void {
  if (start === undefined) return;
  const own = cpuUs(process.cpuUsage(start));
  handlerUs += own;
  requests += 1;
  if (requests >= SCALE_WINDOW) {
    const total = cpuUs(process.cpuUsage(windowStart)) - addedUs;
    if (handlerUs > 0) scale = Math.max(1, total / handlerUs);
    windowStart = process.cpuUsage();
    handlerUs = 0;
    addedUs = 0;
    requests = 0;
  }
  const extra = own * scale * calibrationExtraCpu;
  const before = process.cpuUsage();
  spin(extra);
  addedUs += cpuUs(process.cpuUsage(before));
}
