import { ALL_FAMILIES, globToRegExp } from '../families/index.js';
import type { Family } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import { esErrorSummary, outcomeOf, TransportError } from '../load/http.js';
import { runOpenLoop } from '../load/openLoop.js';
import { bodiesFor, wireRequest } from '../load/readPhase.js';
import { constantRate } from '../load/scheduler.js';
import { otherRole, type Side, whileFrozen } from '../load/side.js';
import type { SweepPointRaw, SweepRaw } from '../model/raw.js';
import type { Sample } from '../model/samples.js';
import type { RunSettings } from '../model/settings.js';
import type { Role, SweepSide } from '../scorecard/schema.js';
import { hdrPercentile } from '../stats/hdr.js';
import { percentile } from '../stats/percentile.js';
import { achievedRate, sustained } from '../stats/saturation.js';

import { SWEEP_SOURCE_FAMILIES } from './sweepSources.js';

export { SWEEP_SOURCE_FAMILIES };
export const sweepRowId = (family: Family) => `throughput.${family.family}`;

/** The sweep families whose capacity row id (`throughput.<family>`) matches one of the globs. */
export function selectSweeps(globs: string): Family[] {
  const patterns = globs.split(',').map((g) => globToRegExp(g.trim()));
  return ALL_FAMILIES.filter(
    (f) => SWEEP_SOURCE_FAMILIES.includes(f.id) && patterns.some((p) => p.test(sweepRowId(f))),
  );
}

/**
 * The offered rates: a geometric ladder from a quarter of the slower engine's closed-loop
 * capacity to 1.5x the faster one's, so each engine is driven past its own knee (a ladder that
 * stops below the slower capacity measures the ladder, not the engines).
 */
export const LADDER = { from: 0.25, to: 1.5, steps: 9 };

export interface SweepOptions {
  /** Concurrent clients of the closed-loop capacity measurement. */
  clients: number;
  /** Closed-loop measurement time per engine, after an untimed second of the same load. */
  capacityMs: number;
  /** An open-loop point lasts about this long (a p99 needs its requests' worth of time). */
  pointMs: number;
  /** Requests per point: at least `minRequests` (a p99 has 100 samples behind it), at most `maxRequests`. */
  minRequests: number;
  maxRequests: number;
  /** An engine that fails this many consecutive rates is past its knee: higher rates are not run on it. */
  stopAfterFailures: number;
  /** The row's p99 bound, for telling a sustained rate from a failed one during the sweep. */
  p99BoundMs?: number;
}

export const DEFAULT_SWEEP: SweepOptions = {
  clients: 8,
  capacityMs: 3000,
  pointMs: 3000,
  minRequests: 200,
  maxRequests: 6000,
  stopAfterFailures: 2,
};

const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Closed loop: `clients` requests in flight at all times, each client sending its next request
 * as soon as its previous one returns, for `ms`. Successful responses per second: the engine's
 * capacity for this family on this box (with the harness sharing it).
 */
async function closedLoopCapacity(
  side: Side,
  wire: readonly { path: string; body: string }[],
  clients: number,
  ms: number,
): Promise<{ rate: number; error?: string }> {
  let ok = 0;
  let failed = 0;
  let lastError = '';
  let next = 0;
  const end = performance.now() + ms;
  const client = async () => {
    while (performance.now() < end) {
      const w = wire[next++ % wire.length] as { path: string; body: string };
      try {
        const res = await side.send('POST', w.path, w.body);
        if (res.status >= 200 && res.status < 300) ok++;
        else {
          failed++;
          lastError = `HTTP ${res.status}`;
        }
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        failed++;
        lastError = error.message;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  const rate = ok / seconds;
  return failed > ok ? { rate, error: `most requests failed (${lastError})` } : { rate };
}

function summarize(samples: Sample[]): SweepSide {
  const ok = samples.filter((s) => s.outcome === 'ok');
  const lat = ok.map((s) => s.latencyMs);
  const achieved = achievedRate(samples.map((s) => ({ ...s, ok: s.outcome === 'ok' }))) ?? 0;
  const mean = lat.length > 0 ? lat.reduce((a, b) => a + b, 0) / lat.length : Number.NaN;
  const lags = samples.filter((s) => s.outcome !== 'dropped').map((s) => s.lagMs);
  return {
    achievedRate: round1(achieved),
    p50: round3(percentile(lat, 50) ?? Number.NaN),
    p99: round3(percentile(lat, 99) ?? Number.NaN),
    // Only with the 1,000 samples a p99.9 needs (hdrPercentile says NaN below that).
    p999: round3(lat.length >= 1000 ? (hdrPercentile(lat, 99.9) ?? Number.NaN) : Number.NaN),
    meanMs: round3(mean),
    inFlight: round3((achieved * mean) / 1000),
    sendLagP99: round3(percentile(lags, 99) ?? Number.NaN),
    errors: samples.filter((s) => s.outcome !== 'ok' && s.outcome !== 'dropped').length,
    dropped: samples.filter((s) => s.outcome === 'dropped').length,
  };
}

/** The ladder's rates for two closed-loop capacities, ascending, without duplicates. */
export function sweepRates(slowerCapacity: number, fasterCapacity: number = slowerCapacity): number[] {
  const low = LADDER.from * slowerCapacity;
  const high = LADDER.to * fasterCapacity;
  const steps = high > low ? LADDER.steps : 1;
  const rates = Array.from({ length: steps }, (_, k) =>
    Math.round(low * (high / low) ** (k / Math.max(1, steps - 1))),
  );
  return [...new Set(rates.filter((r) => r > 0))].sort((a, b) => a - b);
}

/**
 * Latency at target throughput for one family: each engine's closed-loop capacity (engines one
 * at a time), then open loop at rates derived from the slower one, engine order alternating per
 * point. Every point offers both engines the identical request sequence.
 */
export async function measureSweep(
  family: Family,
  sides: Record<Role, Side>,
  index: string,
  settings: RunSettings,
  clock: Clock,
  opts: SweepOptions = DEFAULT_SWEEP,
  onProgress?: (what: string) => void,
): Promise<SweepRaw> {
  const wire = bodiesFor(family, settings.seed, 1000, 'sweep').map((b) => wireRequest(family, index, b));
  const raw: SweepRaw = {
    family,
    supported: { candidate: { ok: true }, baseline: { ok: true } },
    capacity: { candidate: 0, baseline: 0 },
    points: [],
    skipped: [],
  };
  // A refused request makes the row N/A at the cost of one request, not seconds of failures.
  const first = wire[0] as { path: string; body: string };
  for (const role of ['candidate', 'baseline'] as const) {
    const res = await sides[role].send('POST', first.path, first.body).catch((error: unknown) => {
      if (error instanceof TransportError) return { status: 0, text: error.message };
      throw error;
    });
    if (res.status < 200 || res.status >= 300) {
      let parsed: unknown = res.text;
      try {
        parsed = JSON.parse(res.text);
      } catch {}
      raw.supported[role] = { ok: false, error: esErrorSummary(res.status, parsed) };
    }
  }
  if (!raw.supported.candidate.ok || !raw.supported.baseline.ok) return raw;
  for (const role of ['candidate', 'baseline'] as const) {
    onProgress?.(`${role} closed-loop capacity`);
    const cap = await whileFrozen([sides[otherRole(role)]], async () => {
      await closedLoopCapacity(sides[role], wire, opts.clients, 1000); // untimed: warm the path
      return closedLoopCapacity(sides[role], wire, opts.clients, opts.capacityMs);
    });
    sides[role].check();
    raw.capacity[role] = round1(cap.rate);
    if (cap.error) raw.supported[role] = { ok: false, error: cap.error };
  }
  if (!raw.supported.candidate.ok || !raw.supported.baseline.ok) return raw;

  const slower = Math.min(raw.capacity.candidate, raw.capacity.baseline);
  const faster = Math.max(raw.capacity.candidate, raw.capacity.baseline);
  // Consecutive rates an engine failed to sustain: past its knee after `stopAfterFailures`.
  const failures = { candidate: 0, baseline: 0 };
  for (const [k, rate] of sweepRates(slower, faster).entries()) {
    const count = Math.min(
      opts.maxRequests,
      Math.max(opts.minRequests, Math.round((rate * opts.pointMs) / 1000)),
    );
    const order = k % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
    const point = { offeredRate: rate, requests: count } as SweepPointRaw;
    for (const role of order) {
      if (failures[role] >= opts.stopAfterFailures) {
        point[role] = {
          achievedRate: 0,
          p50: Number.NaN,
          p99: Number.NaN,
          p999: null,
          errors: 0,
          dropped: 0,
          skipped: true,
        };
        continue;
      }
      onProgress?.(`${role} ${rate} req/s`);
      const side = sides[role];
      const samples = await whileFrozen([sides[otherRole(role)]], () =>
        runOpenLoop({
          count,
          schedule: constantRate(rate),
          clock,
          maxInFlight: settings.connections,
          phase: 'timed',
          round: k,
          shouldStop: () => side.stopped,
          send: async (i) => {
            const w = wire[i % wire.length] as { path: string; body: string };
            try {
              return outcomeOf(await side.send('POST', w.path, w.body));
            } catch (error) {
              if (error instanceof TransportError)
                return { outcome: error.kind === 'timeout' ? 'timeout' : 'transport_error', status: 0 };
              throw error;
            }
          },
        }),
      );
      side.check();
      point[role] = summarize(samples);
      failures[role] = sustained(point[role], rate, count, opts.p99BoundMs ?? 50, settings.collapseErrorRate)
        ? 0
        : failures[role] + 1;
    }
    raw.points.push(point);
  }
  return raw;
}
