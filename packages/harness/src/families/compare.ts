import type { BucketSignal, Signal } from './types.js';

/** Relative tolerance for metric values: sums and averages of doubles depend on summation order. */
export const METRIC_RELATIVE_TOLERANCE = 1e-6;

export function metricsAgree(
  a: number | null,
  b: number | null,
  tolerance = METRIC_RELATIVE_TOLERANCE,
): boolean {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= tolerance * scale;
}

const show = (x: unknown): string => {
  const s = JSON.stringify(x);
  return s === undefined ? 'absent' : s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

function compareMetrics(
  where: string,
  c: Record<string, number | null> | undefined,
  b: Record<string, number | null> | undefined,
  tolerances: Record<string, number> = {},
): string | undefined {
  const names = new Set([...Object.keys(c ?? {}), ...Object.keys(b ?? {})]);
  for (const name of names) {
    const cv = c?.[name];
    const bv = b?.[name];
    const tolerance = tolerances[name];
    if (cv === undefined || bv === undefined || !metricsAgree(cv, bv, tolerance)) {
      const within = tolerance === undefined ? '' : ` (beyond the ${tolerance * 100}% tolerance)`;
      return `${where}${name}: ${show(cv)} vs ${show(bv)}${within}`;
    }
  }
  return undefined;
}

function compareBuckets(
  name: string,
  c: BucketSignal[] | undefined,
  b: BucketSignal[] | undefined,
): string | undefined {
  if (!c || !b) return `aggregations.${name}: ${c ? 'present' : 'absent'} vs ${b ? 'present' : 'absent'}`;
  const bByKey = new Map(b.map((x) => [String(x.key), x]));
  const cByKey = new Map(c.map((x) => [String(x.key), x]));
  const missing = [...bByKey.keys()].filter((k) => !cByKey.has(k));
  const extra = [...cByKey.keys()].filter((k) => !bByKey.has(k));
  if (missing.length > 0 || extra.length > 0) {
    return `aggregations.${name}: candidate lacks buckets ${show(missing)}, has extra ${show(extra)}`;
  }
  for (const cb of c) {
    const bb = bByKey.get(String(cb.key)) as BucketSignal;
    if (cb.docCount !== bb.docCount)
      return `aggregations.${name}[${cb.key}].doc_count: ${cb.docCount} vs ${bb.docCount}`;
    const diff = compareMetrics(`aggregations.${name}[${cb.key}].`, cb.metrics, bb.metrics);
    if (diff) return diff;
  }
  return undefined;
}

/**
 * Relative tolerance for hit scores: both engines compute BM25 in 32-bit floats, with the idf
 * and length norm in a different order of operations (about 1e-6 apart); a difference in the
 * statistics a score is built from (document counts, average length) is far larger.
 */
export const SCORE_RELATIVE_TOLERANCE = 1e-4;

type ScoredHit = { id: string; score: number };

/** Consecutive hits whose scores agree within the tolerance: one run of tied scores each. */
function tieRuns(hits: readonly ScoredHit[]): ScoredHit[][] {
  const runs: ScoredHit[][] = [];
  for (const hit of hits) {
    const run = runs.at(-1);
    const first = run?.[0];
    if (run && first && metricsAgree(first.score, hit.score, SCORE_RELATIVE_TOLERANCE)) run.push(hit);
    else runs.push([hit]);
  }
  return runs;
}

/**
 * Two scored pages agree when their scores agree position by position and every run of tied
 * scores holds the same ids, in any order. The last run is exempt from the id check: the page
 * may end inside it, and which of the tied documents make the page is the engine's choice.
 */
function compareScored(c: readonly ScoredHit[], b: readonly ScoredHit[]): string | undefined {
  if (c.length !== b.length) return `hits on the page: ${c.length} vs ${b.length}`;
  for (const [i, hit] of c.entries()) {
    const other = b[i] as ScoredHit;
    if (!metricsAgree(hit.score, other.score, SCORE_RELATIVE_TOLERANCE))
      return `hits[${i}]._score: ${hit.score} vs ${other.score} (beyond ${SCORE_RELATIVE_TOLERANCE} relative)`;
  }
  const cRuns = tieRuns(c);
  const bRuns = tieRuns(b);
  for (const [i, run] of cRuns.slice(0, -1).entries()) {
    const ids = run.map((h) => h.id).sort();
    const otherIds = (bRuns[i] ?? []).map((h) => h.id).sort();
    if (!sameList(ids, otherIds)) return `hit ids scored ${run[0]?.score}: ${show(ids)} vs ${show(otherIds)}`;
  }
  return undefined;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Compare a candidate signal with the baseline's; undefined when they agree, else one line
 * naming the first material difference ("candidate vs baseline"). Totals, counts, ids, sort
 * values, lists and bucket keys/doc_counts must match exactly; metric values to 1e-6 relative
 * unless the signal names a wider tolerance for an approximate algorithm; scored pages by score
 * (1e-4 relative) and by the ids of each run of tied scores.
 */
export function compareSignals(c: Signal, b: Signal): string | undefined {
  if (c.total || b.total) {
    if (!c.total || !b.total) return `hits.total: ${show(c.total)} vs ${show(b.total)}`;
    if (c.total.value !== b.total.value || c.total.relation !== b.total.relation) {
      return `hits.total: ${c.total.value} (${c.total.relation}) vs ${b.total.value} (${b.total.relation})`;
    }
  }
  if (c.count !== b.count) return `count: ${show(c.count)} vs ${show(b.count)}`;
  if (c.ids || b.ids) {
    if (!c.ids || !b.ids || !sameList(c.ids, b.ids)) return `hit ids: ${show(c.ids)} vs ${show(b.ids)}`;
  }
  if (c.scored || b.scored) {
    if (!c.scored || !b.scored) return `scored hits: ${show(c.scored)} vs ${show(b.scored)}`;
    const diff = compareScored(c.scored, b.scored);
    if (diff) return diff;
  }
  if (c.sortValues || b.sortValues) {
    if (!c.sortValues || !b.sortValues || !sameList(c.sortValues, b.sortValues)) {
      return `sorted values: ${show(c.sortValues)} vs ${show(b.sortValues)}`;
    }
  }
  // Tolerances are the family's, so both signals carry the same ones; take the baseline's.
  const metricDiff = compareMetrics('aggregations.', c.metrics, b.metrics, b.tolerances ?? c.tolerances);
  if (metricDiff) return metricDiff;
  const listNames = new Set([...Object.keys(c.lists ?? {}), ...Object.keys(b.lists ?? {})]);
  for (const name of listNames) {
    const cl = c.lists?.[name];
    const bl = b.lists?.[name];
    if (!cl || !bl || !sameList(cl, bl)) return `${name}: ${show(cl)} vs ${show(bl)}`;
  }
  const aggNames = new Set([...Object.keys(c.buckets ?? {}), ...Object.keys(b.buckets ?? {})]);
  for (const name of aggNames) {
    const diff = compareBuckets(name, c.buckets?.[name], b.buckets?.[name]);
    if (diff) return diff;
  }
  return undefined;
}
