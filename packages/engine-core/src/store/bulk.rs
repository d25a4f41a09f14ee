//! `_bulk`: NDJSON parsing, per-item validation against the mapping, and the ES response.
//! Items are grouped per index (keeping their positions) so each index takes its writer lock
//! and fsyncs its translog once per request.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};

use crate::error::{json_syntax_error, EngineError, Result};
use crate::store::document::build_document;
use crate::store::index::{IndexHandle, PreparedWrite, WriteOutcome};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Index,
    Create,
    Delete,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::Index => "index",
            Action::Create => "create",
            Action::Delete => "delete",
        }
    }
}

#[derive(Debug)]
pub struct BulkItem<'a> {
    pub action: Action,
    pub index: String,
    pub id: Option<String>,
    pub source: Option<&'a [u8]>,
}

fn trim(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |p| p + 1);
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end);
    &line[start..end]
}

/// Splits the NDJSON body into items; request-level problems fail the whole bulk, as in ES.
pub fn parse_bulk<'a>(body: &'a [u8], default_index: Option<&str>) -> Result<Vec<BulkItem<'a>>> {
    let mut lines =
        body.split(|b| *b == b'\n').enumerate().map(|(n, l)| (n + 1, trim(l))).filter(|(_, l)| !l.is_empty());
    let mut items = Vec::new();
    while let Some((line_no, line)) = lines.next() {
        let meta: Value = serde_json::from_slice(line).map_err(|e| json_syntax_error(&e))?;
        let obj = meta.as_object().filter(|o| o.len() == 1).ok_or_else(|| {
            EngineError::IllegalArgument(format!(
                "Malformed action/metadata line [{line_no}], expected START_OBJECT or END_OBJECT but found [{meta}]"
            ))
        })?;
        let (name, params) = obj.iter().next().unwrap();
        let action = match name.as_str() {
            "index" => Action::Index,
            "create" => Action::Create,
            "delete" => Action::Delete,
            other => {
                return Err(EngineError::IllegalArgument(format!(
                    "Malformed action/metadata line [{line_no}], expected one of [create, delete, index, update] but found [{other}]"
                )))
            }
        };
        let mut index = default_index.map(str::to_string);
        let mut id = None;
        for (key, value) in params.as_object().into_iter().flatten() {
            match (key.as_str(), value) {
                ("_index", Value::String(s)) => index = Some(s.clone()),
                ("_id", Value::String(s)) => id = Some(s.clone()),
                ("_id", Value::Number(n)) => id = Some(n.to_string()),
                ("_id", Value::Null) => {}
                _ => {
                    return Err(EngineError::IllegalArgument(format!(
                        "Action/metadata line [{line_no}] contains an unknown parameter [{key}]"
                    )))
                }
            }
        }
        let index = index
            .ok_or_else(|| EngineError::ActionRequestValidation("Validation Failed: 1: index is missing;".into()))?;
        if action == Action::Delete && id.is_none() {
            return Err(EngineError::ActionRequestValidation("Validation Failed: 1: id is missing;".into()));
        }
        let source = if action == Action::Delete {
            None
        } else {
            let (_, src) = lines.next().ok_or_else(|| {
                EngineError::IllegalArgument("The bulk request must be terminated by a newline [\\n]".into())
            })?;
            Some(src)
        };
        items.push(BulkItem { action, index, id, source });
    }
    if items.is_empty() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no requests added;".into()));
    }
    Ok(items)
}

/// Runs a parsed bulk against the resolved indices and renders ES's response body.
pub fn execute_bulk(
    mut items: Vec<BulkItem<'_>>,
    resolve: impl Fn(&str) -> Option<Arc<IndexHandle>>,
    refresh: bool,
) -> Result<String> {
    let started = Instant::now();
    // Resolve indices once per name, then parse and convert documents in parallel: JSON
    // parsing dominates bulk CPU and needs nothing but the mapping.
    let mut handles: HashMap<String, Option<Arc<IndexHandle>>> = HashMap::new();
    for item in &items {
        handles.entry(item.index.clone()).or_insert_with(|| resolve(&item.index));
    }
    let prepared = prepare_all(&mut items, &handles);
    let mut results: Vec<Option<Result<WriteOutcome>>> = (0..items.len()).map(|_| None).collect();
    let mut groups: Vec<(Arc<IndexHandle>, Vec<usize>, Vec<PreparedWrite>)> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    for (pos, (item, prepared)) in items.iter().zip(prepared).enumerate() {
        let write = match prepared {
            Ok(w) => w,
            Err(e) => {
                results[pos] = Some(Err(e));
                continue;
            }
        };
        let handle = handles[&item.index].clone().expect("prepared items have an index");
        let g = *group_of.entry(item.index.clone()).or_insert_with(|| {
            groups.push((handle, Vec::new(), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(pos);
        groups[g].2.push(write);
    }
    for (handle, positions, writes) in groups {
        let outcomes = handle.write(writes)?;
        for (pos, outcome) in positions.into_iter().zip(outcomes) {
            results[pos] = Some(outcome);
        }
        if refresh {
            handle.refresh()?;
        }
    }
    let mut errors = false;
    let mut rendered = String::with_capacity(items.len() * 200);
    for (i, (item, result)) in items.iter().zip(results).enumerate() {
        let result = result.expect("every bulk item has a result");
        errors |= result.is_err() || result.as_ref().is_ok_and(|o| o.status >= 400 && o.result != "not_found");
        if i > 0 {
            rendered.push(',');
        }
        render_item(item, result, &resolve, &mut rendered);
    }
    Ok(format!(r#"{{"errors":{errors},"took":{},"items":[{rendered}]}}"#, started.elapsed().as_millis()))
}

/// Below this many items a bulk is prepared on the calling thread.
const PARALLEL_PREPARE_MIN_ITEMS: usize = 512;

fn prepare_all(
    items: &mut [BulkItem<'_>],
    handles: &HashMap<String, Option<Arc<IndexHandle>>>,
) -> Vec<Result<PreparedWrite>> {
    let prepare_one = |item: &mut BulkItem<'_>| match &handles[&item.index] {
        Some(handle) => prepare(handle, item),
        None => Err(EngineError::IndexNotFound(item.index.clone())),
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if items.len() < PARALLEL_PREPARE_MIN_ITEMS || threads < 2 {
        return items.iter_mut().map(prepare_one).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks_mut(chunk)
            .map(|part| scope.spawn(move || part.iter_mut().map(prepare_one).collect::<Vec<_>>()))
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

pub(super) fn prepare(handle: &IndexHandle, item: &mut BulkItem<'_>) -> Result<PreparedWrite> {
    if item.action == Action::Delete {
        return Ok(PreparedWrite::Delete { id: item.id.clone().unwrap_or_default() });
    }
    let raw = item.source.unwrap_or_default();
    let source: Value = serde_json::from_slice(raw)
        .map_err(|e| EngineError::DocumentParsing(format!("[{}:{}] failed to parse: {e}", e.line(), e.column())))?;
    if let Some(id) = &item.id {
        if id.len() > 512 {
            return Err(EngineError::ActionRequestValidation(format!(
                "Validation Failed: 1: id [{id}] is too long, must be no longer than 512 bytes but was: {};",
                id.len()
            )));
        }
    }
    let auto = item.id.is_none();
    // Auto ids are assigned before parsing, as in ES, so errors and results name the doc.
    let id = item.id.get_or_insert_with(crate::store::ids::auto_id).clone();
    let doc = build_document(&handle.mapping, &id, &source, raw)?;
    let nested = crate::nested::documents::nested_documents(&handle.mapping, &id, &source)?;
    let create = item.action == Action::Create;
    Ok(PreparedWrite::Index { id, auto, create, doc, nested, raw: raw.to_vec(), expect: None })
}

/// `{"<action>": {...result or error..., "status": N}}`, appended to `out`.
fn render_item(
    item: &BulkItem<'_>,
    result: Result<WriteOutcome>,
    resolve: &impl Fn(&str) -> Option<Arc<IndexHandle>>,
    out: &mut String,
) {
    out.push_str(r#"{""#);
    out.push_str(item.action.name());
    out.push_str(r#"":"#);
    match result {
        Ok(o) => o.write_json(&item.index, Some(o.status), out),
        Err(e) => {
            let mut cause = e.cause_json();
            if let EngineError::VersionConflict { .. } = e {
                cause["index_uuid"] = json!(resolve(&item.index).map(|h| h.uuid.clone()).unwrap_or_default());
                cause["shard"] = json!("0");
                cause["index"] = json!(item.index);
            }
            let body = json!({ "_index": item.index, "_id": item.id, "status": e.status(), "error": cause });
            out.push_str(&body.to_string());
        }
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_actions_ids_and_sources() {
        let body = b"{\"index\":{\"_index\":\"a\",\"_id\":\"1\"}}\n{\"x\":1}\n\n{\"create\":{}}\n{\"y\":2}\n{\"delete\":{\"_id\":3}}\n";
        let items = parse_bulk(body, Some("b")).unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!((items[0].action, items[0].index.as_str(), items[0].id.as_deref()), (Action::Index, "a", Some("1")));
        assert_eq!(items[0].source, Some(&b"{\"x\":1}"[..]));
        assert_eq!((items[1].action, items[1].index.as_str(), items[1].id.as_deref()), (Action::Create, "b", None));
        assert_eq!(items[2].id.as_deref(), Some("3"));
    }

    #[test]
    fn request_level_errors() {
        assert!(matches!(parse_bulk(b"", Some("a")), Err(EngineError::ActionRequestValidation(_))));
        assert!(matches!(parse_bulk(b"{\"index\":{}}\n{}\n", None), Err(EngineError::ActionRequestValidation(_))));
        let err = parse_bulk(b"{\"update\":{\"_index\":\"a\"}}\n{}\n", None).unwrap_err();
        assert!(err.to_string().contains("expected one of [create, delete, index, update] but found [update]"));
        assert!(matches!(parse_bulk(b"{\"index\":{\"_index\":\"a\"}}\n", None), Err(EngineError::IllegalArgument(_))));
        assert!(matches!(parse_bulk(b"{bad\n{}\n", None), Err(EngineError::JsonParse(_))));
    }
}
