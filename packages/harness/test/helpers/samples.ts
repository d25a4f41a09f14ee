import type { Sample } from '../../src/model/samples.js';

/** `n` timed 2xx samples sent on a 200 req/s schedule, each 1 ms long and on time. */
export function okTimedSamples(n: number): Sample[] {
  return Array.from({ length: n }, (_, i) => ({
    i,
    phase: 'timed',
    round: 0,
    atMs: i * 5,
    outcome: 'ok',
    status: 200,
    lagMs: 0.01,
    latencyMs: 1,
    serviceMs: 1,
  }));
}
