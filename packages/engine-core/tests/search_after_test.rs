//! `search_after` paging: every doc exactly once, in sort order, across segments, both
//! directions, ties broken by a tiebreak field; and ES's validation errors.

mod common;

use std::cmp::Ordering;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const N: usize = 1_234;
const BATCHES: usize = 6;

/// Doc `i`: `bytes` has many ties and is missing on every 50th doc, `status` is a keyword
/// with ties, `seq` and `key` are unique tiebreaks, `title` gives a few distinct scores.
fn doc(i: usize) -> Value {
    let status = ["ok", "warn", "error", "debug", "info", "zeta"][i % 6];
    let mut d = json!({
        "status": status,
        "seq": i as i64 - 600,
        "key": format!("k{:05}", (i * 7919) % 100_000),
        "title": if i.is_multiple_of(3) { "fox fox" } else if i % 3 == 1 { "fox" } else { "fox dog cat bird" },
        "price": (i % 41) as f64 * 0.25 - 3.0,
    });
    if !i.is_multiple_of(50) {
        d["bytes"] = json!((i % 37) as i64 * 1000 - 5000);
    }
    d
}

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine
        .create_index(
            "p",
            br#"{"settings":{"index":{"refresh_interval":"-1"}},"mappings":{"properties":{
              "status":{"type":"keyword"},"seq":{"type":"long"},"key":{"type":"keyword"},
              "bytes":{"type":"long"},"title":{"type":"text"},"price":{"type":"double"}}}}"#,
        )
        .unwrap();
    // One refresh per batch: several segments, each holding a slice of every sort range.
    let per = N.div_ceil(BATCHES);
    for batch in 0..BATCHES {
        let mut body = String::new();
        for i in batch * per..((batch + 1) * per).min(N) {
            body.push_str(&json!({"index": {"_index": "p", "_id": i.to_string()}}).to_string());
            body.push('\n');
            body.push_str(&doc(i).to_string());
            body.push('\n');
        }
        engine.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
    }
    (dir, engine)
}

/// Pages through the whole index with `size` 100, returning ids and each hit's sort values.
fn page_all(engine: &Engine, query: Value, sort: Value) -> Vec<(usize, Vec<Value>)> {
    let mut seen = Vec::new();
    let mut after: Option<Value> = None;
    for _ in 0..(N / 100 + 3) {
        let mut body = json!({"size": 100, "query": query, "sort": sort, "track_total_hits": true});
        if let Some(a) = &after {
            body["search_after"] = a.clone();
        }
        let resp = common::search(engine, "p", body);
        assert_eq!(resp["hits"]["total"]["value"], N, "total counts every match, not only the page");
        let hits = resp["hits"]["hits"].as_array().unwrap();
        if hits.is_empty() {
            return seen;
        }
        for h in hits {
            seen.push((h["_id"].as_str().unwrap().parse().unwrap(), h["sort"].as_array().unwrap().clone()));
        }
        after = Some(hits.last().unwrap()["sort"].clone());
    }
    panic!("paging did not terminate");
}

fn assert_each_once_in_order(seen: &[(usize, Vec<Value>)], cmp: impl Fn(&Value, &Value) -> Ordering) {
    let mut ids: Vec<usize> = seen.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids.len(), N, "every doc returned");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), N, "no doc returned twice");
    let mut expected: Vec<usize> = (0..N).collect();
    expected.sort_by(|a, b| cmp(&doc(*a), &doc(*b)));
    let got: Vec<usize> = seen.iter().map(|(id, _)| *id).collect();
    assert_eq!(got, expected, "global sort order across pages");
}

fn long_missing_last(d: &Value, field: &str, desc: bool) -> (bool, i64) {
    match d[field].as_i64() {
        None => (true, 0),
        Some(v) => (false, if desc { -v } else { v }),
    }
}

#[test]
fn numeric_sort_with_numeric_tiebreak_asc_and_desc() {
    let (_dir, engine) = setup();
    for desc in [false, true] {
        let order = if desc { "desc" } else { "asc" };
        let seen = page_all(&engine, json!({"match_all": {}}), json!([{"bytes": order}, {"seq": order}]));
        assert_each_once_in_order(&seen, |a, b| {
            long_missing_last(a, "bytes", desc)
                .cmp(&long_missing_last(b, "bytes", desc))
                .then(long_missing_last(a, "seq", desc).cmp(&long_missing_last(b, "seq", desc)))
        });
    }
}

#[test]
fn keyword_sort_with_keyword_tiebreak_asc_and_desc() {
    let (_dir, engine) = setup();
    for desc in [false, true] {
        let order = if desc { "desc" } else { "asc" };
        let seen = page_all(&engine, json!({"match_all": {}}), json!([{"status": order}, {"key": {"order": order}}]));
        assert_each_once_in_order(&seen, |a, b| {
            let s = |d: &Value, f: &str| d[f].as_str().unwrap().to_string();
            let c = s(a, "status").cmp(&s(b, "status")).then(s(a, "key").cmp(&s(b, "key")));
            if desc {
                c.reverse()
            } else {
                c
            }
        });
    }
}

#[test]
fn double_sort_desc_with_keyword_tiebreak_asc() {
    let (_dir, engine) = setup();
    let seen = page_all(&engine, json!({"match_all": {}}), json!([{"price": "desc"}, {"key": "asc"}]));
    assert_each_once_in_order(&seen, |a, b| {
        b["price"]
            .as_f64()
            .unwrap()
            .total_cmp(&a["price"].as_f64().unwrap())
            .then(a["key"].as_str().unwrap().cmp(b["key"].as_str().unwrap()))
    });
}

#[test]
fn score_sort_with_tiebreak_returns_each_doc_once() {
    let (_dir, engine) = setup();
    let seen = page_all(&engine, json!({"match": {"title": "fox"}}), json!(["_score", {"seq": "asc"}]));
    let scores: Vec<f64> = seen.iter().map(|(_, s)| s[0].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "scores descend across pages");
    let mut ids: Vec<usize> = seen.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), N);
    // Within one score, the tiebreak ascends.
    for w in seen.windows(2) {
        if w[0].1[0] == w[1].1[0] {
            assert!(w[0].1[1].as_i64() < w[1].1[1].as_i64());
        }
    }
}

#[test]
fn doc_order_paging_spans_several_segments() {
    let (_dir, engine) = setup();
    let seen = page_all(&engine, json!({"match_all": {}}), json!(["_doc"]));
    let mut ids: Vec<usize> = seen.iter().map(|(id, _)| *id).collect();
    let segments: std::collections::BTreeSet<i64> = seen.iter().map(|(_, s)| s[0].as_i64().unwrap() >> 32).collect();
    assert!(segments.len() > 1, "the index has several segments: {segments:?}");
    let keys: Vec<i64> = seen.iter().map(|(_, s)| s[0].as_i64().unwrap()).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "_doc values ascend across segments and pages");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), N);
}

#[test]
fn search_after_needs_a_sort() {
    let (_dir, engine) = setup();
    let first = common::search(&engine, "p", json!({"size": 5, "query": {"match": {"title": "fox"}}}));
    assert!(first["hits"]["hits"][0].get("sort").is_none(), "plain relevance search has no sort values");
    // Relevance order has no sort values to resume from: ES refuses it on the shard.
    let body = error(&engine, json!({"size": 5, "query": {"match": {"title": "dog"}}, "search_after": [1000.0]}));
    assert_eq!(body["status"], 400);
    assert_eq!(body["error"]["type"], "search_phase_execution_exception");
    assert_eq!(body["error"]["root_cause"][0]["reason"], "Sort must contain at least one field.");
    let resp = common::search(
        &engine,
        "p",
        json!({"size": 5, "query": {"match": {"title": "dog"}}, "sort": ["_score"], "search_after": [1000.0]}),
    );
    let hits = resp["hits"]["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 5);
    assert!(hits[0]["sort"][0].as_f64().unwrap() > 0.0);
}

fn error(engine: &Engine, body: Value) -> Value {
    engine.search("p", body.to_string().as_bytes(), &Map::new()).unwrap_err().to_es_body()
}

#[test]
fn from_must_be_zero_with_search_after() {
    let (_dir, engine) = setup();
    let body = error(&engine, json!({"from": 10, "sort": [{"seq": "asc"}], "search_after": [3]}));
    assert_eq!(body["status"], 400);
    assert_eq!(body["error"]["type"], "action_request_validation_exception");
    assert!(body["error"]["reason"].as_str().unwrap().contains("`from` parameter must be set to 0"));
}

#[test]
fn wrong_arity_and_bad_values_are_400() {
    let (_dir, engine) = setup();
    let body = error(&engine, json!({"sort": [{"seq": "asc"}, {"key": "asc"}], "search_after": [3]}));
    assert_eq!(body["status"], 400);
    assert_eq!(body["error"]["type"], "search_phase_execution_exception");
    assert_eq!(body["error"]["root_cause"][0]["type"], "illegal_argument_exception");
    assert_eq!(body["error"]["root_cause"][0]["reason"], "search_after has 1 value(s) but sort has 2.");
    let body = error(&engine, json!({"sort": [{"seq": "asc"}], "search_after": ["nope"]}));
    assert_eq!(body["error"]["root_cause"][0]["reason"], "Failed to parse search_after value for field [seq].");
    let body = error(&engine, json!({"sort": [{"seq": "asc"}], "search_after": 3}));
    assert_eq!(body["error"]["type"], "parsing_exception");
}
