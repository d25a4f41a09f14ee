//! `_search` and `_count`: request parsing (body + URL parameters), execution through one
//! pass of collectors (top hits + total, aggregations), and the ES 8 response.

mod constant_top;
pub mod contexts;
mod cost;
mod deadline;
pub mod doc_meta;
mod filter_by_filter;
mod named;
pub(crate) mod parallel;
mod passes;
pub mod pit;
mod request;
mod score_top;
pub mod scroll;
pub mod search_after;
pub mod sort;
mod sort_key;
mod sort_rank;
mod sort_zone;
pub mod top_hits;

use std::fmt::Write as _;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};
use tantivy::collector::Count;
use tantivy::schema::Value as _;
use tantivy::TantivyDocument;

use crate::aggs::{lone_filter, render_aggs, split_global, AggFruit, HitsContext};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;
use crate::query::lower::context::LowerContext;
use crate::query::lower::lower;
use crate::store::index::IndexHandle;
pub mod source_filter;

pub use cost::Cost;
use passes::{agg_collector, collect, collect_aggs};
use request::parse_body;
pub use request::{SearchRequest, TrackTotalHits};
use search_after::parse_search_after;
use sort::SortTarget;
pub use source_filter::SourceFilter;
use top_hits::{sort_values_json, TopHitsCollector};

const SHARDS: &str = r#"{"total":1,"successful":1,"skipped":0,"failed":0}"#;

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

pub(crate) fn lower_query(handle: &IndexHandle, query: &QueryAst) -> Result<Box<dyn tantivy::query::Query>> {
    let mut ctx = LowerContext::new(&handle.mapping, now_ms());
    if has_similarities(handle) {
        ctx = ctx.with_similarities(&handle.settings.similarity);
    }
    lower(query, &mut ctx)
}

/// Whether the index sets a similarity anywhere (ES 8's BM25 everywhere otherwise, the
/// common case, which needs no per-field look-up while lowering).
fn has_similarities(handle: &IndexHandle) -> bool {
    !handle.settings.similarity.is_empty() || handle.mapping.fields.values().any(|f| f.similarity.is_some())
}

/// Internal scores are this times the shown ones (`query/similarity.rs`).
pub(crate) fn score_scale(handle: &IndexHandle) -> f32 {
    handle.settings.similarity.scale()
}

/// Parses and runs a search; with `cheap_only`, a search that may be heavy stops after
/// parsing and answers `None` (the caller runs it again where heavy work belongs).
pub fn search(
    handle: &IndexHandle,
    body: &[u8],
    params: &Map<String, Value>,
    cheap_only: bool,
) -> Result<Option<String>> {
    let started = Instant::now();
    let req = SearchRequest::parse(body, params, handle)?;
    if cheap_only && req.cost() != Cost::Cheap {
        return Ok(None);
    }
    Ok(Some(execute(handle, &handle.searcher(), &req, started, &Render::default())?.body))
}

/// How a response is rendered beyond the request itself (point in time and scroll pages).
#[derive(Default)]
pub struct Render {
    /// A member written first in the response, e.g. `"_scroll_id":"…"` (no trailing comma).
    pub head: Option<String>,
    /// Hits show only this many leading sort values (a scroll's internal `_doc` tiebreaker
    /// stays hidden); `Some(0)` hides `sort` entirely. `None`: as the request implies.
    pub sort_values: Option<usize>,
    /// Replaces the computed `hits.total` (later scroll pages repeat the first page's).
    pub total: Option<Value>,
}

/// What a search produced besides its body: the last hit's full sort values (the next
/// `search_after` key) and the total as rendered.
pub struct Executed {
    pub body: String,
    pub last_sort: Option<Vec<Value>>,
    pub total: Value,
}

/// Runs a parsed request on one searcher (the index's current one, or a pinned snapshot).
pub fn execute(
    handle: &IndexHandle,
    searcher: &tantivy::Searcher,
    req: &SearchRequest,
    started: Instant,
    render: &Render,
) -> Result<Executed> {
    crate::query::limits::check_clause_count(&req.query)?;
    let query = lower_query(handle, &req.query)?;
    let deadline = req.timeout.map(|t| started + t);
    let scale = score_scale(handle);
    let by_score = req.sort.is_none();
    // With `search_after` every hit carries its sort values, the client's next after-key.
    let shown_sort_values = match render.sort_values {
        Some(n) => n,
        None if !by_score || req.after.is_some() => usize::MAX,
        None => 0,
    };
    let specs = req.effective_sort();
    let sorted_by_score = specs.iter().any(|s| s.target == SortTarget::Score);
    let limit = req.from + req.size;
    // With no hits to return nothing needs a score (ES reports max_score null then).
    let scoring = limit > 0 && (by_score || sorted_by_score || req.track_scores);
    let mut timed_out = false;
    let (top, aggs) = if by_score && req.aggs.is_empty() && req.after.is_none() && deadline.is_none() {
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
        let hits_collector = TopHitsCollector {
            specs: specs.clone(),
            limit,
            scoring,
            after: req.after.clone(),
            scale: score_scale(handle),
        };
        // `global` aggregations ignore the query: they get a pass of their own over all docs.
        let (global, rest) = split_global(&req.aggs)?;
        // A top-level `filter` runs as `query AND filter` (filter_by_filter.rs).
        let (by_filter, rest): (Vec<usize>, Vec<usize>) =
            rest.into_iter().partition(|i| lone_filter(&req.aggs[*i]).is_some());
        let pick = |idx: &[usize]| idx.iter().map(|i| req.aggs[*i].clone()).collect::<Vec<_>>();
        let (top, main_fruits) = if rest.is_empty() {
            let (top, late) = match sort_zone::ZoneSortCollector::for_page(&hits_collector, deadline.is_some()) {
                Some(column) => (searcher.search(query.as_ref(), &column)?, false),
                // Only the total is wanted: counted the query's cheapest way (a range counts
                // whole zone-map blocks) instead of visiting every match.
                None if limit == 0 && req.after.is_none() && deadline.is_none() => {
                    let count_by =
                        constant_top::CountBy::for_query(&req.query, req.track_total_hits != TrackTotalHits::Off);
                    (constant_top::first_matches(searcher, query.as_ref(), 0, count_by)?, false)
                }
                None => collect(searcher, query.as_ref(), &hits_collector, deadline)?,
            };
            timed_out = late;
            (top, Vec::new())
        } else {
            let agg_collector = agg_collector(handle, pick(&rest))?;
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
            let all = lower_query(handle, &crate::nested::root_only_query(&handle.mapping))?;
            let (global_fruits, late) =
                collect_aggs(searcher, all.as_ref(), &agg_collector(handle, pick(&global))?, deadline)?;
            timed_out |= late;
            for (i, fruit) in global.iter().zip(global_fruits) {
                fruits[*i] = Some(fruit);
            }
        }
        (top, fruits.into_iter().flatten().collect())
    };

    let mut out = String::with_capacity(256 + req.size * 256);
    out.push('{');
    if let Some(head) = &render.head {
        out.push_str(head);
        out.push(',');
    }
    let _ =
        write!(out, r#""took":{},"timed_out":{timed_out},"_shards":{SHARDS},"hits":{{"#, started.elapsed().as_millis());
    let total = match (&render.total, req.track_total_hits) {
        (Some(given), _) => given.clone(),
        (None, TrackTotalHits::Off) => Value::Null,
        (None, TrackTotalHits::Exact) => serde_json::json!({ "value": top.total, "relation": "eq" }),
        (None, TrackTotalHits::UpTo(limit)) => {
            let (value, relation) = if top.total > limit { (limit, "gte") } else { (top.total, "eq") };
            serde_json::json!({ "value": value, "relation": relation })
        }
    };
    if !total.is_null() {
        let _ = write!(out, r#""total":{total},"#);
    }
    let max_score = if scoring && top.total > 0 { top.max_score.map(|s| serde_json::json!(s / scale)) } else { None };
    let _ = write!(out, r#""max_score":{},"hits":["#, max_score.unwrap_or(Value::Null));
    // Prepared only when there is a hit to show, as ES's fetch phase (type errors included).
    let highlighter = match &req.highlight {
        Some(h) if top.hits.len() > req.from => Some(h.prepare(&req.query, &handle.mapping, now_ms())?),
        _ => None,
    };
    let named = match top.hits.len() > req.from {
        true => named::NamedQueries::prepare(handle, searcher, &req.query)?,
        false => None,
    };
    for (i, hit) in top.hits.iter().skip(req.from).enumerate() {
        if i > 0 {
            out.push(',');
        }
        let doc: TantivyDocument = searcher.doc(hit.address)?;
        let id = doc.get_first(handle.mapping.id_field).and_then(|v| v.as_str()).unwrap_or_default();
        out.push_str(r#"{"_index":"#);
        out.push_str(&serde_json::to_string(&handle.name).unwrap());
        out.push_str(r#","_id":"#);
        out.push_str(&serde_json::to_string(id).unwrap());
        out.push_str(r#","_score":"#);
        if scoring {
            out.push_str(&serde_json::to_string(&(hit.score / scale)).unwrap());
        } else {
            out.push_str("null");
        }
        // The stored bytes are the document exactly as sent (validated JSON at index time).
        let raw = doc.get_first(handle.mapping.source_field).and_then(|v| v.as_bytes()).unwrap_or(b"{}");
        if let Some(source) = req.source.apply(raw) {
            out.push_str(r#","_source":"#);
            out.push_str(&source);
        }
        if let Some(fragments) = highlighter.as_ref().and_then(|h| h.render(raw)) {
            out.push_str(r#","highlight":"#);
            out.push_str(&fragments);
        }
        if let Some(named) = &named {
            let names = named.matched(searcher, hit.address)?;
            if !names.is_empty() {
                out.push_str(r#","matched_queries":"#);
                out.push_str(&serde_json::to_string(&names).unwrap());
            }
        }
        if shown_sort_values > 0 {
            let mut values = sort_values_json(hit, &specs, scale);
            values.truncate(shown_sort_values);
            out.push_str(r#","sort":"#);
            out.push_str(&Value::Array(values).to_string());
        }
        out.push('}');
    }
    out.push_str("]}");
    if !req.aggs.is_empty() {
        out.push_str(r#","aggregations":"#);
        let hits = HitsContext::new(searcher, &handle.name, &handle.mapping, scale);
        out.push_str(&render_aggs(&req.aggs, &aggs, Some(hits))?.to_string());
    }
    out.push('}');
    let last_sort =
        top.hits.get(req.from..).and_then(|page| page.last()).map(|hit| sort_values_json(hit, &specs, scale));
    Ok(Executed { body: out, last_sort, total })
}

/// `_count`: `{"query": ...}` or an empty body.
pub fn count(handle: &IndexHandle, body: &[u8]) -> Result<String> {
    // ES reads a `_count` body as a query and reports what breaks it (a duplicate key
    // included) as a `parsing_exception`; `_search` lets Jackson's own error through.
    let obj = parse_body(body).map_err(|e| match e {
        EngineError::JsonParse(reason) if reason.contains(crate::strict_json::DUPLICATE_FIELD) => {
            EngineError::Parsing(reason)
        }
        other => other,
    })?;
    let mut query = QueryAst::MatchAll;
    for (key, value) in &obj {
        match key.as_str() {
            "query" => query = parse_query(value)?,
            other => return Err(EngineError::Parsing(format!("request does not support [{other}]"))),
        }
    }
    let query = crate::nested::root_only(query, &handle.mapping);
    crate::query::limits::check_clause_count(&query)?;
    let lowered = lower_query(handle, &query)?;
    let searcher = handle.searcher();
    // Segments count independently (tantivy's `Count` asks each weight for its count).
    let n = if parallel::worth_it(&searcher) {
        parallel::search(&searcher, lowered.as_ref(), &Count)?
    } else {
        searcher.search(lowered.as_ref(), &Count)?
    };
    Ok(format!(r#"{{"count":{n},"_shards":{SHARDS}}}"#))
}
