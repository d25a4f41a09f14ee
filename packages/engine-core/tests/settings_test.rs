//! `PUT|GET _settings` and `_flush`: dynamic settings change on an open index (and take effect),
//! static ones are refused, and a flush makes writes durable without making them visible.

mod common;

use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

#[test]
fn dynamic_settings_change_and_take_effect() {
    let (_dir, e) = common::engine();
    e.create_index("s", br#"{"settings":{"number_of_replicas":0}}"#).unwrap();
    let docs: Vec<Value> = (0..5).map(|i| json!({"n": i})).collect();
    e.bulk(None, &common::ndjson("s", &docs), RefreshPolicy::Immediate).unwrap();
    e.put_settings("s", br#"{"index.max_result_window":3}"#).unwrap();
    assert!(e.search("s", br#"{"from":2,"size":2}"#, &Map::new()).is_err());
    let flat: Map<String, Value> = [("flat_settings".to_string(), json!("true"))].into_iter().collect();
    let got: Value = serde_json::from_str(&e.get_settings("s", Some("index.max_*"), &flat).unwrap()).unwrap();
    assert_eq!(got["s"]["settings"], json!({"index.max_result_window": "3"}));
    assert!(e.put_settings("s", br#"{"index.number_of_shards":2}"#).unwrap_err().to_string().contains("non dynamic"));
    assert!(e.create_index("z", br#"{"settings":{"number_of_shards":0}}"#).is_err());
}

#[test]
fn flush_is_durable_but_not_a_refresh() {
    let (_dir, e) = common::engine();
    e.create_index("f", br#"{"settings":{"refresh_interval":"-1"}}"#).unwrap();
    e.bulk(None, &common::ndjson("f", &[json!({"n": 1})]), RefreshPolicy::None).unwrap();
    e.flush("f").unwrap();
    let count = |e: &engine_core::Engine| -> u64 {
        serde_json::from_str::<Value>(&e.count("f", b"{}").unwrap()).unwrap()["count"].as_u64().unwrap()
    };
    assert_eq!(count(&e), 0);
    e.refresh("f").unwrap();
    assert_eq!(count(&e), 1);
}

#[test]
fn an_index_body_with_a_key_twice_is_refused() {
    let (_d, e) = common::engine();
    let body = br#"{"mappings":{"properties":{"a":{"type":"keyword"},"a":{"type":"long"}}}}"#;
    let err = e.create_index("dup", body).unwrap_err();
    // ES reads the body as a map first: its parse_exception, the JSON error as the cause.
    assert_eq!(err.es_type_and_status(), ("parse_exception", 400), "{err}");
    let shown = err.to_es_body();
    assert_eq!(shown["error"]["reason"], "Failed to parse content to map");
    assert_eq!(shown["error"]["caused_by"]["type"], "json_parse_exception");
    assert!(shown["error"]["caused_by"]["reason"].as_str().unwrap().contains("Duplicate field 'a'"), "{shown}");
}
