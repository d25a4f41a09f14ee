//! Field sort options: `missing` (`_first`, `_last`, a value), `mode` on multi-valued fields,
//! `unmapped_type`, `numeric_type` and `format`, with the sort values ES shows for each.

mod common;

use engine_core::Engine;
use serde_json::{json, Map, Value};

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine
        .create_index(
            "s",
            br#"{"mappings":{"properties":{"i":{"type":"long"},"n":{"type":"long"},"d":{"type":"double"},"k":{"type":"keyword"},"t":{"type":"date"}}}}"#,
        )
        .unwrap();
    let docs = [
        json!({"i": 1, "n": [1, 9], "d": 2.5, "k": ["m", "z"], "t": "2024-01-02T03:04:05Z"}),
        json!({"i": 2, "n": [4, 5], "k": "b", "t": "2024-01-01T00:00:00Z"}),
        json!({"i": 3, "n": 6, "d": 7.9, "k": ["c", "y"]}),
        json!({"i": 4, "d": -1.5}),
    ];
    common::bulk(&engine, "s", &docs, true);
    (dir, engine)
}

fn sorted(engine: &Engine, sort: Value) -> (Vec<String>, Vec<Value>) {
    let resp = common::search(engine, "s", json!({"sort": [sort, {"i": "asc"}]}));
    let sort_values = resp["hits"]["hits"].as_array().unwrap().iter().map(|h| h["sort"][0].clone()).collect();
    (common::ids(&resp), sort_values)
}

#[test]
fn missing_first_last_and_a_value() {
    let (_dir, engine) = setup();
    assert_eq!(sorted(&engine, json!({"d": "asc"})).0, ["4", "1", "3", "2"]);
    let (ids, values) = sorted(&engine, json!({"d": {"order": "asc", "missing": "_first"}}));
    assert_eq!(ids, ["2", "4", "1", "3"]);
    assert_eq!(values[0], json!("-Infinity"));
    let (ids, values) = sorted(&engine, json!({"d": {"order": "desc", "missing": "_first"}}));
    assert_eq!((ids[0].as_str(), values[0].clone()), ("2", json!("Infinity")));
    let (ids, values) = sorted(&engine, json!({"d": {"order": "asc", "missing": 5}}));
    assert_eq!(ids, ["4", "1", "2", "3"]);
    assert_eq!(values[2], json!(5.0), "a missing value shows as the value it sorts as");
    let (ids, values) = sorted(&engine, json!({"k": {"order": "asc", "missing": "_first"}}));
    assert_eq!((ids[0].as_str(), values[0].clone()), ("4", Value::Null));
}

#[test]
fn modes_pick_among_multiple_values() {
    let (_dir, engine) = setup();
    // n: doc1 [1, 9], doc2 [4, 5], doc3 [6].
    assert_eq!(sorted(&engine, json!({"n": {"order": "asc", "mode": "max"}})).0[..3], ["2", "3", "1"]);
    assert_eq!(sorted(&engine, json!({"n": {"order": "asc", "mode": "sum"}})).0[..3], ["3", "2", "1"]);
    let (ids, values) = sorted(&engine, json!({"n": {"order": "asc", "mode": "avg"}}));
    assert_eq!(ids[..3], ["1", "2", "3"], "avg 5, 4.5 -> 5, 6");
    assert_eq!(values[0], json!(5));
    assert_eq!(sorted(&engine, json!({"k": {"order": "desc", "mode": "min"}})).0[..3], ["1", "3", "2"]);
    let body = json!({"sort": [{"k": {"mode": "avg"}}]}).to_string();
    let err = engine.search("s", body.as_bytes(), &Map::new()).unwrap_err().to_es_body();
    assert_eq!(
        (err["status"].clone(), err["error"]["type"].clone()),
        (json!(400), json!("search_phase_execution_exception"))
    );
}

#[test]
fn unmapped_type_sorts_every_document_as_missing() {
    let (_dir, engine) = setup();
    let (ids, values) = sorted(&engine, json!({"nope": {"order": "asc", "unmapped_type": "long"}}));
    assert_eq!(ids, ["1", "2", "3", "4"]);
    assert_eq!(values[0], json!(i64::MAX));
    let (_, values) = sorted(&engine, json!({"nope": {"order": "desc", "unmapped_type": "keyword"}}));
    assert_eq!(values[0], Value::Null);
    let body = json!({"sort": [{"nope": "asc"}]}).to_string();
    assert!(engine.search("s", body.as_bytes(), &Map::new()).is_err(), "without unmapped_type it is an error");
}

#[test]
fn numeric_type_and_date_format_change_the_values_shown() {
    let (_dir, engine) = setup();
    let (ids, values) = sorted(&engine, json!({"d": {"order": "desc", "numeric_type": "long"}}));
    assert_eq!((ids[0].as_str(), values[0].clone()), ("3", json!(7)));
    let (_, values) = sorted(&engine, json!({"n": {"order": "asc", "numeric_type": "double"}}));
    assert_eq!(values[0], json!(1.0));
    let (ids, values) = sorted(&engine, json!({"t": {"order": "asc", "format": "strict_date"}}));
    assert_eq!((ids[0].as_str(), values[0].clone()), ("2", json!("2024-01-01")));
    let (_, values) = sorted(&engine, json!({"t": {"order": "desc", "format": "yyyy-MM-dd'T'HH:mm"}}));
    assert_eq!(values[0], json!("2024-01-02T03:04"));
}

#[test]
fn search_after_resumes_with_missing_first() {
    let (_dir, engine) = setup();
    let sort = json!([{"d": {"order": "asc", "missing": "_first"}}, {"i": "asc"}]);
    let first = common::search(&engine, "s", json!({"size": 2, "sort": sort}));
    assert_eq!(common::ids(&first), ["2", "4"]);
    let after = first["hits"]["hits"][1]["sort"].clone();
    let next = common::search(&engine, "s", json!({"size": 2, "sort": sort, "search_after": after}));
    assert_eq!(common::ids(&next), ["1", "3"]);
    let missing_after = first["hits"]["hits"][0]["sort"].clone();
    let from_missing = common::search(&engine, "s", json!({"size": 4, "sort": sort, "search_after": missing_after}));
    assert_eq!(common::ids(&from_missing), ["4", "1", "3"]);
}
