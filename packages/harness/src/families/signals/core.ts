import type { BucketSignal, Signal } from '../types.js';

/**
 * The base readers of ES response shapes, used by every row: a malformed response throws a
 * clear error naming the path, never a wrong signal.
 */

export type Json = Record<string, unknown>;

export function obj(x: unknown, where: string): Json {
  if (x === null || typeof x !== 'object' || Array.isArray(x))
    throw new Error(`response: ${where} is not an object`);
  return x as Json;
}

export function arr(x: unknown, where: string): unknown[] {
  if (!Array.isArray(x)) throw new Error(`response: ${where} is not an array`);
  return x;
}

export function hits(response: unknown): Json {
  return obj(obj(response, 'body').hits, 'hits');
}

export function totalOf(response: unknown): { value: number; relation: string } {
  const total = obj(hits(response).total, 'hits.total');
  if (typeof total.value !== 'number') throw new Error('response: hits.total.value is not a number');
  return { value: total.value, relation: String(total.relation) };
}

export function countOf(response: unknown): number {
  const count = obj(response, 'body').count;
  if (typeof count !== 'number') throw new Error('response: count is not a number');
  return count;
}

export function idsOf(response: unknown): string[] {
  return arr(hits(response).hits, 'hits.hits').map((h, i) => String(obj(h, `hits.hits[${i}]`)._id));
}

export function sourceValuesOf(response: unknown, field: string): unknown[] {
  return arr(hits(response).hits, 'hits.hits').map((h, i) => {
    const source = obj(obj(h, `hits.hits[${i}]`)._source, `hits.hits[${i}]._source`);
    return source[field] ?? null;
  });
}

export function aggs(container: unknown, where: string): Json {
  return obj(obj(container, where).aggregations ?? container, `${where}.aggregations`);
}

export function metricValue(agg: unknown, where: string): number | null {
  const value = obj(agg, where).value;
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number') throw new Error(`response: ${where}.value is not a number`);
  return value;
}

export function metricOf(response: unknown, name: string): number | null {
  return metricValue(aggs(response, 'body')[name], `aggregations.${name}`);
}

/**
 * Buckets with doc_count > 0, in key order. Empty buckets are dropped on both sides: whether an
 * engine fills gaps with zero buckets is presentation, not a different answer.
 */
export function bucketsOf(
  response: unknown,
  name: string,
  subMetrics: readonly string[] = [],
): BucketSignal[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: BucketSignal[] = [];
  for (const [i, raw] of arr(agg.buckets, `aggregations.${name}.buckets`).entries()) {
    const b = obj(raw, `aggregations.${name}.buckets[${i}]`);
    const docCount = b.doc_count;
    if (typeof docCount !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].doc_count is not a number`);
    if (docCount === 0) continue;
    const key = b.key;
    if (typeof key !== 'string' && typeof key !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].key is invalid`);
    const bucket: BucketSignal = { key, docCount };
    if (subMetrics.length > 0) {
      bucket.metrics = {};
      for (const m of subMetrics) bucket.metrics[m] = metricValue(b[m], `${name}.buckets[${i}].${m}`);
    }
    out.push(bucket);
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export const num = (x: unknown, where: string): number => {
  if (typeof x !== 'number') throw new Error(`response: ${where} is not a number`);
  return x;
};

/** The hit total and the page's ids in order: for rows sorted on a unique field. */
export const totalAndIds = (response: unknown): Signal => ({
  total: totalOf(response),
  ids: idsOf(response),
});

/** Metrics that all carry one relative tolerance (an approximate algorithm's). */
export const withTolerance = (metrics: Record<string, number | null>, tolerance: number) => ({
  metrics,
  tolerances: Object.fromEntries(Object.keys(metrics).map((k) => [k, tolerance])),
});
