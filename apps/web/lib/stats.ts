/**
 * The t interval of a mean the compare page needs, on the harness's own Student-t and normal
 * quantiles (pure, small enough to ship to the browser with the compare script).
 */
import { normalQuantile, studentTQuantile } from '@everycell/harness/quantiles';

/** The p-quantile of Student's t with `df` degrees of freedom (Infinity: the normal). */
export function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  return Number.isFinite(df) ? studentTQuantile(p, df) : normalQuantile(p);
}

/** A two-sided t interval of the mean of `values` at `level`; undefined with fewer than two values. */
export function meanInterval(
  values: readonly number[],
  level: number,
): { mean: number; low: number; high: number } | undefined {
  const n = values.length;
  if (n < 2) return undefined;
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(1 - (1 - level) / 2, n - 1) * (sd / Math.sqrt(n));
  return { mean, low: mean - half, high: mean + half };
}
