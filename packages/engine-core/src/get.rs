//! Real-time document reads: `GET /{index}/_doc/{id}` and `_mget`. Like ES, a read of an
//! index with writes not yet visible refreshes it first, so a document is readable as soon
//! as its write was acknowledged.

use serde_json::{json, Map, Value};
use tantivy::schema::{IndexRecordOption, Value as _};
use tantivy::{DocAddress, DocSet, TantivyDocument, Term, TERMINATED};

use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::index::IndexHandle;
use crate::mapping::{SEQ_NO_FIELD, VERSION_FIELD};

/// The ES get body (`found` true or false), as a JSON value.
pub fn get_doc(handle: &IndexHandle, id: &str) -> Result<Value> {
    if handle.has_pending_writes() {
        handle.refresh()?;
    }
    let searcher = handle.searcher();
    let term = Term::from_field_text(handle.mapping.id_field, id);
    for (ord, seg) in searcher.segment_readers().iter().enumerate() {
        let inverted = seg.inverted_index(handle.mapping.id_field)?;
        let Some(mut postings) = inverted.read_postings(&term, IndexRecordOption::Basic)? else { continue };
        let mut doc = postings.doc();
        while doc != TERMINATED {
            if seg.alive_bitset().is_none_or(|alive| alive.is_alive(doc)) {
                let stored: TantivyDocument = searcher.doc(DocAddress::new(ord as u32, doc))?;
                let raw = stored.get_first(handle.mapping.source_field).and_then(|v| v.as_bytes()).unwrap_or(b"{}");
                let source: Value = serde_json::from_slice(raw).unwrap_or(Value::Object(Map::new()));
                let ff = seg.fast_fields();
                return Ok(json!({
                    "_index": handle.name,
                    "_id": id,
                    "_version": ff.u64(VERSION_FIELD)?.first(doc).unwrap_or(1),
                    "_seq_no": ff.u64(SEQ_NO_FIELD)?.first(doc).unwrap_or(0),
                    "_primary_term": 1,
                    "found": true,
                    "_source": source,
                }));
            }
            doc = postings.advance();
        }
    }
    Ok(json!({ "_index": handle.name, "_id": id, "found": false }))
}

/// `_mget`: `{"docs": [{"_index", "_id"}]}` or `{"ids": [...]}` with the URL's index. A
/// missing index is an error item, as in ES; a malformed body fails the whole request.
pub fn mget(engine: &Engine, default_index: Option<&str>, body: &[u8]) -> Result<String> {
    let parsed: Value = serde_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))?;
    let obj = parsed.as_object().ok_or_else(|| EngineError::Parsing("[mget] expected an object".into()))?;
    let mut wanted: Vec<(Option<String>, String)> = Vec::new();
    for (key, value) in obj {
        match (key.as_str(), value) {
            ("ids", Value::Array(ids)) => {
                for id in ids {
                    wanted.push((default_index.map(str::to_string), scalar_id(id)?));
                }
            }
            ("docs", Value::Array(docs)) => {
                for doc in docs {
                    let d =
                        doc.as_object().ok_or_else(|| EngineError::Parsing("[docs] items must be objects".into()))?;
                    if let Some(other) = d.keys().find(|k| !matches!(String::as_str(k), "_index" | "_id")) {
                        return Err(EngineError::Parsing(format!("[docs] option [{other}] is not supported")));
                    }
                    let index = d.get("_index").and_then(Value::as_str).map(str::to_string);
                    let id = scalar_id(d.get("_id").unwrap_or(&Value::Null))?;
                    wanted.push((index.or_else(|| default_index.map(str::to_string)), id));
                }
            }
            _ => return Err(EngineError::Parsing(format!("unknown parameter [{key}] in mget request"))),
        }
    }
    if wanted.is_empty() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no documents to get;".into()));
    }
    let mut docs = Vec::with_capacity(wanted.len());
    for (index, id) in wanted {
        let index = index.ok_or_else(|| {
            EngineError::ActionRequestValidation("Validation Failed: 1: index is missing for doc 0;".into())
        })?;
        docs.push(match engine.handle(&index).and_then(|h| get_doc(&h, &id)) {
            Ok(doc) => doc,
            Err(e) => json!({ "_index": index, "_id": id, "error": e.to_es_body()["error"] }),
        });
    }
    Ok(json!({ "docs": docs }).to_string())
}

fn scalar_id(v: &Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(EngineError::ActionRequestValidation("Validation Failed: 1: id is missing;".into())),
    }
}
