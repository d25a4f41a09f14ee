import { BUCKET_FAMILIES } from './bucket.js';
import { METRIC_FAMILIES } from './metric.js';
import { QUERY_FAMILIES } from './query.js';
import type { Family } from './types.js';

export const ALL_FAMILIES: readonly Family[] = [...QUERY_FAMILIES, ...METRIC_FAMILIES, ...BUCKET_FAMILIES];

/** Glob with `*` only (e.g. "query.*", "*.terms"), matched against the whole row id. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Rows whose id matches any of the comma-separated globs. */
export function selectFamilies(globs: string, families: readonly Family[] = ALL_FAMILIES): Family[] {
  const patterns = globs
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
    .map(globToRegExp);
  return families.filter((f) => patterns.some((p) => p.test(f.id)));
}
