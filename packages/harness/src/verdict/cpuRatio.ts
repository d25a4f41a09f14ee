import type { ReadRowRaw } from '../model/raw.js';
import { nestedRatioOfSums } from '../stats/nestedInterval.js';

/**
 * Engine CPU per request, baseline over candidate (> 1: the candidate spends less), with its
 * interval from the paired rounds (forks, then rounds, resampled). Undefined when either
 * engine's CPU could not be read.
 */
export function cpuRatio(raw: ReadRowRaw, confidence: number) {
  const c = new Map((raw.candidate.cpu ?? []).map((w) => [w.round, w]));
  const pairs = (raw.baseline.cpu ?? []).flatMap((b) => {
    const w = c.get(b.round);
    return w && w.requests > 0 && b.requests > 0 && w.cpuNs > 0
      ? [
          {
            fork: b.fork,
            num: [b.cpuNs, b.requests] as [number, number],
            den: [w.cpuNs, w.requests] as [number, number],
          },
        ]
      : [];
  });
  if (pairs.length === 0) return undefined;
  return nestedRatioOfSums(pairs, confidence);
}
