import type { BucketSignal } from '../types.js';
import { aggs, arr, type Json, metricValue, num, obj } from './core.js';

/**
 * Readers for bucket aggregations beyond a plain list of keyed buckets (core.ts's bucketsOf):
 * single-bucket, keyed, composite, significant and histogram shapes; a malformed response throws.
 */

/** doc_count and named sub-metrics of a single-bucket aggregation (filter, missing, global, random_sampler). */
export function singleBucketOf(
  response: unknown,
  name: string,
  subMetrics: readonly string[] = [],
): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  if (typeof agg.doc_count !== 'number') throw new Error(`response: ${name}.doc_count is not a number`);
  const out: Record<string, number | null> = { [`${name}.doc_count`]: agg.doc_count };
  for (const m of subMetrics) out[`${name}.${m}`] = metricValue(agg[m], `${name}.${m}`);
  return out;
}

function bucketFrom(
  b: Json,
  key: string | number,
  where: string,
  subMetrics: readonly string[],
): BucketSignal {
  if (typeof b.doc_count !== 'number') throw new Error(`response: ${where}.doc_count is not a number`);
  const bucket: BucketSignal = { key, docCount: b.doc_count };
  if (subMetrics.length > 0) {
    bucket.metrics = {};
    for (const m of subMetrics) bucket.metrics[m] = metricValue(b[m], `${where}.${m}`);
  }
  return bucket;
}

const byKey = (a: BucketSignal, b: BucketSignal) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Buckets of an aggregation whose buckets are either keyed (an object: filters, keyed ranges) or
 * a list with `key` fields; empty buckets dropped, as in `bucketsOf`.
 */
export function namedBucketsOf(
  response: unknown,
  name: string,
  subMetrics: readonly string[] = [],
): BucketSignal[] {
  const raw = obj(aggs(response, 'body')[name], `aggregations.${name}`).buckets;
  const entries: [string, unknown][] = Array.isArray(raw)
    ? raw.map((b, i) => [String(obj(b, `${name}.buckets[${i}]`).key), b])
    : Object.entries(obj(raw, `aggregations.${name}.buckets`));
  return entries
    .map(([key, b]) =>
      bucketFrom(obj(b, `${name}.buckets.${key}`), key, `${name}.buckets.${key}`, subMetrics),
    )
    .filter((b) => b.docCount > 0)
    .sort(byKey);
}

/** Composite buckets, their object keys flattened to "source=value|source=value" in source order. */
export function compositeBucketsOf(
  response: unknown,
  name: string,
  sources: readonly string[],
): BucketSignal[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  return arr(agg.buckets, `aggregations.${name}.buckets`)
    .map((raw, i) => {
      const b = obj(raw, `${name}.buckets[${i}]`);
      const key = obj(b.key, `${name}.buckets[${i}].key`);
      return bucketFrom(
        b,
        sources.map((s) => `${s}=${String(key[s])}`).join('|'),
        `${name}.buckets[${i}]`,
        [],
      );
    })
    .sort(byKey);
}

/** Ids of the top hits inside each bucket of `parent` (a terms agg) holding a top_hits `child`. */
export function topHitsIdsOf(response: unknown, parent: string, child: string): Record<string, string[]> {
  const agg = obj(aggs(response, 'body')[parent], `aggregations.${parent}`);
  const out: Record<string, string[]> = {};
  for (const [i, raw] of arr(agg.buckets, `aggregations.${parent}.buckets`).entries()) {
    const b = obj(raw, `${parent}.buckets[${i}]`);
    const inner = obj(b[child], `${parent}.buckets[${i}].${child}`);
    out[`${child}[${String(b.key)}]`] = arr(obj(inner.hits, `${child}.hits`).hits, `${child}.hits.hits`).map(
      (h, j) => String(obj(h, `${child}.hits.hits[${j}]`)._id),
    );
  }
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

/** auto_date_histogram's chosen interval ("3h", "1d", ...): the rounding ladder must agree too. */
export function intervalOf(response: unknown, name: string): string {
  const interval = obj(aggs(response, 'body')[name], `aggregations.${name}`).interval;
  if (typeof interval !== 'string') throw new Error(`response: ${name}.interval is not a string`);
  return interval;
}
