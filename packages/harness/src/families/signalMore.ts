import { aggs, arr, hits, metricValue, obj } from './signal.js';
import type { BucketSignal } from './types.js';

/** Readers for the response shapes of queryMore.ts and aggsMore.ts; a malformed response throws. */

const num = (x: unknown, where: string): number => {
  if (typeof x !== 'number') throw new Error(`response: ${where} is not a number`);
  return x;
};

/** Each hit's `_score` in hit order, keyed "score[i]" (ties in a different order give the same list). */
export function scoresOf(response: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [i, h] of arr(hits(response).hits, 'hits.hits').entries())
    out[`score[${i}]`] = num(obj(h, `hits.hits[${i}]`)._score, `hits.hits[${i}]._score`);
  return out;
}

/**
 * Every bucket of a histogram as "key=doc_count", in the engine's order, empty buckets INCLUDED:
 * for a request with min_doc_count 0 and extended_bounds the empty buckets are the answer.
 */
export function allBucketsOf(response: unknown, name: string): string[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  return arr(agg.buckets, `aggregations.${name}.buckets`).map((raw, i) => {
    const b = obj(raw, `${name}.buckets[${i}]`);
    return `${num(b.key, `${name}.buckets[${i}].key`)}=${num(b.doc_count, `${name}.buckets[${i}].doc_count`)}`;
  });
}

/** significant_terms buckets with their score and background count, in key order. */
export function significantBucketsOf(response: unknown, name: string): BucketSignal[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  return arr(agg.buckets, `aggregations.${name}.buckets`)
    .map((raw, i) => {
      const b = obj(raw, `${name}.buckets[${i}]`);
      const where = `${name}.buckets[${i}]`;
      return {
        key: String(b.key),
        docCount: num(b.doc_count, `${where}.doc_count`),
        metrics: { score: num(b.score, `${where}.score`), bg_count: num(b.bg_count, `${where}.bg_count`) },
      };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The agg-level doc_count and bg_count of a significant_terms aggregation. */
export function significantTotalsOf(response: unknown, name: string): Record<string, number> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  return {
    [`${name}.doc_count`]: num(agg.doc_count, `${name}.doc_count`),
    [`${name}.bg_count`]: num(agg.bg_count, `${name}.bg_count`),
  };
}

/** matrix_stats: doc_count, then per field its moments and its covariance/correlation with every field. */
export function matrixStatsOf(response: unknown, name: string): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: Record<string, number | null> = {
    [`${name}.doc_count`]: num(agg.doc_count, `${name}.doc_count`),
  };
  for (const [i, raw] of arr(agg.fields ?? [], `${name}.fields`).entries()) {
    const f = obj(raw, `${name}.fields[${i}]`);
    const field = String(f.name);
    for (const k of ['count', 'mean', 'variance', 'skewness', 'kurtosis'])
      out[`${field}.${k}`] = (f[k] ?? null) as number | null;
    for (const k of ['covariance', 'correlation']) {
      for (const [other, v] of Object.entries(obj(f[k], `${name}.fields[${i}].${k}`)))
        out[`${field}.${k}.${other}`] = num(v, `${name}.${field}.${k}.${other}`);
    }
  }
  return out;
}

/** A percentile_ranks result keyed "name.rank<value>" (the object and keyed:false shapes alike). */
export function ranksOf(response: unknown, name: string): Record<string, number | null> {
  const values = obj(aggs(response, 'body')[name], `aggregations.${name}`).values;
  const entries: [unknown, unknown][] = Array.isArray(values)
    ? values.map((v, i) => {
        const e = obj(v, `${name}.values[${i}]`);
        return [e.key, e.value];
      })
    : Object.entries(obj(values, `aggregations.${name}.values`));
  const out: Record<string, number | null> = {};
  for (const [k, v] of entries) {
    if (v !== null && typeof v !== 'number') throw new Error(`response: ${name}[${k}] is not a number`);
    out[`${name}.rank${Number(k)}`] = v;
  }
  return out;
}

/**
 * variable_width_histogram buckets by position: centroid key, min, max and doc_count of each,
 * plus how many there are. Positional names let the centroids (means: summation order) carry
 * the metric tolerance while min, max and counts, being data values, agree exactly anyway.
 */
export function widthBucketsOf(response: unknown, name: string): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const buckets = arr(agg.buckets, `aggregations.${name}.buckets`);
  const out: Record<string, number | null> = { [`${name}.buckets`]: buckets.length };
  for (const [i, raw] of buckets.entries()) {
    const b = obj(raw, `${name}.buckets[${i}]`);
    for (const k of ['key', 'min', 'max', 'doc_count'])
      out[`${name}[${i}].${k}`] = num(b[k], `${name}.buckets[${i}].${k}`);
  }
  return out;
}

/** A single-bucket agg's doc_count and named sub-metrics (random_sampler, global). */
export function bucketMetricsOf(
  response: unknown,
  name: string,
  subMetrics: readonly string[],
): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: Record<string, number | null> = {
    [`${name}.doc_count`]: num(agg.doc_count, `${name}.doc_count`),
  };
  for (const m of subMetrics) out[`${name}.${m}`] = metricValue(agg[m], `${name}.${m}`);
  return out;
}

/** auto_date_histogram's chosen interval ("3h", "1d", ...): the rounding ladder must agree too. */
export function intervalOf(response: unknown, name: string): string {
  const interval = obj(aggs(response, 'body')[name], `aggregations.${name}`).interval;
  if (typeof interval !== 'string') throw new Error(`response: ${name}.interval is not a string`);
  return interval;
}
