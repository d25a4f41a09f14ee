//! Point in time: ES 8's `/_pit` and OpenSearch's `/_search/point_in_time`. A search that
//! names a point in time reads the pinned snapshot; like ES, its sort gets an implicit
//! tiebreaker (`_doc`, ES's `_shard_doc`) whose value every hit shows, so `search_after`
//! pages through ties without skipping or repeating a document.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Map, Value};

use super::contexts::{is_well_formed_id, parse_keep_alive, ReaderContexts};
use super::cost::Cost;
use super::{execute, parse_body, parse_search_after, Render, SearchRequest};
use crate::error::{EngineError, Result};
use crate::hits::sort::{Order, SortSpec, SortTarget};
use crate::store::index::IndexHandle;

/// Which product's API shapes the responses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Elasticsearch,
    OpenSearch,
}

const SHARDS: &str = r#"{"total":1,"successful":1,"skipped":0,"failed":0}"#;

/// `POST /{index}/_pit?keep_alive=1m` (ES) or `/{index}/_search/point_in_time` (OpenSearch).
pub fn open(
    contexts: &ReaderContexts,
    handle: Arc<IndexHandle>,
    params: &Map<String, Value>,
    d: Dialect,
) -> Result<String> {
    let keep_alive = parse_keep_alive("keep_alive", params.get("keep_alive"))?;
    let id = contexts.open(handle, keep_alive, None)?;
    let id_json = Value::String(id).to_string();
    Ok(match d {
        Dialect::Elasticsearch => format!(r#"{{"id":{id_json},"_shards":{SHARDS}}}"#),
        Dialect::OpenSearch => {
            let created = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|t| t.as_millis() as u64)
                .unwrap_or(0);
            format!(r#"{{"pit_id":{id_json},"_shards":{SHARDS},"creation_time":{created}}}"#)
        }
    })
}

/// The effective sort with a `_doc` tiebreaker appended (unless it already sorts on `_doc`).
pub fn with_tiebreaker(mut specs: Vec<SortSpec>) -> Vec<SortSpec> {
    if !specs.iter().any(|s| s.target == SortTarget::Doc) {
        specs.push(SortSpec::new(SortTarget::Doc, Order::Asc));
    }
    specs
}

/// `POST /_search` with `{"pit": {"id", "keep_alive"}}`.
/// A search on a point in time; with `cheap_only`, `None` when it may be heavy.
pub fn search(
    contexts: &ReaderContexts,
    body: &[u8],
    params: &Map<String, Value>,
    cheap_only: bool,
) -> Result<Option<String>> {
    let started = Instant::now();
    let mut obj = parse_body(body)?;
    let pit = obj.remove("pit").ok_or_else(|| {
        EngineError::IllegalArgument("a search without an index needs a point in time (`pit`)".into())
    })?;
    let pit = pit.as_object().ok_or_else(|| EngineError::Parsing("[pit] must be an object".into()))?;
    let id = pit.get("id").and_then(Value::as_str).ok_or_else(|| EngineError::Parsing("[pit] requires [id]".into()))?;
    let keep_alive = pit.get("keep_alive").map(|v| parse_keep_alive("keep_alive", Some(v))).transpose()?;
    if let Some(other) = pit.keys().find(|k| !matches!(k.as_str(), "id" | "keep_alive")) {
        return Err(EngineError::Parsing(format!("[pit] unknown field [{other}]")));
    }
    let ctx = contexts.touch(id, keep_alive)?;
    let after = obj.remove("search_after");
    let mut req = SearchRequest::from_map(&obj, params, &ctx.handle)?;
    if cheap_only && req.cost() != Cost::Cheap {
        return Ok(None);
    }
    let specs = with_tiebreaker(req.effective_sort());
    if let Some(after) = after {
        let values = after
            .as_array()
            .ok_or_else(|| EngineError::Parsing("[search_after] must be an array of sort values".into()))?;
        if req.from > 0 {
            return Err(EngineError::ActionRequestValidation(
                "Validation Failed: 1: `from` parameter must be set to 0 when `search_after` is used.;".into(),
            ));
        }
        req.after = Some(parse_search_after(values, &specs, Some(&ctx.handle.mapping))?);
    }
    req.sort = Some(specs);
    let render = Render { head: Some(format!(r#""pit_id":{}"#, json!(id))), ..Render::default() };
    Ok(Some(execute(&ctx.handle, &ctx.searcher, &req, started, &render)?.body))
}

/// `DELETE /_pit` `{"id"}` (ES) or `DELETE /_search/point_in_time` `{"pit_id": [..]}` (OpenSearch).
/// Returns the body and its status (404 when nothing was open, as ES).
pub fn close(contexts: &ReaderContexts, body: &[u8], d: Dialect) -> Result<(String, u16)> {
    let obj = parse_body(body)?;
    let key = if d == Dialect::Elasticsearch { "id" } else { "pit_id" };
    let ids: Vec<String> = match obj.get(key) {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => return Err(EngineError::ActionRequestValidation(format!("Validation Failed: 1: [{key}] is required;"))),
    };
    if !ids.iter().all(|id| is_well_formed_id(id)) {
        return Err(EngineError::IllegalArgument(format!("Cannot parse point in time id [{}]", ids.join(","))));
    }
    Ok(closed_response(&ids, |id| contexts.close(&[id.to_string()]) == 1, d))
}

/// `GET /_search/point_in_time/_all` (OpenSearch): every open point in time.
pub fn list_all(contexts: &ReaderContexts) -> String {
    let pits: Vec<Value> = contexts
        .list_pits()
        .into_iter()
        .map(|p| json!({ "pit_id": p.id, "creation_time": p.created_ms, "keep_alive": p.keep_alive_ms }))
        .collect();
    json!({ "pits": pits }).to_string()
}

/// `DELETE /_search/point_in_time/_all` (OpenSearch).
pub fn close_all(contexts: &ReaderContexts) -> (String, u16) {
    let ids = contexts.close_all(false);
    (closed_response(&ids, |_| true, Dialect::OpenSearch).0, 200)
}

fn closed_response(ids: &[String], mut close: impl FnMut(&str) -> bool, d: Dialect) -> (String, u16) {
    let freed: Vec<bool> = ids.iter().map(|id| close(id)).collect();
    let n = freed.iter().filter(|f| **f).count();
    let status = if n == 0 { 404 } else { 200 };
    let body = match d {
        Dialect::Elasticsearch => json!({ "succeeded": true, "num_freed": n }),
        Dialect::OpenSearch => json!({
            "pits": ids.iter().zip(&freed).map(|(id, ok)| json!({ "successful": ok, "pit_id": id })).collect::<Vec<_>>()
        }),
    };
    (body.to_string(), status)
}
