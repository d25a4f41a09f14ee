//! Single-document writes beside `_bulk`: `PUT|POST /{index}/_doc/{id}`, `DELETE
//! /{index}/_doc/{id}` and `POST /{index}/_update/{id}` (partial `doc` merge, `upsert`,
//! `doc_as_upsert`, `detect_noop`). An update is a read-modify-write: it reads the live document (real-time,
//! like ES's get), merges, and writes only if the document's version is still the one it read;
//! a concurrent write makes it retry (`retry_on_conflict`) or fail with ES's 409.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::script::update::{UpdateOp, UpdateScript};
use crate::store::bulk_item::{prepare, BulkItem};
use crate::store::document::build_document;
use crate::store::get::get_doc;
use crate::store::index::{IndexHandle, PreparedWrite, WriteOutcome};
use crate::store::source_filter::SourceFilter;
use crate::store::versioning::{Conditions, DocState};

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

/// `PUT|POST /{index}/_doc[/{id}]` and `_create`: written as the `index` action of a one-item
/// `_bulk` (same parsing, versioning, translog and refresh), answered in the shape of ES's index
/// API: 201 `created` or 200 `updated`. `id` is `None` for an id the engine generates.
pub fn index_doc(
    handle: &IndexHandle,
    id: Option<&str>,
    cond: Conditions,
    routing: Option<String>,
    source: &[u8],
    refresh: bool,
) -> Result<(String, u16)> {
    let mut item = BulkItem::index(&handle.name, id, cond, routing, source);
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
pub fn delete_doc(
    handle: &IndexHandle,
    id: &str,
    cond: Conditions,
    routing: Option<&str>,
    refresh: bool,
) -> Result<(String, u16)> {
    crate::store::routing::check(handle, id, routing, false)?;
    if crate::store::get::on_another_shard(handle, id, routing)? {
        // The shard this delete addresses has nothing under the id; the document stays where
        // it is, and nothing is written.
        let o = WriteOutcome {
            id: id.to_string(),
            version: 1,
            seq_no: handle.next_seq_no(),
            result: "not_found",
            status: 404,
        };
        return Ok((render(handle, &o), o.status));
    }
    let o = write_one(handle, PreparedWrite::Delete { id: id.to_string(), cond }, refresh)?;
    Ok((render(handle, &o), o.status))
}

struct UpdateRequest {
    doc: Option<Map<String, Value>>,
    /// `_source` in the body: the updated document to return.
    source: Option<Value>,
    upsert: Option<Map<String, Value>>,
    doc_as_upsert: bool,
    detect_noop: bool,
    script: Option<UpdateScript>,
    /// Run the script on `upsert` when the document is missing (instead of inserting it as is).
    scripted_upsert: bool,
}

fn parse_update(body: &[u8]) -> Result<UpdateRequest> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: script or doc is missing;".into()));
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))?;
    let obj = value.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
    let mut req = UpdateRequest {
        doc: None,
        source: None,
        upsert: None,
        doc_as_upsert: false,
        detect_noop: true,
        script: None,
        scripted_upsert: false,
    };
    let object = |key: &str, v: &Value| {
        v.as_object().cloned().ok_or_else(|| EngineError::Parsing(format!("[UpdateRequest] [{key}] must be an object")))
    };
    let boolean = |key: &str, v: &Value| {
        v.as_bool().ok_or_else(|| EngineError::Parsing(format!("[UpdateRequest] [{key}] must be a boolean")))
    };
    let mut script = None;
    for (key, v) in obj {
        match key.as_str() {
            "doc" => req.doc = Some(object(key, v)?),
            "upsert" => req.upsert = Some(object(key, v)?),
            "doc_as_upsert" => req.doc_as_upsert = boolean(key, v)?,
            "detect_noop" => req.detect_noop = boolean(key, v)?,
            "_source" => req.source = Some(v.clone()),
            "script" => script = Some(v),
            "scripted_upsert" => req.scripted_upsert = boolean(key, v)?,
            other => {
                let known = ["script", "scripted_upsert", "upsert", "doc", "doc_as_upsert", "detect_noop", "_source"];
                return Err(EngineError::XContentParse(format!(
                    "[UpdateRequest] unknown field [{other}]{}",
                    did_you_mean(other, &known)
                )));
            }
        }
    }
    if script.is_some() && req.doc.is_some() {
        return Err(EngineError::ActionRequestValidation(
            "Validation Failed: 1: can't provide both script and doc;".into(),
        ));
    }
    req.script = script.map(UpdateScript::from_json).transpose()?;
    if req.doc.is_none() && req.script.is_none() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: script or doc is missing;".into()));
    }
    Ok(req)
}

/// What an update does to the document, once decided.
enum Decision {
    /// Nothing to write (`detect_noop`, or a script's `ctx.op = 'noop'`); the document as it is.
    Noop(Map<String, Value>),
    Write {
        source: Map<String, Value>,
        create: bool,
    },
    /// A script's `ctx.op = 'delete'`.
    Delete,
}

/// Decides an update against the current document (`current`: a get body).
fn decide(req: &UpdateRequest, handle: &IndexHandle, id: &str, current: &Value) -> Result<Decision> {
    let found = current["found"] == true;
    let meta = || {
        let mut ctx = Map::new();
        ctx.insert("_index".into(), Value::String(handle.name.clone()));
        ctx.insert("_id".into(), Value::String(id.to_string()));
        for key in ["_version", "_routing"] {
            if let Some(v) = current.get(key) {
                ctx.insert(key.into(), v.clone());
            }
        }
        ctx.insert("_now".into(), Value::from(crate::date::now_ms()));
        ctx
    };
    if found && current.get("_source").is_none() {
        return Err(EngineError::DocumentSourceMissing { id: id.to_string() });
    }
    if found {
        let mut source = current["_source"].as_object().cloned().unwrap_or_default();
        if let Some(script) = &req.script {
            let out = script.run(source, "index", &meta())?;
            return Ok(match out.op {
                UpdateOp::Write => Decision::Write { source: out.source, create: false },
                UpdateOp::Noop => Decision::Noop(current["_source"].as_object().cloned().unwrap_or_default()),
                UpdateOp::Delete => Decision::Delete,
            });
        }
        let before = source.clone();
        merge(&mut source, req.doc.as_ref().expect("validated"));
        if req.detect_noop && source == before {
            return Ok(Decision::Noop(source));
        }
        return Ok(Decision::Write { source, create: false });
    }
    if let (Some(doc), true) = (&req.doc, req.doc_as_upsert) {
        return Ok(Decision::Write { source: doc.clone(), create: true });
    }
    let Some(upsert) = &req.upsert else {
        return Err(EngineError::DocumentMissing { index: handle.name.clone(), id: id.to_string() });
    };
    match (&req.script, req.scripted_upsert) {
        (Some(script), true) => {
            let out = script.run(upsert.clone(), "create", &meta())?;
            if out.op != UpdateOp::Write {
                return Err(EngineError::IllegalArgument(
                    "a scripted upsert that sets [ctx.op] to [noop] or [delete] is not supported; leave it [create]"
                        .into(),
                ));
            }
            Ok(Decision::Write { source: out.source, create: true })
        }
        _ => Ok(Decision::Write { source: upsert.clone(), create: true }),
    }
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

/// What an update takes besides its body: URL parameters or a bulk action line's options.
#[derive(Debug, Clone, Default)]
pub struct UpdateOptions {
    /// ES's `retry_on_conflict` (default 0).
    pub retry_on_conflict: u32,
    /// `if_seq_no`/`if_primary_term` (external versions are refused for updates).
    pub cond: Conditions,
    /// `_source` of the URL or action line: the updated document to return as `get`.
    pub source: Option<SourceFilter>,
    /// `routing` of the URL or action line; without it the document keeps the routing it has.
    pub routing: Option<String>,
}

/// `POST /{index}/_update/{id}`, one attempt: the write's outcome and, when `_source` asks for
/// it, the `get` object of the document after the update (`_seq_no`, `found`, filtered
/// `_source`). A lost race is the caller's to retry (`lost_race`).
pub fn update(
    handle: &IndexHandle,
    id: &str,
    body: &[u8],
    options: &UpdateOptions,
) -> Result<(WriteOutcome, Option<String>)> {
    let req = parse_update(body)?;
    let filter = match &req.source {
        Some(v) => Some(SourceFilter::from_body(v)?),
        None => options.source.clone(),
    };
    crate::store::routing::check(handle, id, options.routing.as_deref(), true)?;
    let current = get_doc(handle, id, options.routing.as_deref())?;
    // As ES's update: the request's routing, else the one the document was written with.
    let routing = options.routing.clone().or_else(|| current["_routing"].as_str().map(str::to_string));
    let version = current["_version"].as_u64();
    let mut cond = options.cond.clone();
    cond.expect_version = version;
    let (source, create) = match decide(&req, handle, id, &current)? {
        Decision::Noop(source) => {
            let o = WriteOutcome {
                id: id.to_string(),
                version: version.unwrap_or(1),
                seq_no: current["_seq_no"].as_u64().unwrap_or(0),
                result: "noop",
                status: 200,
            };
            // A noop still meets (or fails) the write's conditions.
            cond.expect_version = None;
            let state = DocState { version: o.version, seq_no: o.seq_no, deleted: false };
            cond.resolve(id, Some(state))?;
            handle.counters.noop_update.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let get = render_get(&o, &Value::Object(source), filter.as_ref());
            return Ok((o, get));
        }
        Decision::Delete => {
            let o = write_one(handle, PreparedWrite::Delete { id: id.to_string(), cond }, false)?;
            return Ok((o, None));
        }
        Decision::Write { source, create } => (Value::Object(source), create),
    };
    let raw = serde_json::to_vec(&source).map_err(|e| EngineError::Internal(e.to_string()))?;
    let built = build_document(&handle.mapping, id, &source, &raw)?;
    let nested = crate::store::nested_documents::nested_documents(
        &handle.mapping,
        id,
        &source,
        handle.settings.limits.nested_objects_limit,
    )?;
    cond.create = create;
    let write = PreparedWrite::Index { id: id.to_string(), auto: false, cond, doc: built, nested, raw, routing };
    let o = write_one(handle, write, false)?;
    let get = render_get(&o, &source, filter.as_ref());
    Ok((o, get))
}

/// Whether an update lost a race (another write changed the document between its read and
/// its write): the caller may try again, `retry_on_conflict` times, with the index's current
/// handle (a mapping update may have replaced the one it held).
pub fn lost_race(e: &EngineError) -> bool {
    matches!(e, EngineError::UpdateConflict { .. } | EngineError::VersionConflict { .. })
}

/// The single-document update reply: ES's write result, plus `get` when asked for.
pub fn update_doc(
    handle: &IndexHandle,
    id: &str,
    body: &[u8],
    options: &UpdateOptions,
    refresh: bool,
) -> Result<(String, u16)> {
    let (o, get) = update(handle, id, body, options)?;
    if refresh {
        handle.refresh()?;
    }
    let mut out = render(handle, &o);
    if let Some(get) = get {
        out.pop();
        out.push_str(r#","get":"#);
        out.push_str(&get);
        out.push('}');
    }
    Ok((out, o.status))
}

/// ES's `get` object of an update reply, or `None` when no `_source` was asked for.
fn render_get(o: &WriteOutcome, source: &Value, filter: Option<&SourceFilter>) -> Option<String> {
    let filter = filter?;
    let raw = source.to_string();
    let mut get = format!(r#"{{"_seq_no":{},"_primary_term":1,"found":true"#, o.seq_no);
    if let Some(filtered) = filter.apply(raw.as_bytes()) {
        get.push_str(r#","_source":"#);
        get.push_str(&filtered);
    }
    get.push('}');
    Some(get)
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
    fn parses_scripts_and_rejects_unknown_fields_and_a_missing_doc() {
        assert!(parse_update(br#"{"script": "ctx._source.a++"}"#).unwrap().script.is_some());
        assert!(parse_update(br#"{"script": "while (true) {}"}"#).is_err());
        assert!(parse_update(br#"{"script": "ctx._source.a = 1", "doc": {"a": 2}}"#).is_err());
        assert!(parse_update(br#"{"doc": {}, "bogus": 1}"#).is_err());
        assert!(matches!(parse_update(br#"{"upsert": {}}"#), Err(EngineError::ActionRequestValidation(_))));
        assert!(parse_update(br#"{"doc": {"a": 1}, "doc_as_upsert": true}"#).is_ok());
    }
}

/// ES's suggestion for an unknown field: the known names whose Levenshtein similarity
/// (1 - edits / longer length) is over 0.5, best first (` did you mean [doc]?`).
pub(crate) fn did_you_mean(unknown: &str, known: &[&str]) -> String {
    let distance = |a: &str, b: &str| {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let next = (prev + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
                prev = row[j + 1];
                row[j + 1] = next;
            }
        }
        1.0 - row[b.len()] as f32 / a.len().max(b.len()).max(1) as f32
    };
    let mut scored: Vec<(f32, &str)> =
        known.iter().map(|k| (distance(unknown, k), *k)).filter(|(d, _)| *d > 0.5).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    match scored.as_slice() {
        [] => String::new(),
        [(_, one)] => format!(" did you mean [{one}]?"),
        many => format!(" did you mean any of [{}]?", many.iter().map(|(_, k)| *k).collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod suggestion_tests {
    #[test]
    fn suggests_close_field_names() {
        assert_eq!(super::did_you_mean("dac", &["doc", "upsert"]), " did you mean [doc]?");
        assert_eq!(super::did_you_mean("zzzzzz", &["doc"]), "");
    }
}
