import { aggs, arr, hits, type Json, metricValue, obj } from './signal.js';
import type { BucketSignal } from './types.js';

/** Readers for multi-value metrics, single-bucket, keyed and composite aggregations, and hits' sources. */

/** The named numeric fields of a multi-value metric (stats, extended_stats), prefixed with the agg name. */
export function multiMetricOf(
  response: unknown,
  name: string,
  fields: readonly string[],
): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: Record<string, number | null> = {};
  for (const f of fields) {
    const v = agg[f];
    if (v !== null && v !== undefined && typeof v !== 'number')
      throw new Error(`response: aggregations.${name}.${f} is not a number`);
    out[`${name}.${f}`] = (v ?? null) as number | null;
  }
  return out;
}

/**
 * Percentile values keyed "name.p<percent>". OpenSearch answers `values` as an object keyed by
 * "50.0"; the keyed:false array form is accepted too, so the shape is not what is compared.
 */
export function percentilesOf(response: unknown, name: string): Record<string, number | null> {
  const values = obj(aggs(response, 'body')[name], `aggregations.${name}`).values;
  const out: Record<string, number | null> = {};
  const put = (key: unknown, value: unknown) => {
    const percent = Number(key);
    if (!Number.isFinite(percent)) throw new Error(`response: ${name} has a non-numeric percent ${key}`);
    if (value !== null && typeof value !== 'number')
      throw new Error(`response: ${name}[${key}] is not a number`);
    out[`${name}.p${percent}`] = value;
  };
  if (Array.isArray(values)) {
    for (const [i, v] of values.entries()) {
      const e = obj(v, `${name}.values[${i}]`);
      put(e.key, e.value);
    }
  } else {
    for (const [k, v] of Object.entries(obj(values, `aggregations.${name}.values`))) put(k, v);
  }
  return out;
}

/** doc_count and named sub-metrics of a single-bucket aggregation (filter, missing). */
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

/** JSON with object keys sorted, so two engines' equal sources compare equal as strings. */
export function canonicalJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(',')}]`;
  if (x !== null && typeof x === 'object') {
    const entries = Object.entries(x as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(x) ?? 'null';
}

/** Each hit's `_source` as canonical JSON ("absent" when the engine left it out). */
export function sourcesOf(response: unknown): string[] {
  return arr(hits(response).hits, 'hits.hits').map((h, i) => {
    const source = obj(h, `hits.hits[${i}]`)._source;
    return source === undefined ? 'absent' : canonicalJson(source);
  });
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
