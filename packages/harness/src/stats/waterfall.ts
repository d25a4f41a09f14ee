import type { Sample } from '../model/samples.js';
import type { Waterfall } from '../scorecard/schema.js';

/** A floor's latency and its own send lag at one quantile, ms (the harness against a null server). */
export interface FloorAt {
  latencyMs: number;
  sendLagMs: number;
}

/** Half-width of the rank band, as a fraction of the samples, per quantile. */
function halfWidth(q: number): number {
  return q >= 99 ? 0.005 : 0.05;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The mean of a part over the band, when at least half the band reported it. */
function partMean(band: Sample[], part: (s: Sample) => number | undefined): number | undefined {
  const values = band.map(part).filter((v): v is number => v !== undefined && Number.isFinite(v));
  return values.length * 2 >= band.length && values.length > 0 ? mean(values) : undefined;
}

/**
 * The requests ranked around quantile q (percent) in latency order: the one at q and
 * halfWidth(q) x n ranks on each side of it. Averaging a part over them, rather than taking each
 * part's own quantile, keeps the parts of one set of requests, so they add up.
 */
export function rankBand<T extends { latencyMs: number }>(samples: readonly T[], q: number): T[] {
  const sorted = [...samples].sort((a, b) => a.latencyMs - b.latencyMs);
  const n = sorted.length;
  const at = Math.min(n - 1, Math.max(0, Math.ceil((q / 100) * n) - 1));
  const half = Math.round(halfWidth(q) * n);
  return sorted.slice(Math.max(0, at - half), Math.min(n - 1, at + half) + 1);
}

/**
 * The waterfall of successful timed samples at quantile q (percent), or undefined without samples.
 */
export function waterfall(samples: readonly Sample[], q: number, floor: FloorAt): Waterfall | undefined {
  const ok = samples.filter((s) => s.outcome === 'ok' && Number.isFinite(s.latencyMs));
  if (ok.length === 0) return undefined;
  const band = rankBand(ok, q);
  const latencyMs = mean(band.map((s) => s.latencyMs));
  const queueMs = mean(band.map((s) => (Number.isFinite(s.lagMs) ? s.lagMs : 0)));
  const floorMs = Math.max(0, floor.latencyMs - floor.sendLagMs);
  const native = partMean(band, (s) => s.engine?.engineMs);
  const call = partMean(band, (s) => s.engine?.callMs);
  const handler = partMean(band, (s) => s.engine?.handlerMs);
  const took = partMean(band, (s) => s.engine?.tookMs);
  const w: Waterfall = {
    q,
    samples: band.length,
    latencyMs: round4(latencyMs),
    floorMs: round4(floorMs),
    queueMs: round4(queueMs),
    restMs: 0,
  };
  let accounted = queueMs + floorMs;
  if (native !== undefined) {
    w.engineMs = round4(native);
    w.engineSource = 'server-timing';
    accounted += native;
    if (call !== undefined && handler !== undefined) {
      w.hopMs = round4(call - native);
      w.serviceMs = round4(handler - call);
      accounted += handler - native;
    }
  } else if (took !== undefined) {
    w.engineMs = round4(took);
    w.engineSource = 'took';
    accounted += took;
  }
  w.restMs = round4(latencyMs - accounted);
  return w;
}

/** A run's floor (scorecard Floor's fields) seen from the waterfall. */
export interface FloorQuantiles {
  p50: number;
  p99: number;
  sendLagP50: number;
  sendLagP99: number;
}

/** An engine's waterfalls at p50 and p99 against the run's floor; undefined without samples. */
export function sideWaterfalls(
  samples: readonly Sample[],
  floor: FloorQuantiles,
): { p50: Waterfall; p99: Waterfall } | undefined {
  const p50 = waterfall(samples, 50, { latencyMs: floor.p50, sendLagMs: floor.sendLagP50 });
  const p99 = waterfall(samples, 99, { latencyMs: floor.p99, sendLagMs: floor.sendLagP99 });
  return p50 && p99 ? { p50, p99 } : undefined;
}
