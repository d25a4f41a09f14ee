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
/** A pause between requests this long starts a new window: idle time's background work (merges
 * after a load, refreshes) is not a request's cost, and counted in it had scaled the first reads'
 * plant many times over (the engine then spun on queued requests for minutes). */
const IDLE_GAP_MS = 500;
/** Process over handler CPU seen on read rows is 1.2-3; a scale beyond this is a window polluted
 * by work no request did, and the plant stays at the last sane scale instead. */
const MAX_SCALE = 4;

const cpuUs = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

let windowStart = process.cpuUsage();
let handlerUs = 0;
let addedUs = 0;
let requests = 0;
let lastEnd = 0;
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
  const now = performance.now();
  if (now - lastEnd > IDLE_GAP_MS) {
    windowStart = process.cpuUsage();
    handlerUs = 0;
    addedUs = 0;
    requests = 0;
  }
  handlerUs += own;
  requests += 1;
  if (requests >= SCALE_WINDOW) {
    const total = cpuUs(process.cpuUsage(windowStart)) - addedUs;
    const measured = handlerUs > 0 ? total / handlerUs : 1;
    if (measured <= MAX_SCALE) scale = Math.max(1, measured);
    windowStart = process.cpuUsage();
    handlerUs = 0;
    addedUs = 0;
    requests = 0;
  }
  const extra = own * scale * calibrationExtraCpu;
  const before = process.cpuUsage();
  spin(extra);
  addedUs += cpuUs(process.cpuUsage(before));
  lastEnd = performance.now();
}
