//! `index.codec`: `best_compression` packs the doc store tighter than `default`, an unknown
//! value is refused with ES's message, and a codec changed while the index is closed takes
//! effect when it opens, with the documents written before still readable.

mod common;

use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};
use std::path::Path;

fn docs(n: usize, seed: usize) -> Vec<Value> {
    let words = ["timeout", "summarize", "refactor", "policy", "draft", "email", "sentiment", "request"];
    (0..n)
        .map(|i| {
            let k = i * 7919 + seed;
            let message: Vec<&str> = (0..12).map(|j| words[(k >> j) % words.len()]).collect();
            json!({"tenant": format!("tenant-{:04}", k % 97), "latency_ms": k % 3001, "message": message.join(" ")})
        })
        .collect()
}

fn tantivy_meta(dir: &Path, index: &str) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("indices").join(index).join("tantivy/meta.json")).unwrap()).unwrap()
}

fn store_bytes(dir: &Path, index: &str) -> u64 {
    let meta = tantivy_meta(dir, index);
    let live: Vec<String> = meta["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["segment_id"].as_str().unwrap().replace('-', ""))
        .collect();
    std::fs::read_dir(dir.join("indices").join(index).join("tantivy"))
        .unwrap()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.ends_with(".store") && live.iter().any(|id| name.starts_with(id.as_str()))
        })
        .map(|e| e.metadata().unwrap().len())
        .sum()
}

fn load_and_merge(e: &engine_core::Engine, index: &str, body: &str) {
    e.create_index(index, body.as_bytes()).unwrap();
    e.bulk(None, &common::ndjson(index, &docs(20_000, 1)), RefreshPolicy::Immediate).unwrap();
    let params: Map<String, Value> = [("max_num_segments".to_string(), json!("1"))].into_iter().collect();
    e.force_merge(index, &params).unwrap();
}

#[test]
fn best_compression_stores_fewer_bytes_than_default() {
    let (dir, e) = common::engine();
    load_and_merge(&e, "plain", r#"{"settings":{"index":{"codec":"default"}}}"#);
    load_and_merge(&e, "packed", r#"{"settings":{"index":{"codec":"best_compression"}}}"#);
    let (plain, packed) = (store_bytes(dir.path(), "plain"), store_bytes(dir.path(), "packed"));
    assert!(plain > 0 && packed < plain * 9 / 10, "default {plain} B, best_compression {packed} B");
    let hit = common::search(&e, "packed", json!({"query": {"ids": {"values": ["777"]}}}));
    assert_eq!(hit["hits"]["hits"][0]["_source"], docs(20_000, 1)[776]);
}

#[test]
fn an_unknown_codec_is_refused_with_es_message() {
    let (_dir, e) = common::engine();
    let err = e.create_index("c", br#"{"settings":{"index.codec":"lz4"}}"#).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400), "{err}");
    assert!(
        err.to_string()
            .contains("unknown value for [index.codec] must be one of [default, best_compression] but was: lz4"),
        "{err}"
    );
}

#[test]
fn a_codec_changed_while_closed_applies_when_the_index_opens() {
    let (dir, e) = common::engine();
    e.create_index("c", b"{}").unwrap();
    e.bulk(None, &common::ndjson("c", &docs(50, 2)), RefreshPolicy::Immediate).unwrap();
    let open_change = e.put_settings("c", br#"{"index.codec":"best_compression"}"#).unwrap_err();
    assert!(open_change.to_string().contains("non dynamic"), "{open_change}");
    assert_eq!(tantivy_meta(dir.path(), "c")["index_settings"]["docstore_blocksize"], 16_384);

    e.close_index("c", &Map::new()).unwrap();
    e.put_settings("c", br#"{"index.codec":"best_compression"}"#).unwrap();
    e.open_index("c", &Map::new()).unwrap();
    assert_eq!(tantivy_meta(dir.path(), "c")["index_settings"]["docstore_blocksize"], 65_536);

    e.bulk(None, &common::ndjson_from("c", &docs(50, 3), 51), RefreshPolicy::Immediate).unwrap();
    let params: Map<String, Value> = [("max_num_segments".to_string(), json!("1"))].into_iter().collect();
    e.force_merge("c", &params).unwrap();
    let all = common::search(&e, "c", json!({"size": 100, "sort": [{"latency_ms": "asc"}]}));
    assert_eq!(all["hits"]["total"]["value"], 100);
    let got: Vec<&Value> = all["hits"]["hits"].as_array().unwrap().iter().map(|h| &h["_source"]).collect();
    let mut written: Vec<Value> = docs(50, 2).into_iter().chain(docs(50, 3)).collect();
    written.sort_by_key(|d| d["latency_ms"].as_u64().unwrap());
    assert_eq!(got.len(), 100);
    for want in &written {
        assert!(got.contains(&want), "missing {want}");
    }
}
