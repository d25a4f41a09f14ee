//! The collection passes a search runs: one over the query's matches (with a deadline, the
//! clock-checking driver), an aggregation pass (on the search pool where it pays), and the
//! aggregation collector with its filter weights.

use std::sync::Arc;
use std::time::Instant;

use super::deadline::search_until;
use super::lower_query;
use crate::aggs::bucket::sampler::sample_docs;
use crate::aggs::{filter_weights, AggCollector, AggRequest};
use crate::error::Result;
use crate::parallel;
use crate::store::index::IndexHandle;

/// The collector of `aggs`; `scope` is the searcher and query of the pass, where a top-level
/// `sampler` takes its best-scoring documents from (`aggs::bucket::sampler`).
pub(super) fn agg_collector(
    handle: &IndexHandle,
    aggs: Vec<AggRequest>,
    scope: Option<(&tantivy::Searcher, &dyn tantivy::query::Query)>,
) -> Result<AggCollector> {
    let weights = filter_weights(&aggs, &handle.mapping.schema, &mut |q| lower_query(handle, q))?;
    let samples = match scope {
        Some((searcher, query)) => sample_docs(&aggs, searcher, query)?,
        None => Vec::new(),
    };
    Ok(AggCollector {
        aggs: Arc::new(aggs),
        filter_weights: Arc::new(weights),
        samples: Arc::new(samples),
        text_dedup: Arc::default(),
    })
}

/// One collection pass; with a deadline, the clock-checking driver instead of tantivy's.
pub(super) fn collect<C: tantivy::collector::Collector>(
    searcher: &tantivy::Searcher,
    query: &dyn tantivy::query::Query,
    collector: &C,
    deadline: Option<Instant>,
) -> Result<(C::Fruit, bool)> {
    match deadline {
        Some(deadline) => search_until(searcher, query, collector, deadline),
        None => Ok((searcher.search(query, collector)?, false)),
    }
}

/// `collect` for an aggregation pass: on a large multi-segment index its segments are
/// collected in parallel (`parallel.rs`).
pub(super) fn collect_aggs<C: tantivy::collector::Collector>(
    searcher: &tantivy::Searcher,
    query: &dyn tantivy::query::Query,
    collector: &C,
    deadline: Option<Instant>,
) -> Result<(C::Fruit, bool)> {
    if deadline.is_none() && parallel::worth_it(searcher) {
        return Ok((parallel::search(searcher, query, collector)?, false));
    }
    collect(searcher, query, collector, deadline)
}
