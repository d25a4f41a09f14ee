//! One request through the engine exactly as the candidate's service hands it over: the same
//! `engine_core::Engine` calls `packages/engine-napi/src/lib.rs` makes for each endpoint, with
//! the URL parameters parsed from the same JSON text, behind the same `catch_unwind`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use engine_core::{Engine, EngineError};
use serde_json::{Map, Value};

use crate::plan::Request;

/// What the service would answer: the HTTP status, the body's size and, for errors, its start.
pub struct Outcome {
    pub status: u16,
    pub bytes: usize,
    pub summary: String,
}

fn params_map(params: &str) -> engine_core::Result<Map<String, Value>> {
    if params.is_empty() {
        return Ok(Map::new());
    }
    serde_json::from_str(params).map_err(|e| EngineError::IllegalArgument(format!("bad parameters: {e}")))
}

/// `_search` as `engine.ts` sends it: first `search_sync(cheap_only)`, which answers at once
/// unless the engine found the search may be heavy; then the full search (inline or on the pool,
/// the same engine call either way).
fn search(engine: &Engine, index: &str, body: &[u8], params: &str) -> engine_core::Result<String> {
    let params = params_map(params)?;
    match engine.search_if_cheap(index, body, &params)? {
        Some(reply) => Ok(reply),
        None => engine.search(index, body, &params),
    }
}

fn call(engine: &Engine, request: &Request) -> engine_core::Result<String> {
    let (index, body, params) = (request.index.as_str(), request.body.as_bytes(), request.params.as_str());
    match request.endpoint.as_str() {
        "_search" => search(engine, index, body, params),
        "_count" => engine.count_with(index, body, &params_map(params)?),
        "_mget" => engine.mget(Some(index), body, &params_map(params)?),
        "_msearch" => engine.msearch(Some(index), body, &params_map(params)?),
        other => Err(EngineError::IllegalArgument(format!("workcount does not replay {other}"))),
    }
}

pub fn serve(engine: &Engine, request: &Request) -> Outcome {
    let result = catch_unwind(AssertUnwindSafe(|| call(engine, request)))
        .unwrap_or_else(|_| Err(EngineError::Panic("engine panicked".into())));
    match result {
        Ok(body) => Outcome { status: 200, bytes: body.len(), summary: String::new() },
        Err(err) => {
            let body = err.to_es_body().to_string();
            Outcome { status: err.status(), bytes: body.len(), summary: body.chars().take(300).collect() }
        }
    }
}
