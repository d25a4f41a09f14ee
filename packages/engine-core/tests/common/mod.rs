//! Shared helpers: a temp-dir engine with a small mapping.
#![allow(dead_code)]

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

pub fn engine() -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(dir.path()).unwrap();
    (dir, engine)
}

pub const MAPPING: &str = r#"{"settings":{"index":{"refresh_interval":"-1"}},"mappings":{"properties":{
  "title":{"type":"text","fields":{"raw":{"type":"keyword"}}},
  "status":{"type":"keyword"},
  "bytes":{"type":"long"},
  "price":{"type":"double"},
  "ok":{"type":"boolean"},
  "ts":{"type":"date"}
}}}"#;

pub fn ndjson(index: &str, docs: &[Value]) -> Vec<u8> {
    ndjson_from(index, docs, 1)
}

/// Index actions with ids `first_id`, `first_id + 1`, ... (a later bulk continuing the ids).
pub fn ndjson_from(index: &str, docs: &[Value], first_id: usize) -> Vec<u8> {
    let mut out = String::new();
    for (i, doc) in docs.iter().enumerate() {
        out.push_str(&json!({"index": {"_index": index, "_id": (i + first_id).to_string()}}).to_string());
        out.push('\n');
        out.push_str(&doc.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

pub fn search(engine: &Engine, index: &str, body: Value) -> Value {
    serde_json::from_str(&engine.search(index, body.to_string().as_bytes(), &Map::new()).unwrap()).unwrap()
}

pub fn bulk(engine: &Engine, index: &str, docs: &[Value], refresh: bool) -> Value {
    let policy = if refresh { RefreshPolicy::Immediate } else { RefreshPolicy::None };
    serde_json::from_str(&engine.bulk(None, &ndjson(index, docs), policy).unwrap()).unwrap()
}

pub fn ids(resp: &Value) -> Vec<String> {
    resp["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

/// Ten log-like docs with known values.
pub fn sample_docs() -> Vec<Value> {
    (1..=10)
        .map(|i| {
            json!({
                "title": if i % 2 == 0 { format!("Quick brown fox {i}") } else { format!("lazy dog {i}") },
                "status": if i % 3 == 0 { "error" } else { "ok" },
                "bytes": i * 100,
                "price": i as f64 * 1.5,
                "ok": i % 2 == 0,
                "ts": format!("2024-0{}-15T12:00:00Z", (i - 1) / 3 + 1)
            })
        })
        .collect()
}

/// `n` vectors of `dim` values in [-1, 1) from a small deterministic generator (xorshift), so
/// kNN tests have fixed vectors without a dependency.
pub fn xorshift_vectors(n: usize, dim: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut state = seed.max(1);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    (0..n).map(|_| (0..dim).map(|_| next()).collect()).collect()
}

/// Squared l2 distance.
pub fn l2(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}
