//! `_search` and `_count`: request parsing (body + URL parameters), execution through one
//! pass of collectors (top hits + total, aggregations), and the ES 8 response.
//!
//! Layer: search, below `engine/`. Uses `aggs/`, `highlight/`, `query/`, `hits/`, `suggest/`,
//! `store/` and below (ARCHITECTURE.md).

mod collapse;
mod collect_page;
mod constant_top;
pub mod contexts;
mod cost;
mod deadline;
pub mod fielddata;
mod filter_by_filter;
mod filter_path;
mod hits;
mod named;
pub mod options;
mod passes;
pub mod pit;
mod profile;
mod request;
mod rescore;
pub(crate) mod score_top;
pub mod scroll;
pub mod slice;
mod sort_rank;
mod sort_zone;

use std::fmt::Write as _;
use std::time::Instant;

use serde_json::{Map, Value};
use tantivy::collector::Count;

use crate::aggs::multi_index::IndexAggs;
use crate::aggs::{write_aggs, HitsContext};
use crate::date::now_ms;
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;
use crate::query::lower::context::LowerContext;
use crate::query::lower::lower;
use crate::store::index::IndexHandle;

use crate::hits::search_after::parse_search_after;
use crate::hits::top_hits::sort_values_json;
pub use cost::Cost;
use passes::{agg_collector, collect_aggs};
use request::parse_body;
pub use request::{SearchRequest, TrackTotalHits};

const SHARDS: &str = r#"{"total":1,"successful":1,"skipped":0,"failed":0}"#;

pub(crate) fn lower_query(handle: &IndexHandle, query: &QueryAst) -> Result<Box<dyn tantivy::query::Query>> {
    crate::query::expensive::check(query, &handle.mapping)?;
    let mut ctx = LowerContext::new(&handle.mapping, now_ms());
    ctx.index_name = Some(&handle.name);
    ctx.max_terms_count = handle.settings.limits.max_terms_count;
    ctx.max_regex_length = handle.settings.limits.max_regex_length;
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

/// Internal scores are this times the shown ones (`store/similarity.rs`).
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

/// `search` for one index of several: the body without aggregations, and the aggregations as
/// collected, to be merged with the other indices' (`aggs::multi_index`).
pub fn search_deferring_aggs(
    handle: &IndexHandle,
    body: &[u8],
    params: &Map<String, Value>,
) -> Result<(String, Option<IndexAggs>)> {
    let started = Instant::now();
    let req = SearchRequest::parse(body, params, handle)?;
    let render = Render { defer_aggs: true, ..Render::default() };
    let executed = execute(handle, &handle.searcher(), &req, started, &render)?;
    Ok((executed.body, executed.aggs))
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
    /// Leaves the aggregations out of the body and hands back what was collected instead
    /// (`Executed::aggs`), to be merged with other indices' (`aggs::multi_index`).
    pub defer_aggs: bool,
}

/// What a search produced besides its body: the last hit's full sort values (the next
/// `search_after` key) and the total as rendered.
pub struct Executed {
    pub body: String,
    pub last_sort: Option<Vec<Value>>,
    pub total: Value,
    /// With `Render::defer_aggs`, the aggregations as collected.
    pub aggs: Option<IndexAggs>,
}

/// Runs a parsed request on one searcher (the index's current one, or a pinned snapshot).
pub fn execute(
    handle: &IndexHandle,
    searcher: &tantivy::Searcher,
    req: &SearchRequest,
    started: Instant,
    render: &Render,
) -> Result<Executed> {
    let counters = &handle.counters.search;
    let query_started = Instant::now();
    let page = {
        let _querying = counters.query_current.enter();
        collect_page::collect_page(handle, searcher, req, started)?
    };
    fielddata::record_loaded(handle, searcher, req.sort.as_deref(), &req.aggs);
    let fetch_started = Instant::now();
    let query_took = fetch_started - query_started;
    let collect_time = req.opts.profile.is_some().then_some(query_took);
    let scale = score_scale(handle);
    let specs = req.effective_sort();
    // ES drops a sort that is `_score` descending alone: relevance order, no sort values.
    let score_only = req.sort.as_deref().is_some_and(
        |s| matches!(s, [only] if only.target == crate::hits::sort::SortTarget::Score && only.order == crate::hits::sort::Order::Desc),
    );
    let by_score = req.sort.is_none() || score_only;
    // With `search_after` every hit carries its sort values, the client's next after-key.
    let shown_sort_values = match render.sort_values {
        Some(n) => n,
        None if !by_score || req.after.is_some() => usize::MAX,
        None => 0,
    };
    let top = &page.top;
    let mut out = String::with_capacity(256 + req.size * 256);
    out.push('{');
    if let Some(head) = &render.head {
        out.push_str(head);
        out.push(',');
    }
    let _ = write!(out, r#""took":{},"timed_out":{}"#, started.elapsed().as_millis(), page.timed_out);
    if page.terminated_early {
        out.push_str(r#","terminated_early":true"#);
    }
    let _ = write!(out, r#","_shards":{SHARDS},"hits":{{"#);
    let total = match (&render.total, req.track_total_hits) {
        (Some(given), _) => given.clone(),
        // `rest_total_hits_as_int`: the total as a bare number, -1 when not tracked.
        (None, TrackTotalHits::Off) if req.opts.rest_total_hits_as_int => serde_json::json!(-1),
        (None, _) if req.opts.rest_total_hits_as_int => serde_json::json!(top.total),
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
    // Under a sort ES reports no max_score unless `track_scores` asks for it; a score shows as
    // the float it is.
    let max_score = match top.max_score {
        Some(s) if page.scoring && top.total > 0 && (by_score || req.track_scores) => {
            serde_json::to_string(&(s / scale)).unwrap_or_else(|_| "null".into())
        }
        _ => "null".into(),
    };
    let _ = write!(out, r#""max_score":{max_score},"hits":["#);
    let shown = hits::HitsRender::prepare(handle, searcher, req, &page, scale)?;
    for (i, hit) in page.hits().enumerate() {
        if i > 0 {
            out.push(',');
        }
        shown.render(&mut out, hit, i, page.scoring)?;
        if shown_sort_values > 0 {
            let mut values = sort_values_json(hit, &specs, scale);
            values.truncate(shown_sort_values);
            out.push_str(r#","sort":"#);
            out.push_str(&Value::Array(values).to_string());
        }
        out.push('}');
    }
    out.push_str("]}");
    // ES runs a fetch phase only for a page with hits.
    let fetched = out_has_hits(&page);
    let fetch_took = fetch_started.elapsed();
    record_search(handle, req, query_took, fetched.then_some(fetch_took));
    let mut deferred = None;
    let render_started = collect_time.map(|_| Instant::now());
    if !req.aggs.is_empty() {
        let hits = HitsContext::new(searcher, &handle.name, &handle.mapping, scale);
        if render.defer_aggs {
            let segments = searcher.segment_readers().len() as u32;
            deferred = Some(IndexAggs { reqs: req.aggs.clone(), fruits: Vec::new(), hits, segments });
        } else {
            out.push_str(r#","aggregations":"#);
            write_aggs(&req.aggs, &page.aggs, Some(hits), req.opts.typed_keys, &mut out)?;
        }
    }
    if let (Some(collect), Some(rendered)) = (collect_time, render_started) {
        let measured = profile::Measured { collect, render_aggs: rendered.elapsed() };
        let section = profile::render(handle, searcher, req, &page, &measured);
        let _ = write!(out, r#","profile":{section}"#);
    }
    if let Some(suggest) = &req.suggest {
        out.push_str(r#","suggest":"#);
        out.push_str(&suggest.run(handle, searcher, &req.source, req.opts.typed_keys)?.to_string());
    }
    out.push('}');
    if let Some(spec) = &req.opts.filter_path {
        out = filter_path::filter(&out, spec);
    }
    let last_sort = page.hits().last().map(|hit| sort_values_json(hit, &specs, scale));
    if let Some(deferred) = deferred.as_mut() {
        deferred.fruits = page.aggs;
    }
    Ok(Executed { body: out, last_sort, total, aggs: deferred })
}

fn out_has_hits(page: &collect_page::Page) -> bool {
    page.hits().next().is_some()
}

/// Counts one search's query phase (and fetch phase, when it had one) on the index and on
/// every statistics group the request names.
fn record_search(
    handle: &IndexHandle,
    req: &SearchRequest,
    query: std::time::Duration,
    fetch: Option<std::time::Duration>,
) {
    let record = |c: &crate::store::counters::SearchCounters| {
        c.query.add(1, query);
        if let Some(took) = fetch {
            c.fetch.add(1, took);
        }
    };
    record(&handle.counters.search);
    for group in &req.opts.stats_groups {
        record(&handle.counters.group(group));
    }
}

/// `_count`: `{"query": ...}` or an empty body; `min_score` (the URL's) leaves out matches
/// scoring below it, which then need scoring.
pub fn count(handle: &IndexHandle, body: &[u8], min_score: Option<f32>) -> Result<String> {
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
    let query = crate::query::root_only::root_only(query, &handle.mapping);
    crate::query::limits::check_clause_count(&query)?;
    let mut lowered = lower_query(handle, &query)?;
    if let Some(min) = min_score {
        lowered =
            Box::new(crate::query::tantivy::collect_limits::MinScoreQuery::new(lowered, min * score_scale(handle)));
    }
    let searcher = handle.searcher();
    let started = Instant::now();
    let _querying = handle.counters.search.query_current.enter();
    // Segments count independently (tantivy's `Count` asks each weight for its count).
    let n = if crate::parallel::worth_it(&searcher) {
        crate::parallel::search(&searcher, lowered.as_ref(), &Count)?
    } else {
        searcher.search(lowered.as_ref(), &Count)?
    };
    // ES runs `_count` as a search of no hits: a query phase.
    handle.counters.search.query.add(1, started.elapsed());
    Ok(format!(r#"{{"count":{n},"_shards":{SHARDS}}}"#))
}
