import type { BucketSignal } from '../types.js';
import { aggs, arr, metricValue, obj } from './core.js';

/** Readers for pipeline aggregations' outputs: series of buckets, single values, extremes, stats. */

/**
 * Non-empty buckets in response order with the named values; a value a pipeline did not add
 * to a bucket (the first derivative, say) reads as null on both sides.
 */
export function seriesOf(response: unknown, name: string, values: readonly string[]): BucketSignal[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: BucketSignal[] = [];
  for (const [i, raw] of arr(agg.buckets, `aggregations.${name}.buckets`).entries()) {
    const b = obj(raw, `aggregations.${name}.buckets[${i}]`);
    if (typeof b.doc_count !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].doc_count is not a number`);
    if (b.doc_count === 0) continue;
    if (typeof b.key !== 'string' && typeof b.key !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].key is invalid`);
    const metrics: Record<string, number | null> = {};
    for (const v of values)
      metrics[v] = b[v] === undefined ? null : metricValue(b[v], `${name}.buckets[${i}].${v}`);
    out.push({ key: b.key, docCount: b.doc_count, metrics });
  }
  return out;
}

/** A top-level single-value pipeline (`{"value": x}`). */
export function singleValueOf(response: unknown, name: string): Record<string, number | null> {
  return { [name]: metricValue(aggs(response, 'body')[name], `aggregations.${name}`) };
}

/** max_bucket / min_bucket: the value and the keys of the buckets that hold it. */
export function extremeOf(
  response: unknown,
  name: string,
): { metrics: Record<string, number | null>; keys: string[] } {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const keys = arr(agg.keys, `aggregations.${name}.keys`).map(String);
  return { metrics: singleValueOf(response, name), keys };
}

export function statsOf(response: unknown, name: string): Record<string, number | null> {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  const out: Record<string, number | null> = {};
  for (const f of ['count', 'min', 'max', 'avg', 'sum']) {
    const v = agg[f];
    if (v !== null && typeof v !== 'number') throw new Error(`response: ${name}.${f} is not a number`);
    out[`${name}.${f}`] = v;
  }
  return out;
}

/** Bucket keys in response order: for rows that reorder or drop buckets. */
export function keysInOrder(response: unknown, name: string): (string | number)[] {
  const agg = obj(aggs(response, 'body')[name], `aggregations.${name}`);
  return arr(agg.buckets, `aggregations.${name}.buckets`).map((raw, i) => {
    const key = obj(raw, `aggregations.${name}.buckets[${i}]`).key;
    if (typeof key !== 'string' && typeof key !== 'number')
      throw new Error(`response: ${name}.buckets[${i}].key is invalid`);
    return key;
  });
}
