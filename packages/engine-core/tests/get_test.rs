//! Real-time `GET _doc` and `_mget`.
mod common;

use common::*;
use serde_json::{json, Map, Value};

#[test]
fn get_is_real_time_and_reports_missing_docs() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), false); // not refreshed: GET must still see it
    let (body, status) = e.get_doc("logs", "3", &Map::new()).unwrap();
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 200);
    assert_eq!((doc["found"].clone(), doc["_version"].clone()), (json!(true), json!(1)));
    assert_eq!(doc["_source"]["bytes"], 300);
    let (body, status) = e.get_doc("logs", "nope", &Map::new()).unwrap();
    assert_eq!((status, serde_json::from_str::<Value>(&body).unwrap()["found"].clone()), (404, json!(false)));
    assert!(e.get_doc("missing", "1", &Map::new()).is_err());
}

#[test]
fn mget_mixes_found_missing_and_error_items() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let body = json!({"docs": [{"_id": "1"}, {"_index": "logs", "_id": "99"}, {"_index": "gone", "_id": "1"}]});
    let out: Value =
        serde_json::from_str(&e.mget(Some("logs"), body.to_string().as_bytes(), &Map::new()).unwrap()).unwrap();
    assert_eq!(out["docs"][0]["_source"]["bytes"], 100);
    assert_eq!(out["docs"][1]["found"], false);
    assert_eq!(out["docs"][2]["error"]["type"], "index_not_found_exception");
    let ids: Value =
        serde_json::from_str(&e.mget(Some("logs"), br#"{"ids": ["2", 10]}"#, &Map::new()).unwrap()).unwrap();
    assert_eq!(ids["docs"][1]["_source"]["bytes"], 1000);
    assert!(e.mget(None, br#"{"ids": ["1"]}"#, &Map::new()).is_err());
    assert!(e.mget(Some("logs"), br#"{"docs": [{"_id": "1", "colour": "x"}]}"#, &Map::new()).is_err());
    let routed = e.mget(Some("logs"), br#"{"docs": [{"_id": "1", "routing": "x"}]}"#, &Map::new()).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&routed).unwrap()["docs"][0]["found"], true);
}

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

#[test]
fn get_options_filter_source_check_versions_and_skip_refresh() {
    let (_d, e) = engine();
    e.create_index("g", MAPPING.as_bytes()).unwrap();
    e.index_doc("g", Some("1"), br#"{"status":"a","bytes":3,"title":"x"}"#, &params(&[("refresh", "true")]), false)
        .unwrap();
    let get = |pairs: &[(&str, &str)]| -> Value {
        serde_json::from_str(&e.get_doc("g", "1", &params(pairs)).unwrap().0).unwrap()
    };
    assert!(get(&[("_source", "false")]).get("_source").is_none());
    assert_eq!(get(&[("_source", "status,bytes")])["_source"], json!({"status": "a", "bytes": 3}));
    assert_eq!(get(&[("_source_excludes", "title")])["_source"], json!({"status": "a", "bytes": 3}));
    assert!(get(&[("stored_fields", "status")]).get("_source").is_none());
    assert_eq!(e.get_doc("g", "1", &params(&[("version", "7")])).unwrap_err().status(), 409);
    // Not real-time: a write not yet refreshed is not seen, and the read does not refresh.
    e.index_doc("g", Some("2"), br#"{"status":"b"}"#, &Map::new(), false).unwrap();
    assert_eq!(e.get_doc("g", "2", &params(&[("realtime", "false")])).unwrap().1, 404);
    assert_eq!(e.get_doc("g", "2", &Map::new()).unwrap().1, 200);
    let (source, _) = e.get_source("g", "1", &params(&[("_source_includes", "bytes")])).unwrap();
    assert_eq!(source, r#"{"bytes":3}"#);
    assert_eq!(
        e.get_source("g", "9", &Map::new()).unwrap_err().es_type_and_status(),
        ("resource_not_found_exception", 404)
    );
    let docs: Value = serde_json::from_str(
        &e.mget(Some("g"), br#"{"docs":[{"_id":"1","_source":["bytes"]},{"_id":"2","_source":false}]}"#, &Map::new())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(docs["docs"][0]["_source"], json!({"bytes": 3}));
    assert!(docs["docs"][1].get("_source").is_none());
}
