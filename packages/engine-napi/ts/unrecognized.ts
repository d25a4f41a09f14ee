/**
 * ES's message for names a request does not know (`BaseRestHandler.unrecognized`): each bad
 * name with the known ones most like it, by Lucene's Levenshtein similarity above 0.5 (one
 * minus the edit distance over the longer length), best first:
 * `request [/_stats/fieldata] contains unrecognized metric: [fieldata] -> did you mean [fielddata]?`
 */

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((current[j - 1] ?? 0) + 1, (previous[j] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Lucene's `LevenshteinDistance.getDistance`: 1 for equal strings, 0 for nothing alike. */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - editDistance(a, b) / longest;
}

export function unrecognized(
  path: string,
  invalid: string[],
  candidates: Iterable<string>,
  detail: string,
): string {
  const known = [...candidates];
  const parts = [...new Set(invalid)].sort().map((name) => {
    const close = known
      .map((c) => ({ c, d: similarity(name, c) }))
      .filter(({ d }) => d > 0.5)
      .sort((x, y) => y.d - x.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
      .map(({ c }) => c);
    if (close.length === 0) return `[${name}]`;
    const hint = close.length === 1 ? `[${close[0]}]` : `any of [${close.join(', ')}]`;
    return `[${name}] -> did you mean ${hint}?`;
  });
  const plural = parts.length > 1 ? 's' : '';
  return `request [${path}] contains unrecognized ${detail}${plural}: ${parts.join(', ')}`;
}
