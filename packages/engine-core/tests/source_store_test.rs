//! How `_source` is stored: as text in every index created now, as bytes in an index an earlier
//! build created. Both are read back exactly as sent, in hits, GET, mget and `top_hits`.
mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use tantivy::schema::{BytesOptions, FieldType, Schema, SchemaBuilder, STORED};

/// The tantivy directory of the only index under `data_dir`.
fn tantivy_dir(data_dir: &Path) -> PathBuf {
    let indices: Vec<_> = std::fs::read_dir(data_dir.join("indices")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(indices.len(), 1, "{indices:?}");
    indices[0].join("tantivy")
}

fn source_type(schema: &Schema) -> FieldType {
    schema.get_field_entry(schema.get_field("_source").unwrap()).field_type().clone()
}

/// Whether the first stored document's `_source` in the index at `tantivy` is text (else bytes).
fn first_source_is_text(tantivy: &Path) -> bool {
    use tantivy::schema::Value as _;
    let index = tantivy::Index::open_in_dir(tantivy).unwrap();
    let searcher = index.reader().unwrap().searcher();
    let source = searcher.schema().get_field("_source").unwrap();
    let doc: tantivy::TantivyDocument = searcher.doc(tantivy::DocAddress::new(0, 0)).unwrap();
    let value = doc.get_first(source).unwrap();
    assert!(value.as_str().is_some() || value.as_bytes().is_some());
    value.as_str().is_some()
}

/// The same schema with `_source` as bytes, at the same field number: what earlier builds wrote.
fn with_bytes_source(schema: &Schema) -> Schema {
    let mut builder = SchemaBuilder::new();
    for (_, entry) in schema.fields() {
        if entry.name() == "_source" {
            builder.add_bytes_field("_source", BytesOptions::from(STORED));
        } else {
            builder.add_field(entry.clone());
        }
    }
    builder.build()
}

/// A document whose text only survives a byte-exact store: escapes, non-ASCII, key order.
fn awkward_doc() -> Value {
    json!({"title": "caf\u{e9} \"quoted\" \\ \u{1F600}", "status": "z", "bytes": 7, "ts": "2024-01-01T00:00:00Z"})
}
const AWKWARD_RAW: &str =
    r#"{"title":"caf\u00e9 \"quoted\" \\ 😀","status":"z","bytes":7,"ts":"2024-01-01T00:00:00Z"}"#;

/// Every way a document's `_source` is read, for id `awk`: search hits, GET, mget, top_hits.
fn assert_sources_read_back(e: &engine_core::Engine) {
    let hits = search(e, "logs", json!({"query": {"term": {"status": "z"}}}));
    assert_eq!(hits["hits"]["hits"][0]["_source"], awkward_doc());
    let (body, status) = e.get_doc("logs", "awk", &Map::new()).unwrap();
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["_source"], awkward_doc());
    let mget: Value =
        serde_json::from_str(&e.mget(Some("logs"), br#"{"ids": ["awk", "1"]}"#, &Map::new()).unwrap()).unwrap();
    assert_eq!(mget["docs"][0]["_source"], awkward_doc());
    assert_eq!(mget["docs"][1]["_source"]["bytes"], 100);
    let top = search(
        e,
        "logs",
        json!({"size": 0, "query": {"term": {"status": "z"}},
               "aggs": {"t": {"top_hits": {"size": 1, "_source": {"includes": ["title"]}}}}}),
    );
    assert_eq!(top["aggregations"]["t"]["hits"]["hits"][0]["_source"], json!({"title": awkward_doc()["title"]}));
    let filtered = search(e, "logs", json!({"query": {"ids": {"values": ["awk"]}}, "_source": ["bytes"]}));
    assert_eq!(filtered["hits"]["hits"][0]["_source"], json!({"bytes": 7}));
}

fn index_awkward(e: &engine_core::Engine) {
    let line = format!("{{\"index\":{{\"_index\":\"logs\",\"_id\":\"awk\"}}}}\n{AWKWARD_RAW}\n");
    let reply: Value = serde_json::from_str(&e.bulk(None, line.as_bytes(), RefreshPolicy::Immediate).unwrap()).unwrap();
    assert_eq!(reply["errors"], false, "{reply}");
}

#[test]
fn a_new_index_stores_source_as_text_and_reads_it_back_exactly() {
    let (dir, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    index_awkward(&e);
    let schema = tantivy::Index::open_in_dir(tantivy_dir(dir.path())).unwrap().schema();
    assert!(matches!(source_type(&schema), FieldType::Str(_)), "{:?}", source_type(&schema));
    assert!(first_source_is_text(&tantivy_dir(dir.path())));
    assert_sources_read_back(&e);
}

/// An index an earlier build created (`_source` as bytes) opens, takes documents (still as
/// bytes: one index, one type) and reads them back, also after a merge.
#[test]
fn an_index_with_source_as_bytes_keeps_reading_and_writing_bytes() {
    let (dir, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    drop(e);
    let tantivy = tantivy_dir(dir.path());
    let schema = tantivy::Index::open_in_dir(&tantivy).unwrap().schema();
    std::fs::remove_dir_all(&tantivy).unwrap();
    std::fs::create_dir_all(&tantivy).unwrap();
    // The tantivy index as an earlier build created it; that build's writes are this one's on it.
    tantivy::Index::create_in_dir(&tantivy, with_bytes_source(&schema)).unwrap();
    let e = engine_core::Engine::open(dir.path()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    index_awkward(&e);
    assert_sources_read_back(&e);
    e.force_merge("logs", &json!({"max_num_segments": 1}).as_object().unwrap().clone()).unwrap();
    assert_sources_read_back(&e);
    drop(e);
    let schema = tantivy::Index::open_in_dir(&tantivy).unwrap().schema();
    assert!(matches!(source_type(&schema), FieldType::Bytes(_)), "{:?}", source_type(&schema));
    assert!(!first_source_is_text(&tantivy));
}
