import { build } from 'hdr-histogram-js';
import { minSamplesFor } from './percentile.js';

/** Latencies are recorded in microseconds: 1 us resolution, up to an hour, 3 significant digits. */
const US_PER_MS = 1000;
const HIGHEST_US = 3_600_000_000;

/**
 * A high percentile read from an HDR histogram of the latencies (ms), or undefined when the
 * sample is too small to support it (a p99.9 needs 1,000 samples: below that it is the maximum
 * dressed up as a tail).
 */
export function hdrPercentile(latenciesMs: readonly number[], p: number): number | undefined {
  if (latenciesMs.length === 0 || latenciesMs.length < minSamplesFor(p)) return undefined;
  const histogram = build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
  });
  try {
    for (const ms of latenciesMs) {
      histogram.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(ms * US_PER_MS))));
    }
    return histogram.getValueAtPercentile(p) / US_PER_MS;
  } finally {
    histogram.destroy();
  }
}
