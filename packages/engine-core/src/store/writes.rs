//! Single-document writes beside `_bulk`: `PUT|POST /{index}/_doc/{id}`, `DELETE
//! /{index}/_doc/{id}` and `POST /{index}/_update/{id}` (partial `doc` merge, `upsert`,
//! `doc_as_upsert`, `detect_noop`). An update is a read-modify-write: it reads the live document (real-time,
//! like ES's get), merges, and writes only if the document's version is still the one it read;
//! a concurrent write makes it retry (`retry_on_conflict`) or fail with ES's 409.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::store::bulk::{prepare, Action, BulkItem};
use crate::store::document::build_document;
use crate::store::get::get_doc;
use crate::store::index::{IndexHandle, PreparedWrite, WriteOutcome};

fn write_one(handle: &IndexHandle, write: PreparedWrite, refresh: bool) -> Result<WriteOutcome> {
    let outcome = handle.write(vec![write])?.pop().expect("one write, one outcome")?;
    if refresh {
        handle.refresh()?;
    }
    Ok(outcome)
}

fn render(handle: &IndexHandle, o: &WriteOutcome) -> String {
    let mut out = String::with_capacity(192);
    o.write_json(&handle.name, None, &mut out);
    out
}

/// `PUT|POST /{index}/_doc/{id}`: written as the `index` action of a one-item `_bulk` (same
/// parsing, versioning, translog and refresh), answered in the shape of ES's index API: 201
/// `created` or 200 `updated`.
pub fn index_doc(handle: &IndexHandle, id: &str, source: &[u8], refresh: bool) -> Result<(String, u16)> {
    let mut item =
        BulkItem { action: Action::Index, index: handle.name.clone(), id: Some(id.to_string()), source: Some(source) };
    let write = prepare(handle, &mut item)?;
    let outcome = handle.write(vec![write])?.pop().expect("one write, one outcome");
    // As a bulk does: the index refreshes even when its one item failed.
    if refresh {
        handle.refresh()?;
    }
    let o = outcome?;
    Ok((render(handle, &o), o.status))
}

/// The document a `_doc` body holds, read as the service has always read it: as text
/// (invalid UTF-8 replaced), trimmed of JavaScript's white space, line breaks turned into
/// spaces (the stored `_source` keeps those bytes). `None` when nothing is left.
pub fn source_text(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    // JavaScript's `trim`: Unicode white space and the BOM, but not U+0085.
    let trimmed = text.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}');
    (!trimmed.is_empty()).then(|| trimmed.replace("\r\n", " ").replace('\n', " "))
}

/// `DELETE /{index}/_doc/{id}`: 200 `deleted`, or 404 `not_found`.
pub fn delete_doc(handle: &IndexHandle, id: &str, refresh: bool) -> Result<(String, u16)> {
    let o = write_one(handle, PreparedWrite::Delete { id: id.to_string() }, refresh)?;
    Ok((render(handle, &o), o.status))
}

struct UpdateRequest {
    doc: Option<Map<String, Value>>,
    upsert: Option<Map<String, Value>>,
    doc_as_upsert: bool,
    detect_noop: bool,
}

fn parse_update(body: &[u8]) -> Result<UpdateRequest> {
    let value: Value = serde_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))?;
    let obj = value.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
    let mut req = UpdateRequest { doc: None, upsert: None, doc_as_upsert: false, detect_noop: true };
    let object = |key: &str, v: &Value| {
        v.as_object().cloned().ok_or_else(|| EngineError::Parsing(format!("[UpdateRequest] [{key}] must be an object")))
    };
    let boolean = |key: &str, v: &Value| {
        v.as_bool().ok_or_else(|| EngineError::Parsing(format!("[UpdateRequest] [{key}] must be a boolean")))
    };
    for (key, v) in obj {
        match key.as_str() {
            "doc" => req.doc = Some(object(key, v)?),
            "upsert" => req.upsert = Some(object(key, v)?),
            "doc_as_upsert" => req.doc_as_upsert = boolean(key, v)?,
            "detect_noop" => req.detect_noop = boolean(key, v)?,
            "script" | "scripted_upsert" => {
                return Err(EngineError::IllegalArgument(
                    "[_update] scripts are not supported; send a partial [doc]".into(),
                ))
            }
            other => return Err(EngineError::Parsing(format!("[UpdateRequest] unknown field [{other}]"))),
        }
    }
    if req.doc.is_none() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: script or doc is missing;".into()));
    }
    Ok(req)
}

/// ES's partial-document merge: objects merge key by key, recursively; anything else replaces.
fn merge(target: &mut Map<String, Value>, changes: &Map<String, Value>) {
    for (key, change) in changes {
        match (target.get_mut(key), change) {
            (Some(Value::Object(existing)), Value::Object(inner)) => merge(existing, inner),
            _ => {
                target.insert(key.clone(), change.clone());
            }
        }
    }
}

/// `POST /{index}/_update/{id}`; `retry_on_conflict` is ES's parameter (default 0).
pub fn update_doc(
    handle: &IndexHandle,
    id: &str,
    body: &[u8],
    retry_on_conflict: u32,
    refresh: bool,
) -> Result<(String, u16)> {
    let req = parse_update(body)?;
    let doc = req.doc.as_ref().expect("validated");
    let mut attempt = 0;
    loop {
        let current = get_doc(handle, id)?;
        let (source, expect, create) = if current["found"] == true {
            let mut source = current["_source"].as_object().cloned().unwrap_or_default();
            let before = source.clone();
            merge(&mut source, doc);
            if req.detect_noop && source == before {
                let o = WriteOutcome {
                    id: id.to_string(),
                    version: current["_version"].as_u64().unwrap_or(1),
                    seq_no: current["_seq_no"].as_u64().unwrap_or(0),
                    result: "noop",
                    status: 200,
                };
                return Ok((render(handle, &o), 200));
            }
            (source, current["_version"].as_u64(), false)
        } else if req.doc_as_upsert {
            (doc.clone(), None, true)
        } else if let Some(upsert) = &req.upsert {
            (upsert.clone(), None, true)
        } else {
            return Err(EngineError::DocumentMissing { index: handle.name.clone(), id: id.to_string() });
        };
        let source = Value::Object(source);
        let raw = serde_json::to_vec(&source).map_err(|e| EngineError::Internal(e.to_string()))?;
        let built = build_document(&handle.mapping, id, &source, &raw)?;
        let nested = crate::nested::documents::nested_documents(&handle.mapping, id, &source)?;
        let write = PreparedWrite::Index { id: id.to_string(), auto: false, create, doc: built, nested, raw, expect };
        match write_one(handle, write, refresh) {
            Ok(o) => return Ok((render(handle, &o), o.status)),
            Err(EngineError::UpdateConflict { .. } | EngineError::VersionConflict { .. })
                if attempt < retry_on_conflict =>
            {
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merges_objects_recursively_and_replaces_the_rest() {
        let mut target = json!({"a": 1, "o": {"x": 1, "y": [1, 2]}, "keep": true}).as_object().cloned().unwrap();
        let changes = json!({"a": 2, "o": {"y": [3], "z": "new"}, "n": null}).as_object().cloned().unwrap();
        merge(&mut target, &changes);
        assert_eq!(
            Value::Object(target),
            json!({"a": 2, "o": {"x": 1, "y": [3], "z": "new"}, "keep": true, "n": null})
        );
    }

    #[test]
    fn rejects_scripts_unknown_fields_and_a_missing_doc() {
        assert!(parse_update(br#"{"script": "ctx._source.a++"}"#).is_err());
        assert!(parse_update(br#"{"doc": {}, "bogus": 1}"#).is_err());
        assert!(matches!(parse_update(br#"{"upsert": {}}"#), Err(EngineError::ActionRequestValidation(_))));
        assert!(parse_update(br#"{"doc": {"a": 1}, "doc_as_upsert": true}"#).is_ok());
    }
}
