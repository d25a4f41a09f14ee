import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  type Histogram,
} from 'hdr-histogram-js';
import { minSamplesFor } from './percentile.js';

/** Latencies are recorded in microseconds: 1 us resolution, up to an hour, 3 significant digits. */
const US_PER_MS = 1000;
const HIGHEST_US = 3_600_000_000;

/** An HDR histogram of the latencies (ms), in microseconds; the caller destroys it. */
function latencyHistogram(latenciesMs: readonly number[]): Histogram {
  const histogram = build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
  });
  for (const ms of latenciesMs) {
    histogram.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(ms * US_PER_MS))));
  }
  return histogram;
}

/**
 * A high percentile read from an HDR histogram of the latencies (ms), or undefined when the
 * sample is too small to support it (a p99.9 needs 1,000 samples: below that it is the maximum
 * dressed up as a tail).
 */
export function hdrPercentile(latenciesMs: readonly number[], p: number): number | undefined {
  if (latenciesMs.length === 0 || latenciesMs.length < minSamplesFor(p)) return undefined;
  const histogram = latencyHistogram(latenciesMs);
  try {
    return histogram.getValueAtPercentile(p) / US_PER_MS;
  } finally {
    histogram.destroy();
  }
}

/**
 * The whole latency distribution (ms) as HdrHistogram's compressed base64 encoding (V2, in
 * microseconds): the form every HdrHistogram port (Java, Go, Rust, Python) decodes, so a reader
 * can take any percentile away from a scorecard without the raw samples. Undefined for no samples.
 */
export function hdrEncode(latenciesMs: readonly number[]): string | undefined {
  if (latenciesMs.length === 0) return undefined;
  const histogram = latencyHistogram(latenciesMs);
  try {
    return encodeIntoCompressedBase64(histogram);
  } finally {
    histogram.destroy();
  }
}

/** What hdrEncode's string holds: how many latencies, and the latency (ms) at a percentile (0-100). */
export function hdrDecode(encoded: string): { count: number; percentileMs: (p: number) => number } {
  const histogram = decodeFromCompressedBase64(encoded);
  return {
    count: histogram.totalCount,
    percentileMs: (p) => histogram.getValueAtPercentile(p) / US_PER_MS,
  };
}
