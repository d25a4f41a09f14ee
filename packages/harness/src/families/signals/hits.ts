import type { Signal } from '../types.js';
import { arr, hits, type Json, num, obj, totalOf } from './core.js';

/** Readers for what a hit carries beyond its id: its source, its score. */

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

/** Each hit's `_score` in hit order, keyed "score[i]" (ties in a different order give the same list). */
export function scoresOf(response: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [i, h] of arr(hits(response).hits, 'hits.hits').entries())
    out[`score[${i}]`] = num(obj(h, `hits.hits[${i}]`)._score, `hits.hits[${i}]._score`);
  return out;
}

/** Each hit's id and highlighted fragments of `field`, in hit order (for a sort that fixes the order). */
export function highlightsOf(response: unknown, field: string): string[] {
  return arr(hits(response).hits, 'hits.hits').map((h, i) => {
    const hit = obj(h, `hits.hits[${i}]`);
    const fragments =
      hit.highlight === undefined ? [] : obj(hit.highlight, `hits.hits[${i}].highlight`)[field];
    return `${String(hit._id)}: ${(fragments === undefined ? [] : arr(fragments, `hits.hits[${i}].highlight.${field}`)).join(' … ')}`;
  });
}

/** Each hit's id and `_score`, in hit order (a scored page: no sort in the request). */
export function scoredHitsOf(response: unknown): { id: string; score: number }[] {
  return arr(hits(response).hits, 'hits.hits').map((h, i) => {
    const hit = obj(h, `hits.hits[${i}]`);
    return { id: String(hit._id), score: num(hit._score, `hits.hits[${i}]._score`) };
  });
}

/** The hit total and the scored page: for scored rows (compared tie-aware, families/compare.ts). */
export const totalAndScores = (response: unknown): Signal => ({
  total: totalOf(response),
  scored: scoredHitsOf(response),
});
