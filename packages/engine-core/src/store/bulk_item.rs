//! One `_bulk` item (its action line and its source) and its preparation: the checks ES makes
//! before a write, an auto id, the routing check, and the tantivy document (with its nested
//! objects) built against the mapping, ready for the writer. The single-document write API
//! (`writes`) prepares its document the same way.

use serde_json::Value;

use crate::error::{EngineError, Result};
use crate::store::bulk_action::{Action, ActionMeta};
use crate::store::document::build_document;
use crate::store::index::{IndexHandle, PreparedWrite};
use crate::store::versioning::Conditions;

#[derive(Debug)]
pub struct BulkItem<'a> {
    pub action: Action,
    pub index: String,
    pub id: Option<String>,
    pub meta: ActionMeta,
    pub source: Option<&'a [u8]>,
}

impl<'a> BulkItem<'a> {
    /// One `index` write (the single-document API's shape).
    pub fn index(
        index: &str,
        id: Option<&str>,
        cond: Conditions,
        routing: Option<String>,
        source: &'a [u8],
    ) -> BulkItem<'a> {
        let meta = ActionMeta { cond, routing, ..ActionMeta::default() };
        BulkItem {
            action: Action::Index,
            index: index.to_string(),
            id: id.map(str::to_string),
            meta,
            source: Some(source),
        }
    }
}

/// The item checked and its document built, ready for the writer (a delete needs only its id).
pub(crate) fn prepare(handle: &IndexHandle, item: &mut BulkItem<'_>) -> Result<PreparedWrite> {
    // Cloned, not taken: a document prepared again after a mapping update needs them too.
    let cond = item.meta.cond.clone();
    let routing = item.meta.routing.clone();
    if let Some(pipeline) = &item.meta.pipeline {
        return Err(EngineError::IllegalArgument(format!("pipeline with id [{pipeline}] does not exist")));
    }
    if item.id.as_deref() == Some("") && item.action != Action::Delete {
        return Err(EngineError::IllegalArgument("if _id is specified it must not be empty".into()));
    }
    if item.action == Action::Delete {
        let id = item.id.clone().unwrap_or_default();
        crate::store::routing::check(handle, &id, routing.as_deref(), false)?;
        return Ok(PreparedWrite::Delete { id, cond });
    }
    let raw = item.source.unwrap_or_default();
    // Strict, as ES's parser: a key given twice is refused, not silently the last value.
    let source: Value = crate::strict_json::from_slice(raw)
        .map_err(|e| EngineError::DocumentParsing(format!("[{}:{}] failed to parse: {e}", e.line(), e.column())))?;
    if let Some(id) = &item.id {
        if id.len() > 512 {
            return Err(EngineError::ActionRequestValidation(format!(
                "Validation Failed: 1: id [{id}] is too long, must be no longer than 512 bytes but was: {};",
                id.len()
            )));
        }
    }
    // Auto ids are assigned before parsing, as in ES, so errors and results name the doc.
    item.meta.auto_id |= item.id.is_none();
    let auto = item.meta.auto_id;
    let id = item.id.get_or_insert_with(crate::store::ids::auto_id).clone();
    crate::store::routing::check(handle, &id, routing.as_deref(), true)?;
    let doc = build_document(&handle.mapping, &id, &source, raw)?;
    let nested = crate::store::nested_documents::nested_documents(
        &handle.mapping,
        &id,
        &source,
        handle.settings.limits.nested_objects_limit,
    )?;
    let mut cond = cond;
    cond.create |= item.action == Action::Create;
    Ok(PreparedWrite::Index { id, auto, cond, doc, nested, raw: raw.to_vec(), routing })
}
