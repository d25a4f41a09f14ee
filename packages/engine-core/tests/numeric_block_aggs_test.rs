//! Numeric metrics and `histogram` / `range` buckets collected a block at a time
//! (`aggs/collect/numeric_block.rs`, when tantivy hands over blocks of documents: no scores)
//! against values computed here from the documents, and against the per-document path (a
//! scored search collects one document at a time). Some documents lack the fields (a column
//! with gaps). No document is deleted: tantivy hands over blocks only from segments without
//! deletions (with them, it checks and collects each document).
mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

const DOCS: i64 = 6_000;

fn bytes(n: i64) -> Option<i64> {
    (n % 9 != 4).then_some((n * 48_271) % 10_007 - 2_000)
}
fn price(n: i64) -> Option<f64> {
    (n % 7 != 2).then_some(((n * 7_919) % 1_009) as f64 / 8.0)
}
/// The documents the main query keeps: status "a" (two in three).
fn kept(n: i64) -> bool {
    n % 3 != 0
}

fn engine_with_docs() -> (tempfile::TempDir, engine_core::Engine) {
    let (dir, e) = engine();
    e.create_index("n", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> = (0..DOCS)
        .map(|n| {
            let mut doc = Map::new();
            doc.insert("status".into(), json!(if n % 3 == 0 { "b" } else { "a" }));
            doc.insert("title".into(), json!(if n % 2 == 0 { "even doc" } else { "odd doc" }));
            if let Some(b) = bytes(n) {
                doc.insert("bytes".into(), json!(b));
            }
            if let Some(p) = price(n) {
                doc.insert("price".into(), json!(p));
            }
            Value::Object(doc)
        })
        .collect();
    e.bulk(None, &ndjson("n", &docs), RefreshPolicy::Immediate).unwrap();
    (dir, e)
}

fn aggs() -> Value {
    json!({
        "b_stats": {"extended_stats": {"field": "bytes"}},
        "p_stats": {"stats": {"field": "price"}},
        "b_min": {"min": {"field": "bytes"}},
        "p_max": {"max": {"field": "price"}},
        "p_sum": {"sum": {"field": "price"}},
        "b_avg": {"avg": {"field": "bytes"}},
        "b_count": {"value_count": {"field": "bytes"}},
        "b_hist": {"histogram": {"field": "bytes", "interval": 500}},
        // Whole interval and offset over an integer column: bucketed by integer division.
        "b_hist_off": {"histogram": {"field": "bytes", "interval": 7, "offset": -3}},
        "b_hist_half": {"histogram": {"field": "bytes", "interval": 2.5, "offset": 1}},
        "p_hist": {"histogram": {"field": "price", "interval": 12.5}},
        "b_ranges": {"range": {"field": "bytes", "ranges": [{"to": 0}, {"from": -500, "to": 3_000}, {"from": 3_000}]}},
    })
}

fn close(a: &Value, b: f64, what: &str) {
    let a = a.as_f64().unwrap_or_else(|| panic!("{what}: {a}"));
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{what}: {a} vs {b}");
}

#[test]
fn block_collection_matches_the_documents_and_the_per_document_path() {
    let (_d, e) = engine_with_docs();
    let blocked = search(&e, "n", json!({"size": 0, "query": {"term": {"status": "a"}}, "aggs": aggs()}));
    let aggs_b = &blocked["aggregations"];
    let bs: Vec<f64> = (0..DOCS).filter(|n| kept(*n)).filter_map(bytes).map(|b| b as f64).collect();
    let ps: Vec<f64> = (0..DOCS).filter(|n| kept(*n)).filter_map(price).collect();
    let sum = |v: &[f64]| v.iter().sum::<f64>();
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(aggs_b["b_stats"]["count"], json!(bs.len()));
    close(&aggs_b["b_stats"]["sum"], sum(&bs), "bytes sum");
    close(&aggs_b["b_stats"]["sum_of_squares"], bs.iter().map(|v| v * v).sum(), "bytes sum of squares");
    close(&aggs_b["b_min"]["value"], min(&bs), "bytes min");
    close(&aggs_b["b_avg"]["value"], sum(&bs) / bs.len() as f64, "bytes avg");
    assert_eq!(aggs_b["b_count"]["value"], json!(bs.len()));
    assert_eq!(aggs_b["p_stats"]["count"], json!(ps.len()));
    close(&aggs_b["p_max"]["value"], max(&ps), "price max");
    close(&aggs_b["p_sum"]["value"], sum(&ps), "price sum");
    for (name, values, interval, offset) in [
        ("b_hist", &bs, 500.0, 0.0),
        ("b_hist_off", &bs, 7.0, -3.0),
        ("b_hist_half", &bs, 2.5, 1.0),
        ("p_hist", &ps, 12.5, 0.0),
    ] {
        for bucket in aggs_b[name]["buckets"].as_array().unwrap() {
            let key = bucket["key"].as_f64().unwrap();
            let want = values.iter().filter(|v| ((**v - offset) / interval).floor() * interval + offset == key).count();
            assert_eq!(bucket["doc_count"], json!(want), "{name} {key}");
        }
        let listed: u64 =
            aggs_b[name]["buckets"].as_array().unwrap().iter().map(|b| b["doc_count"].as_u64().unwrap()).sum();
        assert_eq!(listed, values.len() as u64, "{name}");
    }
    let in_range = |lo: f64, hi: f64| bs.iter().filter(|v| **v >= lo && **v < hi).count();
    let ranges = aggs_b["b_ranges"]["buckets"].as_array().unwrap();
    assert_eq!(ranges[0]["doc_count"], json!(in_range(f64::NEG_INFINITY, 0.0)));
    assert_eq!(ranges[1]["doc_count"], json!(in_range(-500.0, 3_000.0)));
    assert_eq!(ranges[2]["doc_count"], json!(in_range(3_000.0, f64::INFINITY)));

    // A scored query over the same documents collects one document at a time: same answers.
    let scored = search(
        &e,
        "n",
        json!({"size": 1, "query": {"bool": {"must": [{"match": {"title": "doc"}}], "filter": [{"term": {"status": "a"}}]}},
            "aggs": aggs()}),
    );
    assert_eq!(scored["aggregations"], blocked["aggregations"]);
}
