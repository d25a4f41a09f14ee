//! Scroll: `/{index}/_search?scroll=1m`, then `/_search/scroll` for each next page and
//! `DELETE /_search/scroll` to free it. A scroll is a pinned snapshot (see `contexts`) plus
//! the sort key of the last hit served: each page is the next `size` hits after that key
//! under the request's sort with a hidden `_doc` tiebreaker, so no page ever materialises
//! more than `size` hits per segment however deep the scroll goes.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Map, Value};

use super::contexts::{is_well_formed_id, parse_keep_alive, ReaderContexts, ScrollState};
use super::cost::Cost;
use super::pit::with_tiebreaker;
use super::slice::Slice;
use super::{execute, parse_body, parse_search_after, Render, SearchRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::index::IndexHandle;

/// The first page: `params` holds `scroll` (the keep-alive) beside the usual URL parameters.
/// The first page; with `cheap_only`, `None` (and no scroll opened) when it may be heavy.
pub fn start(
    contexts: &ReaderContexts,
    handle: Arc<IndexHandle>,
    body: &[u8],
    params: &Map<String, Value>,
    cheap_only: bool,
) -> Result<Option<String>> {
    let started = Instant::now();
    let keep_alive = scroll_keep_alive(contexts, params.get("scroll"))?;
    let mut params = params.clone();
    params.remove("scroll");
    let mut obj = parse_body(body)?;
    let slice_section = obj.remove("slice");
    if obj.contains_key("search_after") {
        return Err(EngineError::ActionRequestValidation(
            "Validation Failed: 1: `search_after` cannot be used in a scroll context.;".into(),
        ));
    }
    let mut req = SearchRequest::from_map(&obj, &params, &handle).map_err(|e| batch_size_error(e, &handle))?;
    req.opts.slice = slice_section.as_ref().map(Slice::parse).transpose()?;
    // ES's request validation, every failed check numbered in one message.
    let mut failed = Vec::new();
    if req.from > 0 {
        failed.push("using [from] is not allowed in a scroll context");
    }
    if req.size == 0 {
        failed.push("[size] cannot be [0] in a scroll context");
    }
    if params.get("request_cache").is_some_and(|v| v.as_str() == Some("true") || v == &Value::Bool(true)) {
        failed.push("[request_cache] cannot be used in a scroll context");
    }
    if !failed.is_empty() {
        let listed: String = failed.iter().enumerate().map(|(i, m)| format!("{}: {m};", i + 1)).collect();
        return Err(EngineError::ActionRequestValidation(format!("Validation Failed: {listed}")));
    }
    if req.opts.collapse.is_some() {
        return Err(EngineError::shard(ShardCause::IllegalArgument, "cannot use `collapse` in a scroll context"));
    }
    if cheap_only && req.cost() != Cost::Cheap {
        return Ok(None);
    }
    let user_sort = req.sort.as_ref().map_or(0, Vec::len);
    req.sort = Some(with_tiebreaker(req.effective_sort()));
    let searcher = handle.searcher();
    // The id goes first in the response, so the context opens before the page is rendered.
    let mut state_body = obj.clone();
    state_body.remove("aggs");
    state_body.remove("aggregations");
    if let Some(section) = slice_section {
        state_body.insert("slice".into(), section);
    }
    let state = ScrollState { body: state_body, params, after: None, total: Value::Null, user_sort };
    let id = contexts.open_on(handle.clone(), searcher.clone(), keep_alive, Some(state))?;
    let render = Render {
        head: Some(format!(r#""_scroll_id":{}"#, json!(id))),
        sort_values: Some(user_sort),
        total: None,
        defer_aggs: false,
    };
    let page = match execute(&handle, &searcher, &req, started, &render) {
        Ok(page) => page,
        Err(e) => {
            contexts.close(&[id]);
            return Err(e);
        }
    };
    contexts.advance_scroll(&id, page.last_sort, Some(page.total));
    Ok(Some(page.body))
}

/// A scroll's page size past `index.max_result_window` is refused with ES's scroll wording.
fn batch_size_error(e: EngineError, handle: &IndexHandle) -> EngineError {
    match &e {
        EngineError::SearchPhase { reason, .. } if reason.starts_with("Result window is too large") => {
            let limit = handle.settings.max_result_window;
            let size =
                reason.rsplit_once("but was [").and_then(|(_, rest)| rest.split_once(']')).map_or("", |(n, _)| n);
            EngineError::shard(crate::error::ShardCause::IllegalArgument, format!(
                "Batch size is too large, size must be less than or equal to: [{limit}] but was [{size}]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting."
            ))
        }
        _ => e,
    }
}

/// `POST /_search/scroll` `{"scroll": "1m", "scroll_id": "…"}` (either may come as URL parameters).
pub fn next(contexts: &ReaderContexts, body: &[u8], params: &Map<String, Value>) -> Result<String> {
    let started = Instant::now();
    let obj = if body.iter().all(u8::is_ascii_whitespace) { Map::new() } else { parse_body(body)? };
    let field = |k: &str| obj.get(k).or_else(|| params.get(k));
    let id = field("scroll_id")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::ActionRequestValidation("Validation Failed: 1: scrollId is missing;".into()))?
        .to_string();
    if !is_well_formed_id(&id) {
        return Err(cannot_parse());
    }
    let keep_alive = field("scroll").map(|v| scroll_keep_alive(contexts, Some(v))).transpose()?;
    let ctx = contexts.touch(&id, keep_alive)?;
    let state = ctx.scroll.ok_or_else(|| EngineError::SearchContextMissing(id.clone()))?;
    let mut body = state.body.clone();
    let slice = super::slice::take(&mut body)?;
    let mut req = SearchRequest::from_map(&body, &state.params, &ctx.handle)?;
    req.opts.slice = slice;
    let specs = with_tiebreaker(req.effective_sort());
    if let Some(after) = &state.after {
        req.after = Some(parse_search_after(after, &specs, Some(&ctx.handle.mapping))?);
    }
    req.sort = Some(specs);
    let total = (!state.total.is_null()).then(|| state.total.clone());
    let render = Render {
        head: Some(format!(r#""_scroll_id":{}"#, json!(id))),
        sort_values: Some(state.user_sort),
        total,
        defer_aggs: false,
    };
    let page = execute(&ctx.handle, &ctx.searcher, &req, started, &render)?;
    if page.last_sort.is_some() {
        contexts.advance_scroll(&id, page.last_sort, None);
    }
    Ok(page.body)
}

/// `DELETE /_search/scroll` `{"scroll_id": "…" | ["…"]}`, or `…/_all` with `all`.
pub fn clear(contexts: &ReaderContexts, body: &[u8], all: bool) -> Result<(String, u16)> {
    let freed = if all {
        contexts.close_all(true).len()
    } else {
        let obj = parse_body(body)?;
        let ids: Vec<String> = match obj.get("scroll_id") {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            _ => {
                return Err(EngineError::ActionRequestValidation(
                    "Validation Failed: 1: no scroll ids specified;".into(),
                ))
            }
        };
        if !ids.iter().all(|id| is_well_formed_id(id)) {
            return Err(cannot_parse());
        }
        contexts.close(&ids)
    };
    let status = if freed == 0 && !all { 404 } else { 200 };
    Ok((json!({ "succeeded": true, "num_freed": freed }).to_string(), status))
}

/// A duration as ES prints a time value: its largest whole unit (`1d`, `1m`, `90s`).
fn time_text(d: std::time::Duration) -> String {
    let ms = d.as_millis() as u64;
    for (unit, size) in [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)] {
        if ms >= size && ms.is_multiple_of(size) {
            return format!("{}{unit}", ms / size);
        }
    }
    format!("{ms}ms")
}

fn cannot_parse() -> EngineError {
    EngineError::IllegalArgument("Cannot parse scroll id".into())
}

/// A scroll's `scroll` time value, at most `search.max_keep_alive` (refused on the shard in ES,
/// hence a search phase failure).
fn scroll_keep_alive(contexts: &ReaderContexts, value: Option<&Value>) -> Result<std::time::Duration> {
    let keep_alive = parse_keep_alive("scroll", value)?;
    let max = contexts.max_keep_alive();
    if keep_alive > max {
        let given = value.and_then(Value::as_str).unwrap_or_default();
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Keep alive for request ({given}) is too large. It must be less than ({}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.", time_text(max)),
        ));
    }
    Ok(keep_alive)
}
