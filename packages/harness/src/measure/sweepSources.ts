/**
 * The read rows swept to their knee (throughput.<family>): filters, full text, two aggregations
 * and a sorted page. On its own, without imports, so the site's capacity planner can name the
 * read row whose CPU per request a sweep's family costs.
 */
export const SWEEP_SOURCE_FAMILIES: readonly string[] = [
  'query.term',
  'query.match',
  'bucket.terms',
  'bucket.date_histogram_day',
  'query.sort_timestamp',
];
