/**
 * The little statistics the compare page needs, small enough to ship to the browser: Student's t
 * quantile (through the regularized incomplete beta function, Numerical Recipes' continued
 * fraction) and a t interval of a mean. Pure.
 */

function logGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9), accurate to ~15 digits for x > 0.
  const g = 7;
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
    12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0] as number;
  for (let i = 1; i < g + 2; i++) sum += (c[i] as number) / (z + i);
  const t = z + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-14) break;
  }
  return h;
}

/** I_x(a, b), the regularized incomplete beta function. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(a, b, x)) / a
    : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom (Infinity: the normal). */
export function tCdf(t: number, df: number): number {
  if (!Number.isFinite(df)) return 0.5 * (1 + erf(t / Math.SQRT2));
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

function erf(x: number): number {
  // erf through the incomplete gamma's relation to the beta limit is overkill: Abramowitz-Stegun 7.1.26
  // is off by 1.5e-7, far below anything the page prints.
  const sign = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-a * a);
  return sign * y;
}

/** The p-quantile of Student's t with `df` degrees of freedom, by bisection on the CDF. */
export function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  let low = -1e4;
  let high = 1e4;
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2;
    if (tCdf(mid, df) < p) low = mid;
    else high = mid;
    if (high - low < 1e-10) break;
  }
  return (low + high) / 2;
}

/** A two-sided t interval of the mean of `values` at `level`; undefined with fewer than two values. */
export function meanInterval(
  values: readonly number[],
  level: number,
): { mean: number; low: number; high: number } | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  if (n < 2) return undefined;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(1 - (1 - level) / 2, n - 1) * (sd / Math.sqrt(n));
  return { mean, low: mean - half, high: mean + half };
}
