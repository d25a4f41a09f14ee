//! `_field_caps`: each field's type, and whether it is searchable and aggregatable, across the
//! indices of the request, read from their mappings as ES merges its shards' answers: one entry
//! per type, `indices` when a field has several types, `non_searchable_indices` /
//! `non_aggregatable_indices` when some of a type's indices differ, `meta` merged,
//! `unmapped` with `include_unmapped`, and `index_filter` leaving out the indices it cannot match.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::mapping_update::render;
use crate::store::versioning::param_text;

use super::resolve::ResolveOptions;
use super::Engine;
use crate::wildcard::glob;

/// One field of one index.
#[derive(Debug, Clone, PartialEq)]
struct FieldCap {
    kind: String,
    searchable: bool,
    aggregatable: bool,
    meta: Map<String, Value>,
}

fn flag(def: &Map<String, Value>, key: &str, default: bool) -> bool {
    match def.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s != "false",
        _ => default,
    }
}

/// The capabilities of a field definition of `kind`.
fn capabilities(kind: &str, def: &Map<String, Value>) -> FieldCap {
    let index = flag(def, "index", true);
    let doc_values = flag(def, "doc_values", true);
    let (searchable, aggregatable) = match kind {
        "object" | "nested" => (false, false),
        "text" => (index, flag(def, "fielddata", false)),
        "completion" | "match_only_text" => (true, false),
        "knn_vector" | "dense_vector" => (false, false),
        _ => (index, doc_values),
    };
    let meta = def.get("meta").and_then(Value::as_object).cloned().unwrap_or_default();
    FieldCap { kind: kind.to_string(), searchable, aggregatable, meta }
}

/// Every field of rendered mappings, objects and multi-fields included, by dotted name.
fn collect(def: &Map<String, Value>, prefix: &str, out: &mut BTreeMap<String, FieldCap>) {
    for key in ["properties", "fields"] {
        for (name, child) in def.get(key).and_then(Value::as_object).into_iter().flatten() {
            let Some(child) = child.as_object() else { continue };
            let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
            let kind = child.get("type").and_then(Value::as_str).unwrap_or("object");
            out.insert(full.clone(), capabilities(kind, child));
            collect(child, &full, out);
        }
    }
}

fn illegal(reason: &str) -> EngineError {
    EngineError::IllegalArgument(reason.to_string())
}

impl Engine {
    /// `GET|POST [/{index}]/_field_caps?fields=...`.
    pub fn field_caps(&self, index: Option<&str>, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let mut patterns: Vec<String> = Vec::new();
        let mut include_unmapped = false;
        for (key, value) in &params {
            match key.as_str() {
                "fields" => patterns
                    .extend(param_text(value).split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty())),
                "include_unmapped" => include_unmapped = param_text(value) == "true",
                other => {
                    return Err(illegal(&format!("request [_field_caps] contains unrecognized parameter: [{other}]")))
                }
            }
        }
        let mut index_filter = None;
        if !body.iter().all(u8::is_ascii_whitespace) {
            let body: Value =
                crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?;
            for (key, value) in
                body.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?
            {
                match key.as_str() {
                    "index_filter" => index_filter = Some(value.clone()),
                    "fields" => patterns
                        .extend(value.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string)),
                    other => return Err(EngineError::Parsing(format!("request does not support [{other}]"))),
                }
            }
        }
        if patterns.is_empty() {
            return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no fields specified;".into()));
        }
        let expression = index.filter(|i| !i.is_empty()).unwrap_or("_all");
        let targets = self.resolve(expression, options)?;
        let mut per_index: Vec<(String, BTreeMap<String, FieldCap>)> = Vec::new();
        for target in targets {
            if let Some(filter) = &index_filter {
                if !self.can_match(&target.index, filter)? {
                    continue;
                }
            }
            let handle = self.get(&target.index)?;
            let mappings = render(&handle.mappings_json);
            let mut fields = BTreeMap::new();
            if let Some(def) = mappings.as_object() {
                collect(def, "", &mut fields);
            }
            fields.retain(|name, _| patterns.iter().any(|p| glob(p, name)));
            per_index.push((target.index.clone(), fields));
        }
        let names: BTreeSet<&String> = per_index.iter().flat_map(|(_, f)| f.keys()).collect();
        let mut out = Map::new();
        for name in names {
            // type -> (index, caps) in index order.
            let mut by_type: BTreeMap<&str, Vec<(&str, &FieldCap)>> = BTreeMap::new();
            let mut unmapped = Vec::new();
            for (index, fields) in &per_index {
                match fields.get(name) {
                    Some(cap) => by_type.entry(cap.kind.as_str()).or_default().push((index, cap)),
                    None => unmapped.push(index.as_str()),
                }
            }
            let with_unmapped = include_unmapped && !unmapped.is_empty();
            let list_indices = by_type.len() + usize::from(with_unmapped) > 1;
            let mut types = Map::new();
            for (kind, caps) in &by_type {
                types.insert(kind.to_string(), merge(kind, caps, list_indices));
            }
            if with_unmapped {
                types.insert(
                    "unmapped".into(),
                    json!({"type": "unmapped", "searchable": false, "aggregatable": false, "indices": unmapped}),
                );
            }
            out.insert(name.clone(), Value::Object(types));
        }
        let indices: Vec<&str> = per_index.iter().map(|(i, _)| i.as_str()).collect();
        Ok(json!({ "indices": indices, "fields": out }).to_string())
    }

    /// Whether `filter` may match a document of `index`, as ES's can-match phase decides it:
    /// `match_none` never does; otherwise the filter is counted on the index.
    fn can_match(&self, index: &str, filter: &Value) -> Result<bool> {
        if filter.get("match_none").is_some() {
            return Ok(false);
        }
        let body = json!({ "query": filter }).to_string();
        let reply: Value =
            serde_json::from_str(&crate::search::count(self.get(index)?.as_ref(), body.as_bytes(), None)?)
                .map_err(|e| EngineError::Internal(e.to_string()))?;
        Ok(reply["count"].as_u64().unwrap_or(0) > 0)
    }
}

/// One type's entry over the indices that map the field with it.
fn merge(kind: &str, caps: &[(&str, &FieldCap)], list_indices: bool) -> Value {
    let searchable = caps.iter().all(|(_, c)| c.searchable);
    let aggregatable = caps.iter().all(|(_, c)| c.aggregatable);
    let mut entry = Map::new();
    entry.insert("type".into(), json!(kind));
    entry.insert("searchable".into(), json!(searchable));
    entry.insert("aggregatable".into(), json!(aggregatable));
    if list_indices {
        entry.insert("indices".into(), json!(caps.iter().map(|(i, _)| *i).collect::<Vec<_>>()));
    }
    if !searchable && caps.iter().any(|(_, c)| c.searchable) {
        let non: Vec<&str> = caps.iter().filter(|(_, c)| !c.searchable).map(|(i, _)| *i).collect();
        entry.insert("non_searchable_indices".into(), json!(non));
    }
    if !aggregatable && caps.iter().any(|(_, c)| c.aggregatable) {
        let non: Vec<&str> = caps.iter().filter(|(_, c)| !c.aggregatable).map(|(i, _)| *i).collect();
        entry.insert("non_aggregatable_indices".into(), json!(non));
    }
    let mut meta: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, cap) in caps {
        for (k, v) in &cap.meta {
            meta.entry(k.clone()).or_default().insert(param_text(v));
        }
    }
    if !meta.is_empty() {
        entry.insert("meta".into(), json!(meta));
    }
    Value::Object(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_objects_multi_fields_and_parameters() {
        let mappings = json!({"properties": {
            "title": {"type": "text", "fields": {"raw": {"type": "keyword", "doc_values": false}}},
            "obj": {"properties": {"n": {"type": "long", "index": false}}},
            "nest": {"type": "nested", "properties": {"x": {"type": "keyword"}}}
        }});
        let mut out = BTreeMap::new();
        collect(mappings.as_object().unwrap(), "", &mut out);
        assert_eq!((out["title"].searchable, out["title"].aggregatable), (true, false));
        assert_eq!((out["title.raw"].searchable, out["title.raw"].aggregatable), (true, false));
        assert_eq!(out["obj"].kind, "object");
        assert_eq!((out["obj.n"].searchable, out["obj.n"].aggregatable), (false, true));
        assert_eq!(out["nest"].kind, "nested");
        assert!(out.contains_key("nest.x"));
    }

    #[test]
    fn merges_types_across_indices() {
        let a = FieldCap { kind: "text".into(), searchable: false, aggregatable: false, meta: Map::new() };
        let b = FieldCap { kind: "text".into(), searchable: true, aggregatable: false, meta: Map::new() };
        let merged = merge("text", &[("i1", &a), ("i2", &b)], true);
        assert_eq!(merged["non_searchable_indices"], json!(["i1"]));
        assert_eq!(merged["indices"], json!(["i1", "i2"]));
        assert!(merged.get("non_aggregatable_indices").is_none());
    }
}
