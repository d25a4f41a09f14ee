//! A top-level `filter` aggregation collected as a query of its own, `main AND filter`, like
//! Elasticsearch's filter-by-filter execution. Checked document by document, the filter costs
//! a visit to every main match (234k docs for a week-long window in the `bucket.filter` row)
//! to find the few hundred it keeps; as a conjunction, tantivy leads with the clause that
//! matches least and skips the rest, and the main pass only counts (a range counts whole
//! zone-map blocks). With one filter the conjunction visits at most the main matches, so it
//! is not slower than the per-document check; `filters` with several buckets, an other
//! bucket or `adjacency_matrix` stay per document (one pass would become one per bucket).

use std::collections::HashMap;
use std::time::Instant;

use tantivy::collector::Count;

use super::{agg_collector, collect_aggs, lower_query};
use crate::aggs::{AggFruit, AggRequest, BucketKey, FruitBucket};
use crate::error::Result;
use crate::query::ast::{BoolAst, QueryAst};
use crate::store::index::IndexHandle;

/// The bucket of `req` (a `lone_filter` aggregation with filter `filter`) over the docs of
/// `main`, as the per-document collector would have produced it; true if the deadline passed.
pub(super) fn collect_filter(
    handle: &IndexHandle,
    searcher: &tantivy::Searcher,
    main: &QueryAst,
    filter: &QueryAst,
    req: &AggRequest,
    deadline: Option<Instant>,
) -> Result<(AggFruit, bool)> {
    let both = QueryAst::Bool(BoolAst { filter: vec![main.clone(), filter.clone()], ..BoolAst::default() });
    let query = lower_query(handle, &both)?;
    let subs = agg_collector(handle, req.subs.clone(), None)?;
    let ((count, subs), late) = collect_aggs(searcher, query.as_ref(), &(Count, subs), deadline)?;
    let mut buckets = HashMap::new();
    if count > 0 {
        buckets.insert(BucketKey::Num(0), FruitBucket { count: count as u64, subs });
    }
    Ok((AggFruit::Buckets(buckets), late))
}
