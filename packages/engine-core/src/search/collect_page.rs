//! A search's collection: the page of hits, the total and the aggregations, by the cheapest
//! plan the request allows (`score_top`, `constant_top`, the zone-map sort, filter-by-filter,
//! the general top-k pass), then what reorders or regroups the page (`rescore`, `collapse`).
//! Options that change which documents count (`min_score`, `terminate_after`,
//! `indices_boost`, `post_filter`) wrap the lowered query and take the general pass.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use tantivy::query::{BooleanQuery, BoostQuery, ConstScoreQuery, Occur, Query};
use tantivy::Searcher;

use super::passes::{agg_collector, collect, collect_aggs};
use super::{constant_top, filter_by_filter, lower_query, score_scale, score_top, sort_zone};
use super::{SearchRequest, TrackTotalHits};
use crate::aggs::{lone_filter, split_global, AggFruit};
use crate::error::{EngineError, Result, ShardCause};
use crate::hits::sort::SortTarget;
use crate::hits::top_hits::{Hit, TopHitsCollector, TopHitsFruit};
use crate::query::tantivy::collect_limits::{MinScoreQuery, TerminateAfterQuery};
use crate::store::index::IndexHandle;

/// What collection produced.
pub struct Page {
    pub top: TopHitsFruit,
    pub aggs: Vec<AggFruit>,
    pub timed_out: bool,
    pub terminated_early: bool,
    /// Whether hits carry scores (ES shows `_score: null` and no `max_score` otherwise).
    pub scoring: bool,
    pub from: usize,
    /// `collapse`: each shown hit's group value, in page order.
    pub collapse_keys: Option<Vec<Value>>,
    /// `rescore`: each rescorer's window, the documents it rescored (empty without rescore).
    pub rescored: Vec<Vec<tantivy::DocAddress>>,
}

impl Page {
    /// The hits to show, in order.
    pub fn hits(&self) -> impl Iterator<Item = &Hit> {
        let skip = if self.collapse_keys.is_some() { 0 } else { self.from };
        self.top.hits.iter().skip(skip)
    }
}

/// `indices_boost`: the boost given to this index (by name or `*` pattern), if any.
fn indices_boost(spec: &Value, index: &str) -> Result<Option<f32>> {
    let entries: Vec<(&String, &Value)> = match spec {
        Value::Array(items) => items.iter().filter_map(Value::as_object).flat_map(|o| o.iter()).collect(),
        Value::Object(o) => o.iter().collect(),
        _ => return Err(EngineError::Parsing("[indices_boost] must be an array of {index: boost}".into())),
    };
    for (pattern, boost) in entries {
        let boost = boost
            .as_f64()
            .ok_or_else(|| EngineError::Parsing(format!("[indices_boost] boost for [{pattern}] must be a number")))?;
        let matches = match pattern.split_once('*') {
            Some((head, tail)) => index.starts_with(head) && index.ends_with(tail),
            None => pattern == index,
        };
        if matches {
            return Ok(Some(boost as f32));
        }
    }
    Ok(None)
}

pub fn collect_page(handle: &IndexHandle, searcher: &Searcher, req: &SearchRequest, started: Instant) -> Result<Page> {
    crate::query::limits::check_clause_count(&req.query)?;
    let opts = &req.opts;
    let scale = score_scale(handle);
    let mut query = lower_query(handle, &req.query)?;
    if let Some(slice) = &opts.slice {
        query = Box::new(BooleanQuery::new(vec![
            (Occur::Must, query),
            (Occur::Must, Box::new(ConstScoreQuery::new(slice.filter(handle)?, 0.0))),
        ]));
    }
    let boost = match &opts.indices_boost {
        Some(spec) => indices_boost(spec, &handle.name)?,
        None => None,
    };
    if let Some(boost) = boost {
        query = Box::new(BoostQuery::new(query, boost));
    }
    if let Some(min) = opts.min_score {
        query = Box::new(MinScoreQuery::new(query, min * scale));
    }
    let mut taken: Option<(Arc<AtomicUsize>, usize)> = None;
    if let Some(limit) = opts.terminate_after {
        let limited = TerminateAfterQuery::new(query, limit);
        taken = Some((limited.terminated(), limit));
        query = Box::new(limited);
    }
    // Hits see the post filter; aggregations do not.
    let filtered: Option<Box<dyn Query>> = match &opts.post_filter {
        Some(filter) => {
            let filter = lower_query(handle, filter)?;
            Some(Box::new(BooleanQuery::new(vec![
                (Occur::Must, query.box_clone()),
                (Occur::Must, Box::new(ConstScoreQuery::new(filter, 0.0))),
            ])))
        }
        None => None,
    };
    let hits_query: &dyn Query = filtered.as_deref().unwrap_or(query.as_ref());
    let plain = !opts.changes_collection() && boost.is_none();
    let deadline = req.timeout.map(|t| started + t);
    let by_score = req.sort.is_none();
    let specs = req.effective_sort();
    let sorted_by_score = specs.iter().any(|s| s.target == SortTarget::Score);
    if !opts.rescore.is_empty() && !by_score {
        return Err(EngineError::ActionRequestValidation(
            "Validation Failed: 1: Cannot use [sort] option in conjunction with [rescore].;".into(),
        ));
    }
    if opts.collapse.is_some() && req.after.is_some() {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            "cannot use `collapse` in conjunction with `search_after`",
        ));
    }
    if opts.collapse.is_some() && !opts.rescore.is_empty() {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            "cannot use `collapse` in conjunction with `rescore`",
        ));
    }
    let mut limit = req.from + req.size;
    if limit > 0 {
        if let Some(window) = opts.rescore.iter().map(|r| r.window_size).max() {
            limit = limit.max(window);
        }
        if opts.collapse.is_some() {
            // Groups are found in sort order among every match.
            limit = searcher.num_docs() as usize;
        }
    }
    // With no hits to return nothing needs a score (ES reports max_score null then).
    let scoring = req.from + req.size > 0 && (by_score || sorted_by_score || req.track_scores);
    let mut timed_out = false;
    let (mut top, aggs) = if plain && by_score && req.aggs.is_empty() && req.after.is_none() && deadline.is_none() {
        // Relevance order without aggregations: the cheaper of a pruned top-k plus a count,
        // or one pass scoring and counting (`score_top.rs`).
        let top = if constant_top::is_constant_score(&req.query) {
            let count_by = constant_top::CountBy::for_query(&req.query, req.track_total_hits != TrackTotalHits::Off);
            constant_top::first_matches(searcher, query.as_ref(), limit, count_by)?
        } else {
            score_top::top_by_score(searcher, &req.query, query.as_ref(), limit, req.track_total_hits)?
        };
        (top, Vec::new())
    } else {
        let hits_collector = TopHitsCollector { specs, limit, scoring, after: req.after.clone(), scale };
        // `global` aggregations ignore the query: they get a pass of their own over all docs.
        let (global, rest) = split_global(&req.aggs)?;
        // A top-level `filter` runs as `query AND filter` (filter_by_filter.rs), when the
        // query is the request's own.
        let (by_filter, rest): (Vec<usize>, Vec<usize>) =
            rest.into_iter().partition(|i| plain && lone_filter(&req.aggs[*i]).is_some());
        let pick = |idx: &[usize]| idx.iter().map(|i| req.aggs[*i].clone()).collect::<Vec<_>>();
        let (top, main_fruits) = if rest.is_empty() {
            let mut zone =
                if plain { sort_zone::ZoneSortCollector::for_page(&hits_collector, deadline.is_some()) } else { None };
            if let Some(zone) = zone.as_mut() {
                zone.seek = sort_zone::seek_weight(handle, searcher, &req.query)?;
            }
            let (top, late) = match zone {
                Some(column) => (searcher.search(hits_query, &column)?, false),
                // Only the total is wanted: counted the query's cheapest way (a range counts
                // whole zone-map blocks) instead of visiting every match.
                None if plain && limit == 0 && req.after.is_none() && deadline.is_none() => {
                    let count_by =
                        constant_top::CountBy::for_query(&req.query, req.track_total_hits != TrackTotalHits::Off);
                    (constant_top::first_matches(searcher, hits_query, 0, count_by)?, false)
                }
                None => collect(searcher, hits_query, &hits_collector, deadline)?,
            };
            timed_out = late;
            (top, Vec::new())
        } else if opts.post_filter.is_some() {
            let (top, late) = collect(searcher, hits_query, &hits_collector, deadline)?;
            let (fruits, late_aggs) = collect_aggs(
                searcher,
                query.as_ref(),
                &agg_collector(handle, pick(&rest), Some((searcher, query.as_ref())))?,
                deadline,
            )?;
            timed_out = late || late_aggs;
            (top, fruits)
        } else {
            let agg_collector = agg_collector(handle, pick(&rest), Some((searcher, query.as_ref())))?;
            let (fruit, late) = collect_aggs(searcher, query.as_ref(), &(hits_collector, agg_collector), deadline)?;
            timed_out = late;
            fruit
        };
        let mut fruits: Vec<Option<AggFruit>> = vec![None; req.aggs.len()];
        for (i, fruit) in rest.iter().zip(main_fruits) {
            fruits[*i] = Some(fruit);
        }
        for i in by_filter {
            let filter = lone_filter(&req.aggs[i]).expect("partitioned by lone_filter");
            let (fruit, late) =
                filter_by_filter::collect_filter(handle, searcher, &req.query, filter, &req.aggs[i], deadline)?;
            timed_out |= late;
            fruits[i] = Some(fruit);
        }
        if !global.is_empty() {
            let all = lower_query(handle, &crate::query::root_only::root_only_query(&handle.mapping))?;
            let (global_fruits, late) =
                collect_aggs(searcher, all.as_ref(), &agg_collector(handle, pick(&global), None)?, deadline)?;
            timed_out |= late;
            for (i, fruit) in global.iter().zip(global_fruits) {
                fruits[*i] = Some(fruit);
            }
        }
        (top, fruits.into_iter().flatten().collect())
    };
    let mut rescored = Vec::new();
    if !opts.rescore.is_empty() {
        rescored = super::rescore::apply(&opts.rescore, handle, searcher, &mut top.hits, scale)?;
        top.max_score = top.hits.iter().map(|h| h.score).reduce(f32::max);
        top.hits.truncate(req.from + req.size);
    }
    let collapse_keys = match &opts.collapse {
        Some(collapse) => {
            let grouped = collapse.page(searcher, std::mem::take(&mut top.hits), req.from, req.size);
            let (hits, keys): (Vec<Hit>, Vec<Value>) = grouped.into_iter().unzip();
            top.hits = hits;
            Some(keys)
        }
        None => None,
    };
    let terminated_early = taken.is_some_and(|(taken, limit)| taken.load(Ordering::Relaxed) > limit);
    Ok(Page { top, aggs, timed_out, terminated_early, scoring, from: req.from, collapse_keys, rescored })
}
