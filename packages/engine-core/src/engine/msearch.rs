//! `_msearch`: NDJSON pairs of a header (`{"index": ..}` or `{}` for the URL's index) and a
//! search body. Each search runs independently; a failing one (missing index, shard-level
//! failure) becomes an error item with its own `status`, as in ES. ES parses every body
//! before running any, so a malformed header or body (bad JSON, unknown query) fails the
//! whole request instead.

use serde_json::{Map, Value};

use crate::error::{json_syntax_error, EngineError, Result};

/// URL parameters every item's search takes as its own (`max_concurrent_searches` is the
/// request's: with one node and one shard, items already run one after another).
const ITEM_URL_PARAMS: [&str; 6] = [
    "rest_total_hits_as_int",
    "typed_keys",
    "search_type",
    "ccs_minimize_roundtrips",
    "max_concurrent_shard_requests",
    "pre_filter_shard_size",
];

/// Header keys that become the item's search parameters (`index` aside).
const HEADER_PARAMS: [&str; 8] = [
    "search_type",
    "preference",
    "routing",
    "ignore_unavailable",
    "allow_no_indices",
    "expand_wildcards",
    "allow_partial_search_results",
    "ccs_minimize_roundtrips",
];

/// A header value as the URL would carry it: text, a number, a boolean, or a list joined by commas.
fn param_value(key: &str, value: &Value) -> Result<Value> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(",")
        }
        _ => return Err(EngineError::IllegalArgument(format!("key [{key}] is not supported in the metadata section"))),
    };
    Ok(Value::String(text))
}

/// One search on the named index with its body and parameters (the engine's `_search`).
pub type SearchFn<'a> = &'a dyn Fn(&str, &[u8], &Map<String, Value>) -> Result<String>;

/// `search` runs each item; `params` are the URL's.
pub fn msearch(
    search: SearchFn,
    default_index: Option<&str>,
    body: &[u8],
    params: &Map<String, Value>,
) -> Result<String> {
    let started = std::time::Instant::now();
    if body.is_empty() {
        return Err(EngineError::RequestBodyRequired);
    }
    // ES reads items up to the last newline and refuses a body that does not end with one.
    if body.last() != Some(&b'\n') {
        return Err(EngineError::IllegalArgument("The msearch request must be terminated by a newline [\n]".into()));
    }
    let item_params: Map<String, Value> = params
        .iter()
        .filter(|(k, _)| ITEM_URL_PARAMS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let lines: Vec<&[u8]> =
        body.split(|b| *b == b'\n').filter(|line| !line.iter().all(u8::is_ascii_whitespace)).collect();
    if lines.is_empty() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no requests added;".to_string()));
    }
    let mut responses = Vec::with_capacity(lines.len() / 2 + 1);
    for pair in lines.chunks(2) {
        let header: Map<String, Value> = serde_json::from_slice(pair[0]).map_err(|e| json_syntax_error(&e))?;
        let mut index = default_index.map(str::to_string);
        let mut search_params = item_params.clone();
        for (key, value) in &header {
            match key.as_str() {
                "index" => index = Some(param_text_of(param_value(key, value)?)),
                // No shard request cache: nothing for it to change.
                "request_cache" => {}
                k if HEADER_PARAMS.contains(&k) => {
                    search_params.insert(key.clone(), param_value(key, value)?);
                }
                _ => {
                    return Err(EngineError::IllegalArgument(format!(
                        "key [{key}] is not supported in the metadata section"
                    )))
                }
            }
        }
        // No index in the header or the URL: every index, as ES's `_search` without one.
        let index = index.unwrap_or_else(|| "_all".to_string());
        let search_body = pair.get(1).copied().unwrap_or(b"{}");
        check_total_hits_as_int(&search_params, search_body)?;
        let item = match search(&index, search_body, &search_params) {
            Ok(text) => {
                let mut value: Value = serde_json::from_str(&text).map_err(|e| EngineError::Internal(e.to_string()))?;
                value["status"] = Value::from(200);
                value
            }
            Err(
                e @ (EngineError::Parsing(_)
                | EngineError::XContentParse(_)
                | EngineError::XContentParseCaused { .. }
                | EngineError::JsonEof(_)
                | EngineError::JsonParse(_)),
            ) => return Err(e),
            Err(e) => e.to_es_body(),
        };
        responses.push(item);
    }
    let took = started.elapsed().as_millis() as u64;
    Ok(serde_json::json!({ "took": took, "responses": responses }).to_string())
}

/// ES checks every item before running any: a total shown as a bare number must be exact
/// (or not counted).
fn check_total_hits_as_int(params: &Map<String, Value>, body: &[u8]) -> Result<()> {
    if params.get("rest_total_hits_as_int").is_none_or(|v| param_text_of(v.clone()) != "true") {
        return Ok(());
    }
    let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(body) else { return Ok(()) };
    match obj.get("track_total_hits") {
        // Exact, or not counted at all (shown as -1).
        None | Some(Value::Bool(_)) => Ok(()),
        Some(other) => Err(EngineError::IllegalArgument(format!(
            "[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got {other}"
        ))),
    }
}

fn param_text_of(value: Value) -> String {
    match value {
        Value::String(s) => s,
        other => other.to_string(),
    }
}
