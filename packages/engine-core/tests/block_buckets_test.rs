//! Keyword `terms` / `cardinality` counted by ordinal a block at a time, `global` taken a block
//! at a time, and `missing` skipping blocks of a column every document has a value in
//! (`aggs/collect/dense_block.rs`, `collect/mod.rs`): the answers must be the ones computed
//! here from the documents, with documents missing the field, on one large segment and on
//! several small ones, and with deletions (the per-document path).
mod common;

use std::collections::BTreeMap;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

const DOCS: usize = 20_000;
const STATUSES: [&str; 5] = ["a", "b", "c", "d", "e"];

/// (status, bytes) of document `i`; `None` where the field is left out.
fn fields(i: usize) -> (Option<&'static str>, Option<i64>) {
    let status = (!i.is_multiple_of(11)).then_some(STATUSES[(i * 7) % 5]);
    let bytes = (!i.is_multiple_of(13)).then_some(((i * 37) % 1_000) as i64);
    (status, bytes)
}

fn indexed(chunk: usize) -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("t", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> = (0..DOCS)
        .map(|i| {
            let (status, bytes) = fields(i);
            let mut doc = json!({ "title": "x", "ok": i.is_multiple_of(2) });
            if let Some(s) = status {
                doc["status"] = json!(s);
            }
            if let Some(b) = bytes {
                doc["bytes"] = json!(b);
            }
            doc
        })
        .collect();
    for (n, part) in docs.chunks(chunk).enumerate() {
        e.bulk(None, &ndjson_from("t", part, n * chunk + 1), RefreshPolicy::Immediate).unwrap();
    }
    (d, e)
}

#[test]
fn terms_cardinality_and_global_equal_the_documents() {
    for chunk in [DOCS, 3_000] {
        let (_dir, engine) = indexed(chunk);
        for deleted in [false, true] {
            if deleted {
                // Deleting documents 1..=50 (ids count from 1) sends collection per document.
                let body: String =
                    (1..=50).map(|id| format!("{{\"delete\":{{\"_index\":\"t\",\"_id\":\"{id}\"}}}}\n")).collect();
                engine.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
            }
            let live = |i: usize| !deleted || i >= 50;
            let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
            let (mut sum, mut n) = (0i64, 0u64);
            for i in (0..DOCS).filter(|&i| live(i)) {
                let (status, bytes) = fields(i);
                if let Some(s) = status {
                    *counts.entry(s).or_default() += 1;
                }
                if let Some(b) = bytes {
                    sum += b;
                    n += 1;
                }
            }
            let body = json!({"size": 0, "query": {"match_all": {}}, "aggs": {
                "status": {"terms": {"field": "status", "size": 10}},
                "distinct": {"cardinality": {"field": "status"}},
                "no_status": {"missing": {"field": "status"}},
                "no_ok": {"missing": {"field": "ok"}},
                "everyone": {"global": {}, "aggs": {"bytes": {"avg": {"field": "bytes"}}, "n": {"value_count": {"field": "bytes"}}}}
            }});
            let found = search(&engine, "t", body);
            let aggs = &found["aggregations"];
            let at = format!("chunk {chunk} deleted {deleted}");
            let got: BTreeMap<String, u64> = aggs["status"]["buckets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| (b["key"].as_str().unwrap().to_string(), b["doc_count"].as_u64().unwrap()))
                .collect();
            let want: BTreeMap<String, u64> = counts.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            assert_eq!(got, want, "{at}");
            assert_eq!(aggs["distinct"]["value"], json!(counts.len()), "{at}");
            let without_status = (0..DOCS).filter(|&i| live(i) && fields(i).0.is_none()).count();
            assert_eq!(aggs["no_status"]["doc_count"], json!(without_status), "{at}");
            assert_eq!(aggs["no_ok"]["doc_count"], json!(0), "{at}");
            assert_eq!(aggs["everyone"]["doc_count"], json!((0..DOCS).filter(|&i| live(i)).count()), "{at}");
            assert_eq!(aggs["everyone"]["n"]["value"], json!(n), "{at}");
            assert_eq!(aggs["everyone"]["bytes"]["value"], json!(sum as f64 / n as f64), "{at}");
        }
    }
}
