import { HISTOGRAM_ROWS } from './aggs/buckets-histograms.js';
import { RANGE_FILTER_ROWS } from './aggs/buckets-ranges-filters.js';
import { TERMS_ROWS } from './aggs/buckets-terms.js';
import { METRIC_ROWS } from './aggs/metrics.js';
import { APPROXIMATE_METRIC_ROWS } from './aggs/metrics-approximate.js';
import { PARENT_PIPELINE_ROWS } from './aggs/pipelines-parent.js';
import { SIBLING_PIPELINE_ROWS } from './aggs/pipelines-sibling.js';
import { DOCUMENT_ROWS } from './documents.js';
import { HIT_CONTENT_ROWS } from './hit-content.js';
import { COMPOUND_ROWS } from './queries/compound.js';
import { FULL_TEXT_ROWS } from './queries/full-text.js';
import { SORTING_PAGING_ROWS } from './queries/sorting-paging.js';
import { TERM_LEVEL_ROWS } from './queries/term-level.js';
import type { Family } from './types.js';

/** The default corpus's rows, defined by what they exercise (queries/, aggs/ and the files beside). */
const ROWS: readonly Family[] = [
  ...TERM_LEVEL_ROWS,
  ...FULL_TEXT_ROWS,
  ...COMPOUND_ROWS,
  ...SORTING_PAGING_ROWS,
  ...HIT_CONTENT_ROWS,
  ...DOCUMENT_ROWS,
  ...METRIC_ROWS,
  ...APPROXIMATE_METRIC_ROWS,
  ...TERMS_ROWS,
  ...HISTOGRAM_ROWS,
  ...RANGE_FILTER_ROWS,
  ...SIBLING_PIPELINE_ROWS,
  ...PARENT_PIPELINE_ROWS,
];

/**
 * Scorecard order: queries, metrics, buckets, features; within a group, the order the rows were
 * added in, so a row keeps its place from run to run. A new row goes at the end of its group.
 */
const SCORECARD_ORDER: readonly string[] = [
  // queries
  'query.match_all',
  'query.term',
  'query.terms',
  'query.range_numeric',
  'query.range_date',
  'query.match',
  'query.bool',
  'query.sort_numeric',
  'query.sort_timestamp',
  'query.paginate',
  'query.count',
  'query.match_none',
  'query.prefix',
  'query.wildcard',
  'query.regexp',
  'query.exists',
  'query.ids',
  'query.constant_score',
  'query.range_date_math',
  'query.match_phrase',
  'query.match_phrase_prefix',
  'query.multi_match',
  'query.fuzzy',
  'query.simple_query_string',
  'query.boosting',
  'query.dis_max',
  'query.function_score',
  'query.pinned',
  'query.match_bool_prefix',
  'query.combined_fields',
  'query.query_string',
  'query.more_like_this',
  'query.range_double',
  'query.term_boolean',
  'query.bool_should',
  'query.paginate_deep',
  // metrics
  'metric.avg',
  'metric.sum',
  'metric.min',
  'metric.max',
  'metric.stats',
  'metric.extended_stats',
  'metric.value_count',
  'metric.cardinality',
  'metric.percentiles',
  'metric.percentile_ranks',
  'metric.median_absolute_deviation',
  'metric.matrix_stats',
  'metric.scripted_metric',
  // buckets, then pipelines
  'bucket.terms',
  'bucket.date_histogram_day',
  'bucket.date_histogram_1h',
  'bucket.histogram',
  'bucket.range',
  'bucket.date_range',
  'bucket.filter',
  'bucket.filters',
  'bucket.missing',
  'bucket.composite',
  'bucket.top_hits',
  'bucket.rare_terms',
  'bucket.significant_terms',
  'bucket.adjacency_matrix',
  'bucket.global',
  'bucket.auto_date_histogram',
  'bucket.variable_width_histogram',
  'bucket.random_sampler',
  'bucket.date_histogram_tz',
  'bucket.pipeline.sum_bucket',
  'bucket.pipeline.avg_bucket',
  'bucket.pipeline.max_bucket',
  'bucket.pipeline.min_bucket',
  'bucket.pipeline.stats_bucket',
  'bucket.pipeline.percentiles_bucket',
  'bucket.pipeline.derivative',
  'bucket.pipeline.cumulative_sum',
  'bucket.pipeline.moving_fn',
  'bucket.pipeline.serial_diff',
  'bucket.pipeline.bucket_script',
  'bucket.pipeline.bucket_selector',
  'bucket.pipeline.bucket_sort',
  'bucket.terms_plain',
  // features
  'feature.source_filtering',
  'feature.search_after',
  'feature.sort_doc',
  'feature.mget',
  'feature.msearch',
  'feature.highlight',
];

/** The rows in the order given; each row listed exactly once, or the module does not load. */
export function inOrder(rows: readonly Family[], order: readonly string[]): Family[] {
  const byId = new Map(rows.map((f) => [f.id, f]));
  if (byId.size !== rows.length) throw new Error('families: two rows share an id');
  const out = order.map((id) => {
    const f = byId.get(id);
    if (!f) throw new Error(`families: ${id} is in the scorecard order twice, or no row has that id`);
    byId.delete(id);
    return f;
  });
  if (byId.size > 0)
    throw new Error(`families: ${[...byId.keys()].join(', ')} missing from the scorecard order`);
  return out;
}

/** Every read row of the default corpus, in scorecard order. */
export const ALL_FAMILIES: readonly Family[] = inOrder(ROWS, SCORECARD_ORDER);

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
