//! `function_score` scores its matches a block at a time (`query/tantivy/function_score.rs`:
//! each function's column read once per block of 256): every hit's score must be the one
//! computed here with ES's formulas, across block boundaries, with documents missing the field,
//! a filtered function, deletions, and a multi-valued field (which reads per document).
mod common;

use std::collections::HashMap;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

const DOCS: usize = 1_000;

/// (bytes, price values) of document `i`: bytes missing on every 7th; two prices on every 5th.
fn fields(i: usize) -> (Option<i64>, Vec<f64>) {
    let bytes = (!i.is_multiple_of(7)).then_some(((i * 37) % 500) as i64);
    let first = ((i * 13) % 100) as f64;
    let prices = if i.is_multiple_of(5) { vec![first + 50.0, first] } else { vec![first] };
    (bytes, prices)
}

fn indexed() -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("t", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> = (0..DOCS)
        .map(|i| {
            let (bytes, prices) = fields(i);
            let mut doc = json!({"title": "x", "status": if i.is_multiple_of(3) { "a" } else { "b" }, "price": prices});
            if let Some(b) = bytes {
                doc["bytes"] = json!(b);
            }
            doc
        })
        .collect();
    for (n, part) in docs.chunks(400).enumerate() {
        e.bulk(None, &ndjson_from("t", part, n * 400 + 1), RefreshPolicy::Immediate).unwrap();
    }
    (d, e)
}

fn scores(engine: &Engine, function_score: Value) -> HashMap<String, f64> {
    let body = json!({"size": DOCS, "query": {"function_score": function_score}});
    let found = search(engine, "t", body);
    found["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap()))
        .collect()
}

fn assert_scores(got: &HashMap<String, f64>, live: impl Fn(usize) -> bool, want: impl Fn(usize) -> f64) {
    let expected: HashMap<String, f64> =
        (0..DOCS).filter(|&i| live(i)).map(|i| ((i + 1).to_string(), want(i))).collect();
    assert_eq!(got.len(), expected.len());
    for (id, score) in &expected {
        let found = got[id];
        assert!((found - score).abs() <= score.abs() * 1e-6, "doc {id}: {found} against {score}");
    }
}

#[test]
fn block_scores_equal_the_es_formulas() {
    let (_dir, engine) = indexed();
    let gauss = |v: f64| 0.5f64.powf(((v - 200.0).abs() - 10.0).max(0.0).powi(2) / 100f64.powi(2));
    let fvf = |i: usize| (1.0 + 1.2 * fields(i).0.map_or(1.0, |b| b as f64)).log10();
    let body = json!({
        "query": {"match_all": {}},
        "functions": [
            {"field_value_factor": {"field": "bytes", "factor": 1.2, "modifier": "log1p", "missing": 1}},
            {"gauss": {"bytes": {"origin": 200, "scale": 100, "offset": 10, "decay": 0.5}}},
            {"filter": {"term": {"status": "a"}}, "weight": 3}
        ],
        "score_mode": "max",
        "boost_mode": "multiply"
    });
    // A document without `bytes` is at distance 0 of the decay: it scores 1.
    let want = |i: usize| {
        let decay = fields(i).0.map_or(1.0, |b| gauss(b as f64));
        let weight = if i.is_multiple_of(3) { 3.0 } else { 0.0 };
        fvf(i).max(decay).max(weight)
    };
    assert_scores(&scores(&engine, body.clone()), |_| true, want);

    // A multi-valued field reads per document: field_value_factor takes the least value, a
    // decay's default `min` mode the nearest one.
    let prices = json!({
        "query": {"match_all": {}},
        "functions": [
            {"field_value_factor": {"field": "price", "modifier": "sqrt"}},
            {"linear": {"price": {"origin": 0, "scale": 100, "decay": 0.5}}}
        ],
        "score_mode": "sum",
        "boost_mode": "replace"
    });
    let linear = |v: f64| ((200.0 - v) / 200.0).max(0.0);
    let want_prices = |i: usize| {
        let least = fields(i).1.into_iter().fold(f64::INFINITY, f64::min);
        least.sqrt() + linear(least)
    };
    assert_scores(&scores(&engine, prices.clone()), |_| true, want_prices);

    // Deleted documents leave the blocks: ids 1..=300 (documents 0..300).
    let delete: String =
        (1..=300).map(|id| format!("{{\"delete\":{{\"_index\":\"t\",\"_id\":\"{id}\"}}}}\n")).collect();
    engine.bulk(None, delete.as_bytes(), RefreshPolicy::Immediate).unwrap();
    assert_scores(&scores(&engine, body), |i| i >= 300, want);
    assert_scores(&scores(&engine, prices), |i| i >= 300, want_prices);
}
