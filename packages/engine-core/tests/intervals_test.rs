//! The `intervals` query: rules, combinations, filters and multi-term rules over positions, on
//! the four sentences ES's own REST test uses.

mod common;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, e) = common::engine();
    e.create_index("t", br#"{"mappings":{"properties":{"text":{"type":"text"},"k":{"type":"keyword"}}}}"#).unwrap();
    let docs = [
        "Some like it hot, some like it cold",
        "Its cold outside, theres no kind of atmosphere",
        "Baby its cold there outside",
        "Outside it is cold and wet",
    ]
    .map(|t| json!({ "text": t }));
    e.bulk(None, &common::ndjson("t", &docs), RefreshPolicy::Immediate).unwrap();
    (dir, e)
}

fn matches(e: &Engine, rule: Value) -> Vec<String> {
    let reply = common::search(e, "t", json!({"query": {"intervals": {"text": rule}}}));
    let mut ids = common::ids(&reply);
    ids.sort();
    ids
}

#[test]
fn match_rules_ordered_unordered_and_gaps() {
    let (_dir, e) = setup();
    assert_eq!(matches(&e, json!({"match": {"query": "cold outside", "ordered": true}})), ["2", "3"]);
    assert_eq!(matches(&e, json!({"match": {"query": "cold outside"}})), ["2", "3", "4"]);
    assert_eq!(matches(&e, json!({"match": {"query": "cold outside", "ordered": true, "max_gaps": 0}})), ["2"]);
    assert_eq!(matches(&e, json!({"match": {"query": "cold outside", "max_gaps": 1}})), ["2", "3"]);
}

#[test]
fn combinations_and_filters() {
    let (_dir, e) = setup();
    let cold_outside = |extra: Value| {
        let mut all = json!({"intervals": [{"match": {"query": "cold"}}, {"match": {"query": "outside"}}]});
        all.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!({ "all_of": all })
    };
    let any = json!({"all_of": {"ordered": true, "intervals": [
        {"any_of": {"intervals": [{"match": {"query": "cold"}}, {"match": {"query": "outside"}}]}},
        {"match": {"query": "atmosphere"}}]}});
    assert_eq!(matches(&e, any), ["2"]);
    assert_eq!(matches(&e, cold_outside(json!({"ordered": true}))), ["2", "3"]);
    assert_eq!(matches(&e, cold_outside(json!({"filter": {"containing": {"match": {"query": "is"}}}}))), ["4"]);
    assert_eq!(
        matches(&e, cold_outside(json!({"filter": {"not_containing": {"match": {"query": "is"}}}}))),
        ["2", "3"]
    );
    let it_outside = json!({"match": {"query": "it", "filter": {"not_contained_by": cold_outside(json!({}))}}});
    assert_eq!(matches(&e, it_outside), ["1"]);
    let before = json!({"match": {"query": "cold", "filter": {"before": {"match": {"query": "outside"}}}}});
    assert_eq!(matches(&e, before), ["2", "3"]);
    let after = json!({"match": {"query": "cold", "filter": {"after": {"match": {"query": "outside"}}}}});
    assert_eq!(matches(&e, after), ["4"]);
}

#[test]
fn multi_term_rules_expand_per_segment() {
    let (_dir, e) = setup();
    let with = |rule: Value| json!({"all_of": {"intervals": [{"match": {"query": "cold"}}, rule]}});
    assert_eq!(matches(&e, with(json!({"prefix": {"prefix": "Out"}}))), ["2", "3", "4"]);
    assert_eq!(matches(&e, with(json!({"wildcard": {"pattern": "out?ide"}}))), ["2", "3", "4"]);
    let fuzzy = json!({"all_of": {"intervals": [{"fuzzy": {"term": "cald"}}, {"prefix": {"prefix": "out"}}]}});
    assert_eq!(matches(&e, fuzzy), ["2", "3", "4"]);
}

#[test]
fn scores_saturate_the_sloppy_frequency_and_boost_scales() {
    let (_dir, e) = setup();
    let body = json!({"query": {"intervals": {"text": {"match": {"query": "cold outside", "max_gaps": 0, "ordered": true}, "boost": 2.0}}}});
    let reply = common::search(&e, "t", body);
    // One interval of the minimal length: S = 1, score = 2 * 1 / (1 + 1).
    assert_eq!(reply["hits"]["hits"][0]["_score"], 1.0);
}

#[test]
fn refuses_what_it_cannot_serve() {
    let (_dir, e) = setup();
    let run = |q: Value| e.search("t", json!({ "query": q }).to_string().as_bytes(), &Map::new());
    let err = run(json!({"intervals": {"k": {"match": {"query": "a"}}}})).unwrap_err();
    assert!(err.to_string().contains("Can only use interval queries on text fields"), "{err}");
    assert_eq!(run(json!({"intervals": {"text": {"nope": {}}}})).unwrap_err().status(), 400);
    let unmapped = run(json!({"intervals": {"missing": {"match": {"query": "a"}}}})).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&unmapped).unwrap()["hits"]["total"]["value"], 0);
}
