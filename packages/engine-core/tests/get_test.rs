//! Real-time `GET _doc` and `_mget`.
mod common;

use common::*;
use serde_json::{json, Value};

#[test]
fn get_is_real_time_and_reports_missing_docs() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), false); // not refreshed: GET must still see it
    let (body, status) = e.get_doc("logs", "3").unwrap();
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 200);
    assert_eq!((doc["found"].clone(), doc["_version"].clone()), (json!(true), json!(1)));
    assert_eq!(doc["_source"]["bytes"], 300);
    let (body, status) = e.get_doc("logs", "nope").unwrap();
    assert_eq!((status, serde_json::from_str::<Value>(&body).unwrap()["found"].clone()), (404, json!(false)));
    assert!(e.get_doc("missing", "1").is_err());
}

#[test]
fn mget_mixes_found_missing_and_error_items() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let body = json!({"docs": [{"_id": "1"}, {"_index": "logs", "_id": "99"}, {"_index": "gone", "_id": "1"}]});
    let out: Value = serde_json::from_str(&e.mget(Some("logs"), body.to_string().as_bytes()).unwrap()).unwrap();
    assert_eq!(out["docs"][0]["_source"]["bytes"], 100);
    assert_eq!(out["docs"][1]["found"], false);
    assert_eq!(out["docs"][2]["error"]["type"], "index_not_found_exception");
    let ids: Value = serde_json::from_str(&e.mget(Some("logs"), br#"{"ids": ["2", 10]}"#).unwrap()).unwrap();
    assert_eq!(ids["docs"][1]["_source"]["bytes"], 1000);
    assert!(e.mget(None, br#"{"ids": ["1"]}"#).is_err());
    assert!(e.mget(Some("logs"), br#"{"docs": [{"_id": "1", "routing": "x"}]}"#).is_err());
}
