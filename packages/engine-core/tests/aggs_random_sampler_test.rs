//! `random_sampler` (Elasticsearch 8.2+). OpenSearch 2.19, the conformance baseline, has no
//! such aggregation, so there is no conformance case against it: these tests pin ES's
//! documented behaviour instead (p = 1 is the unsampled answer, a seed repeats its sample,
//! the kept fraction is p within sampling error, sub-aggregation counts scaled by 1/p, the
//! sampler's own doc_count not) and ES's error texts.
mod common;

use common::*;
use engine_core::error::EngineError;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const STATUSES: [&str; 4] = ["a", "b", "c", "d"];

/// 20,000 docs in two segments: `status` cycles a..d, `bytes` is the doc's number.
fn big_engine() -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> = (0..20_000).map(|i| json!({"status": STATUSES[i % 4], "bytes": i})).collect();
    bulk(&e, "logs", &docs[..10_000], true);
    let second = ndjson_from("logs", &docs[10_000..], 10_001);
    e.bulk(None, &second, engine_core::engine::RefreshPolicy::Immediate).unwrap();
    (d, e)
}

fn sampled(e: &Engine, query: Value, probability: f64, seed: i64) -> Value {
    let body = json!({"size": 0, "query": query, "aggs": {"s": {
        "random_sampler": {"probability": probability, "seed": seed},
        "aggs": {
            "by_status": {"terms": {"field": "status"}},
            "count": {"value_count": {"field": "bytes"}},
            "sum": {"sum": {"field": "bytes"}},
            "avg": {"avg": {"field": "bytes"}}
        }
    }}});
    search(e, "logs", body)["aggregations"]["s"].clone()
}

fn error_of(e: &Engine, aggs: Value) -> EngineError {
    e.search("logs", json!({"size": 0, "aggs": aggs}).to_string().as_bytes(), &Map::new()).unwrap_err()
}

#[test]
fn probability_one_is_the_unsampled_answer() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let subs = json!({
        "by_status": {"terms": {"field": "status"}, "aggs": {"sum": {"sum": {"field": "bytes"}}}},
        "stats": {"extended_stats": {"field": "price"}},
        "per_month": {"date_histogram": {"field": "ts", "calendar_interval": "month"}},
        "avg": {"avg": {"field": "bytes"}}
    });
    let mut aggs = subs.clone();
    aggs["s"] = json!({"random_sampler": {"probability": 1.0, "seed": 3, "shard_seed": 9}, "aggs": subs});
    let out = search(&e, "logs", json!({"size": 0, "query": {"range": {"bytes": {"gte": 300}}}, "aggs": aggs}))
        ["aggregations"]
        .clone();
    let s = &out["s"];
    assert_eq!(s["doc_count"], 8);
    assert_eq!(
        (s["seed"].clone(), s["shard_seed"].clone(), s["probability"].clone()),
        (json!(3), json!(9), json!(1.0))
    );
    for name in ["by_status", "stats", "per_month", "avg"] {
        assert_eq!(s[name], out[name], "{name}");
    }
}

#[test]
fn without_a_seed_one_is_picked_and_echoed() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let aggs = json!({"s": {"random_sampler": {"probability": 1}, "aggs": {"n": {"value_count": {"field": "bytes"}}}}});
    let s = search(&e, "logs", json!({"size": 0, "aggs": aggs}))["aggregations"]["s"].clone();
    assert!(s["seed"].is_i64(), "{s}");
    assert!(s.get("shard_seed").is_none());
    assert_eq!((s["doc_count"].clone(), s["n"]["value"].clone()), (json!(10), json!(10)));
}

#[test]
fn a_seed_repeats_its_sample_and_another_seed_differs() {
    let (_d, e) = big_engine();
    let first = sampled(&e, json!({"match_all": {}}), 0.1, 42);
    assert_eq!(first, sampled(&e, json!({"match_all": {}}), 0.1, 42));
    assert_eq!(first["seed"], 42);
    let other = sampled(&e, json!({"match_all": {}}), 0.1, 43);
    assert_ne!(first["sum"], other["sum"], "seeds 42 and 43 kept the same documents");
}

#[test]
fn kept_fraction_is_p_within_sampling_error() {
    let (_d, e) = big_engine();
    for (p, seed) in [(0.1, 1), (0.1, 2), (0.01, 3), (0.5, 4), (0.25, 5)] {
        let n = sampled(&e, json!({"match_all": {}}), p, seed)["doc_count"].as_f64().unwrap();
        let (mean, sd) = (20_000.0 * p, (20_000.0 * p * (1.0 - p)).sqrt());
        assert!((n - mean).abs() < 5.0 * sd, "p={p} seed={seed}: kept {n}, expected {mean} ± {sd}");
    }
    // The query filters the sample: 5,000 docs have status a.
    let n = sampled(&e, json!({"term": {"status": "a"}}), 0.1, 6)["doc_count"].as_f64().unwrap();
    assert!((n - 500.0).abs() < 5.0 * (500.0f64 * 0.9).sqrt(), "kept {n} of status a");
}

#[test]
fn sub_aggregation_counts_and_sums_scale_by_one_over_p() {
    let (_d, e) = big_engine();
    let s = sampled(&e, json!({"match_all": {}}), 0.1, 7);
    let n = s["doc_count"].as_u64().unwrap();
    // The sampler's own doc_count is what was kept; value_count and buckets are scaled.
    assert!(n < 5_000, "{s}");
    assert_eq!(s["count"]["value"], json!(n * 10));
    let bucket_total: u64 =
        s["by_status"]["buckets"].as_array().unwrap().iter().map(|b| b["doc_count"].as_u64().unwrap()).sum();
    assert_eq!(bucket_total, n * 10);
    // avg is not scaled, sum is: sum = avg * kept / p.
    let (avg, sum) = (s["avg"]["value"].as_f64().unwrap(), s["sum"]["value"].as_f64().unwrap());
    assert!((sum - avg * n as f64 * 10.0).abs() < 1e-6 * sum, "avg {avg} sum {sum} n {n}");
    assert!((avg - 10_000.0).abs() < 1_000.0, "avg {avg}");
}

#[test]
fn no_match_gives_an_empty_sample() {
    let (_d, e) = big_engine();
    let s = sampled(&e, json!({"term": {"status": "zzz"}}), 0.1, 1);
    assert_eq!(s["doc_count"], 0);
    assert_eq!(s["count"]["value"], 0);
    assert_eq!(s["by_status"]["buckets"], json!([]));
}

#[test]
fn errors_match_elasticsearch() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let sub = json!({"n": {"value_count": {"field": "bytes"}}});
    let bad_p = error_of(&e, json!({"s": {"random_sampler": {"probability": 0.75}, "aggs": sub}})).to_es_body();
    assert_eq!(bad_p["status"], 400);
    assert_eq!(bad_p["error"]["type"], "x_content_parse_exception");
    assert_eq!(bad_p["error"]["reason"], "[random_sampler] failed to parse field [probability]");
    assert_eq!(
        bad_p["error"]["caused_by"],
        json!({"type": "illegal_argument_exception", "reason": "[probability] must be between 0.0 and 0.5 or exactly 1.0, was [0.75]"})
    );
    let negative = error_of(&e, json!({"s": {"random_sampler": {"probability": -1}, "aggs": sub}})).to_es_body();
    assert_eq!(negative["error"]["caused_by"]["reason"], "[probability] must be greater than 0.0, was [-1.0]");

    let no_subs = error_of(&e, json!({"s": {"random_sampler": {"probability": 0.1}}}));
    assert_eq!(no_subs.to_string(), "[random_sampler] aggregation [s] must have sub-aggregations");
    assert_eq!(no_subs.to_es_body()["error"]["root_cause"][0]["type"], "illegal_argument_exception");
    let no_p = error_of(&e, json!({"s": {"random_sampler": {"seed": 1}, "aggs": sub}}));
    assert_eq!(no_p.to_string(), "[random_sampler] aggregation [s] must have [probability] set");
    let nested = error_of(
        &e,
        json!({"t": {"terms": {"field": "status"}, "aggs": {"s": {"random_sampler": {"probability": 0.1}, "aggs": sub}}}}),
    );
    assert_eq!(nested.to_string(), "[random_sampler] aggregation [s] cannot have a parent aggregation");
    assert_eq!(nested.status(), 400);
    let unknown = error_of(&e, json!({"s": {"random_sampler": {"probability": 0.1, "size": 3}, "aggs": sub}}));
    assert_eq!(unknown.to_string(), "[random_sampler] unknown field [size]");
}
