/**
 * Event times: a fixed 30-day window (never "now", so a seed always gives the same corpus)
 * with a diurnal traffic curve, every timestamp unique to the millisecond so a sort on
 * @timestamp is total and both engines must return the same ids.
 */
export const CORPUS_END_MS = Date.UTC(2026, 10, 1); // 2026-11-01T00:00:00Z
export const CORPUS_DAYS = 30;
export const CORPUS_START_MS = CORPUS_END_MS - CORPUS_DAYS * 86_400_000;

const STEP_MS = 60_000;
const STEPS = (CORPUS_END_MS - CORPUS_START_MS) / STEP_MS;

/** Relative traffic at a UTC minute: busiest mid-afternoon UTC, quietest at night, lighter weekends. */
function trafficAt(ms: number): number {
  const hour = (ms / 3_600_000) % 24;
  const day = new Date(ms).getUTCDay();
  const weekend = day === 0 || day === 6 ? 0.6 : 1;
  return weekend * (1 + 0.7 * Math.sin((2 * Math.PI * (hour - 9)) / 24));
}

let cdf: Float64Array | undefined;

function cumulative(): Float64Array {
  if (cdf) return cdf;
  const out = new Float64Array(STEPS + 1);
  for (let i = 0; i < STEPS; i++) out[i + 1] = (out[i] as number) + trafficAt(CORPUS_START_MS + i * STEP_MS);
  const total = out[STEPS] as number;
  for (let i = 0; i <= STEPS; i++) out[i] = (out[i] as number) / total;
  cdf = out;
  return out;
}

/** Inverse of the traffic CDF: maps u in [0, 1) to an epoch millisecond inside the window. */
export function timeAtQuantile(u: number): number {
  const c = cumulative();
  let lo = 0;
  let hi = STEPS;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((c[mid] as number) <= u) lo = mid;
    else hi = mid;
  }
  const from = c[lo] as number;
  const to = c[lo + 1] as number;
  const within = to > from ? (u - from) / (to - from) : 0;
  return Math.floor(CORPUS_START_MS + (lo + within) * STEP_MS);
}
