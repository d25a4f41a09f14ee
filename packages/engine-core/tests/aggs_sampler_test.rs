//! `sampler`: the sub-aggregations see only the `shard_size` best-scoring matches of each
//! index. Titles repeat "fox" i times in doc i (1..=10), so a `match` on "fox" ranks the docs
//! 10, 9, 8, ... and each doc's `bytes` is i * 100.
mod common;

use common::*;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn docs() -> Vec<Value> {
    (1..=10)
        .map(|i| {
            let title = format!("fox {}", vec!["fox"; i - 1].join(" ")).trim().to_string();
            json!({"title": title, "status": if i % 2 == 0 { "even" } else { "odd" }, "bytes": i * 100})
        })
        .collect()
}

fn engine_with_docs() -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    // Two bulks, two segments: the sample is taken over the whole index.
    bulk(&e, "logs", &docs()[..5], true);
    let rest = ndjson_from("logs", &docs()[5..], 6);
    e.bulk(None, &rest, engine_core::engine::RefreshPolicy::Immediate).unwrap();
    (d, e)
}

#[test]
fn sampler_keeps_the_best_scoring_matches_of_the_index() {
    let (_d, e) = engine_with_docs();
    let body = json!({"size": 0, "query": {"match": {"title": "fox"}}, "aggs": {"s": {
        "sampler": {"shard_size": 3},
        "aggs": {"min": {"min": {"field": "bytes"}}, "status": {"terms": {"field": "status"}}}
    }}});
    let out = search(&e, "logs", body);
    let s = &out["aggregations"]["s"];
    assert_eq!(s["doc_count"], 3);
    // Docs 8, 9 and 10 score best.
    assert_eq!(s["min"]["value"], 800.0);
    assert_eq!(s["status"]["buckets"], json!([{"key": "even", "doc_count": 2}, {"key": "odd", "doc_count": 1}]));
    assert_eq!(out["hits"]["total"]["value"], 10);
}

#[test]
fn sampler_defaults_to_a_hundred_docs_and_takes_no_field() {
    let (_d, e) = engine_with_docs();
    let body = json!({"size": 0, "aggs": {"s": {"sampler": {}, "aggs": {"n": {"value_count": {"field": "bytes"}}}}}});
    let out = search(&e, "logs", body);
    assert_eq!(out["aggregations"]["s"]["doc_count"], 10);
    assert_eq!(out["aggregations"]["s"]["n"]["value"], 10);
    let body = json!({"size": 0, "aggs": {"s": {"sampler": {"field": "status"}}}});
    let err = e.search("logs", body.to_string().as_bytes(), &Map::new()).unwrap_err().to_string();
    assert!(err.contains("[sampler] unknown field [field]"), "{err}");
}

#[test]
fn sampler_under_another_aggregation_is_refused() {
    let (_d, e) = engine_with_docs();
    let body = json!({"size": 0, "aggs": {"t": {"terms": {"field": "status"}, "aggs": {"s": {"sampler": {}}}}}});
    let err = e.search("logs", body.to_string().as_bytes(), &Map::new()).unwrap_err().to_string();
    assert!(err.contains("[sampler] aggregation [s] under another aggregation"), "{err}");
}

#[test]
fn typed_keys_name_the_sampler_and_unmapped_terms_as_es_does() {
    let (_d, e) = engine_with_docs();
    let body = json!({"size": 0, "aggs": {
        "s": {"sampler": {}, "aggs": {"sig": {"significant_terms": {"field": "status"}}}},
        "um": {"terms": {"field": "nope"}, "aggs": {"umsig": {"significant_terms": {"field": "nope"}}}}
    }});
    let mut params = Map::new();
    params.insert("typed_keys".into(), json!("true"));
    let out: Value = serde_json::from_str(&e.search("logs", body.to_string().as_bytes(), &params).unwrap()).unwrap();
    let aggs = &out["aggregations"];
    assert_eq!(aggs["sampler#s"]["doc_count"], 10);
    assert_eq!(aggs["sampler#s"]["sigsterms#sig"]["doc_count"], 10);
    assert!(aggs["sterms#um"].is_object(), "{aggs}");
}
