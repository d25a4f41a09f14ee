import { MORE_AGG_FAMILIES } from './aggsMore.js';
import { BUCKET_FAMILIES } from './bucket.js';
import { MORE_BUCKET_FAMILIES } from './bucketMore.js';
import { FEATURE_FAMILIES } from './feature.js';
import { METRIC_FAMILIES } from './metric.js';
import { MULTI_METRIC_FAMILIES } from './metricMulti.js';
import { PIPELINE_FAMILIES } from './pipeline.js';
import { QUERY_FAMILIES } from './query.js';
import { MORE_QUERY_FAMILIES } from './queryMore.js';
import { STRUCTURED_QUERY_FAMILIES } from './queryStructured.js';
import { TEXT_QUERY_FAMILIES } from './queryText.js';
import type { Family } from './types.js';

/** Every read row, in scorecard order: queries, metrics, buckets, features. */
export const ALL_FAMILIES: readonly Family[] = [
  ...QUERY_FAMILIES,
  ...STRUCTURED_QUERY_FAMILIES,
  ...TEXT_QUERY_FAMILIES,
  ...MORE_QUERY_FAMILIES,
  ...METRIC_FAMILIES,
  ...MULTI_METRIC_FAMILIES,
  ...MORE_AGG_FAMILIES.filter((f) => f.group === 'metric'),
  ...BUCKET_FAMILIES,
  ...MORE_BUCKET_FAMILIES,
  ...MORE_AGG_FAMILIES.filter((f) => f.group === 'bucket'),
  ...PIPELINE_FAMILIES,
  ...FEATURE_FAMILIES,
];

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
