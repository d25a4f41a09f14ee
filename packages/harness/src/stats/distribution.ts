import { minSamplesFor, percentileSorted, sortedCopy } from './percentile.js';

/**
 * Quantiles of the compact latency ECDF kept per side for the site's drill-down charts: dense in
 * the tail, where engines differ, sparse in the body.
 */
export const ECDF_QUANTILES: readonly number[] = [
  0.01, 0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7,
  0.75, 0.8, 0.825, 0.85, 0.875, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.975, 0.98, 0.985, 0.99,
  0.995, 0.999,
];

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Latency (ms) at each ECDF quantile the sample supports (same sample-size rule as the reported
 * percentiles: no q = 0.999 from 600 samples).
 */
export function ecdf(latenciesMs: readonly number[]): { q: number[]; ms: number[] } | undefined {
  if (latenciesMs.length === 0) return undefined;
  const sorted = sortedCopy(latenciesMs);
  const q = ECDF_QUANTILES.filter((x) => sorted.length >= minSamplesFor(x * 100));
  return { q: [...q], ms: q.map((x) => round3(percentileSorted(sorted, x * 100))) };
}

export interface TimedLatency {
  /** Intended send instant, ms from the start of this engine's timed schedule. */
  atMs: number;
  latencyMs: number;
}

/**
 * Latency over the timed schedule in about `bins` equal bins: p50, p99 and count per bin (a
 * merge or flush stall shows as a spike). With fewer than 100 samples in a bin its p99 is the
 * bin's maximum; a bin without samples has count 0 and p50 = p99 = 0.
 */
export function timeline(
  points: readonly TimedLatency[],
  spanMs: number,
  bins = 30,
): { binMs: number; p50: number[]; p99: number[]; count: number[] } | undefined {
  if (points.length === 0 || !(spanMs > 0)) return undefined;
  const binMs = Math.max(1, Math.ceil(spanMs / bins));
  const n = Math.ceil(spanMs / binMs);
  const groups: number[][] = Array.from({ length: n }, () => []);
  for (const p of points) {
    const k = Math.min(n - 1, Math.max(0, Math.floor(p.atMs / binMs)));
    (groups[k] as number[]).push(p.latencyMs);
  }
  const at = (g: number[], pct: number) =>
    g.length === 0 ? 0 : round3(percentileSorted(sortedCopy(g), pct));
  return {
    binMs,
    p50: groups.map((g) => at(g, 50)),
    p99: groups.map((g) => at(g, 99)),
    count: groups.map((g) => g.length),
  };
}
