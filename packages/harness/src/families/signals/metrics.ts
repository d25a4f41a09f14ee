import { aggs, arr, num, obj } from './core.js';

/** Readers for multi-value and approximate metric aggregations; a malformed response throws. */

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
