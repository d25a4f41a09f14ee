//! `_msearch`: per-item results and errors, default index from the URL, bad headers.
mod common;

use common::*;
use serde_json::{json, Map, Value};

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
    let out: Value = serde_json::from_str(&e.msearch(Some("logs"), body.as_bytes(), &Map::new()).unwrap()).unwrap();
    let items = out["responses"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["status"], 200);
    assert_eq!(items[0]["hits"]["total"]["value"], 3);
    assert_eq!(items[1]["status"], 404);
    assert_eq!(items[1]["error"]["type"], "index_not_found_exception");
    assert_eq!(items[2]["error"]["type"], "search_phase_execution_exception");
    // An unparseable body fails the whole request, as ES parses every body first.
    let bad = "{}\n{\"query\": {\"nope\": {}}}\n";
    assert_eq!(
        e.msearch(Some("logs"), bad.as_bytes(), &Map::new()).unwrap_err().es_type_and_status(),
        ("parsing_exception", 400)
    );
}

#[test]
fn malformed_requests_fail_whole_and_an_indexless_item_searches_every_index() {
    let (_d, e) = engine();
    let none = Map::new();
    let failure = |index: Option<&str>, body: &[u8]| e.msearch(index, body, &none).unwrap_err().es_type_and_status();
    // An item naming no index searches every index, as ES's does (REST suite msearch/10_basic).
    let all: Value = serde_json::from_str(&e.msearch(None, b"{}\n{}\n", &none).unwrap()).unwrap();
    assert_eq!(all["responses"][0]["status"], 200);
    assert_eq!(failure(Some("x"), b"{\"bad\": 1}\n{}\n"), ("illegal_argument_exception", 400));
    assert_eq!(failure(Some("x"), b"\n"), ("action_request_validation_exception", 400));
    assert_eq!(failure(Some("x"), b""), ("parse_exception", 400));
    assert_eq!(failure(Some("x"), b"{}\n{}"), ("illegal_argument_exception", 400));
}

/// URL parameters reach every item; header options (index lists, resolution options,
/// `search_type`, `routing`, `preference`) reach their own item.
#[test]
fn url_parameters_and_header_options_reach_the_items() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let body = [
        json!({"index": ["logs", "nope"], "ignore_unavailable": true, "search_type": "dfs_query_then_fetch",
            "routing": "r", "preference": "_local"}),
        json!({"size": 0, "aggs": {"m": {"max": {"field": "bytes"}}}}),
        json!({"index": "logs", "search_type": "nope"}),
        json!({}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect::<String>();
    let mut params = Map::new();
    params.insert("typed_keys".into(), json!("true"));
    params.insert("rest_total_hits_as_int".into(), json!("true"));
    params.insert("max_concurrent_searches".into(), json!("3"));
    let out: Value = serde_json::from_str(&e.msearch(None, body.as_bytes(), &params).unwrap()).unwrap();
    let items = out["responses"].as_array().unwrap();
    assert_eq!(items[0]["status"], 200, "{out}");
    assert_eq!(items[0]["hits"]["total"], 10);
    assert!(items[0]["aggregations"]["max#m"]["value"].is_number(), "{out}");
    assert_eq!(items[1]["error"]["type"], "illegal_argument_exception");
}
