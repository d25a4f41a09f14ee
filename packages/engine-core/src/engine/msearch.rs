//! `_msearch`: NDJSON pairs of a header (`{"index": ..}` or `{}` for the URL's index) and a
//! search body. Each search runs independently; a failing one (missing index, shard-level
//! failure) becomes an error item with its own `status`, as in ES. ES parses every body
//! before running any, so a malformed header or body (bad JSON, unknown query) fails the
//! whole request instead.

use serde_json::{Map, Value};

use crate::error::{json_syntax_error, EngineError, Result};

/// `search` runs one search on the named index (the engine's `_search`).
pub fn msearch(
    search: &dyn Fn(&str, &[u8]) -> Result<String>,
    default_index: Option<&str>,
    body: &[u8],
) -> Result<String> {
    let started = std::time::Instant::now();
    let lines: Vec<&[u8]> =
        body.split(|b| *b == b'\n').filter(|line| !line.iter().all(u8::is_ascii_whitespace)).collect();
    if lines.is_empty() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no requests added;".to_string()));
    }
    let mut responses = Vec::with_capacity(lines.len() / 2 + 1);
    for pair in lines.chunks(2) {
        let header: Map<String, Value> = serde_json::from_slice(pair[0]).map_err(|e| json_syntax_error(&e))?;
        let mut index = default_index.map(str::to_string);
        for (key, value) in &header {
            match (key.as_str(), value) {
                ("index", Value::String(s)) => index = Some(s.clone()),
                // No shard request cache and one node: nothing for these to change.
                ("request_cache" | "preference", _) => {}
                _ => {
                    return Err(EngineError::IllegalArgument(format!(
                        "key [{key}] is not supported in the metadata section"
                    )))
                }
            }
        }
        let index = index.ok_or_else(|| {
            EngineError::ActionRequestValidation("Validation Failed: 1: index is missing;".to_string())
        })?;
        let search_body = pair.get(1).copied().unwrap_or(b"{}");
        let item = match search(&index, search_body) {
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
