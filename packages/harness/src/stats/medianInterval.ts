/**
 * A distribution-free confidence interval for a median: the order statistics x(k) and
 * x(n+1-k), with k the largest rank such that a Binomial(n, 1/2) count falls below k with
 * probability at most (1 - confidence) / 2 (the sign test inverted). It assumes nothing about
 * the shape of the values, so a handful of wild ones (a row the change really did slow down, a
 * row measured on noise) cannot drag it the way they drag a mean.
 */
export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** Values the interval was taken over. */
  n: number;
}

/** P(Binomial(n, 1/2) <= k), summed in log space so large n does not overflow. */
function binomialHalfCdf(n: number, k: number): number {
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2^n
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i);
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/** `undefined` for no values; with too few values for the confidence the interval is the whole range. */
export function medianInterval(values: readonly number[], confidence: number): MedianInterval | undefined {
  const xs = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return undefined;
  const mid = n >> 1;
  const median = n % 2 === 1 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
  const tail = (1 - confidence) / 2;
  // k = number of values cut from each end: the largest with P(count <= k - 1) <= tail.
  let k = 0;
  while (k < mid && binomialHalfCdf(n, k) <= tail) k++;
  const lowRank = Math.max(0, k - 1);
  return { median, low: xs[lowRank] as number, high: xs[n - 1 - lowRank] as number, n };
}
