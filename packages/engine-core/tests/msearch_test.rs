//! `_msearch`: per-item results and errors, default index from the URL, bad headers.
mod common;

use common::*;
use serde_json::{json, Value};

#[test]
fn runs_each_search_and_reports_errors_per_item() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let body = [
        json!({}),
        json!({"query": {"term": {"status": "error"}}, "size": 0}),
        json!({"index": "missing"}),
        json!({"query": {"match_all": {}}}),
        json!({"index": "logs"}),
        json!({"sort": [{"title": "asc"}]}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect::<String>();
    let out: Value = serde_json::from_str(&e.msearch(Some("logs"), body.as_bytes()).unwrap()).unwrap();
    let items = out["responses"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["status"], 200);
    assert_eq!(items[0]["hits"]["total"]["value"], 3);
    assert_eq!(items[1]["status"], 404);
    assert_eq!(items[1]["error"]["type"], "index_not_found_exception");
    assert_eq!(items[2]["error"]["type"], "search_phase_execution_exception");
    // An unparseable body fails the whole request, as ES parses every body first.
    let bad = "{}\n{\"query\": {\"nope\": {}}}\n";
    assert_eq!(e.msearch(Some("logs"), bad.as_bytes()).unwrap_err().es_type_and_status(), ("parsing_exception", 400));
}

#[test]
fn malformed_or_indexless_requests_fail_whole() {
    let (_d, e) = engine();
    assert!(e.msearch(None, b"{}\n{}\n").is_err());
    assert!(e.msearch(Some("x"), b"{\"bad\": 1}\n{}\n").is_err());
    assert!(e.msearch(Some("x"), b"\n").is_err());
}
