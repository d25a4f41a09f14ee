//! `PUT /{index}/_mapping` and `GET /{index}/_mapping/field/{fields}`: mapping updates through the
//! same path dynamic mapping takes (`Indices::update_mapping`), and single-field lookups.

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::bulk::Indices;
use crate::store::mapping_update::render;
use crate::wildcard::glob;

use super::resolve::ResolveOptions;
use super::Engine;

/// The definition at dotted `path` in rendered mappings (`properties` and multi-field `fields`).
fn definition<'a>(mappings: &'a Value, path: &str) -> Option<&'a Value> {
    let mut at = mappings;
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        let next =
            at.get("properties").and_then(|p| p.get(part)).or_else(|| at.get("fields").and_then(|f| f.get(part)))?;
        if parts.peek().is_none() {
            return Some(next);
        }
        at = next;
    }
    None
}

/// Every leaf field's dotted name in rendered mappings (multi-fields included).
fn leaf_names(def: &Value, prefix: &str, out: &mut Vec<String>) {
    for key in ["properties", "fields"] {
        for (name, child) in def.get(key).and_then(Value::as_object).into_iter().flatten() {
            let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
            if child.get("type").is_some() || child.get("properties").is_none() {
                out.push(full.clone());
            }
            leaf_names(child, &full, out);
        }
    }
}

impl Engine {
    /// `PUT|POST /{index}/_mapping`: adds fields and changes dynamic options; a field's type
    /// cannot change (ES's 400).
    pub fn put_mapping(&self, name: &str, body: &[u8]) -> Result<String> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(EngineError::RequestBodyRequired);
        }
        let update: Value = crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?;
        if !update.is_object() {
            return Err(EngineError::MapperParsing("Failed to parse mapping: mappings must be an object".into()));
        }
        let options = ResolveOptions { allow_no_indices: false, ..ResolveOptions::default() };
        let targets = self.resolve(name, options)?;
        // Every index must accept the change before any takes it.
        for target in &targets {
            self.get(&target.index)?.mapping.extend(&update)?;
        }
        for target in &targets {
            self.update_mapping(&target.index, &update)?;
        }
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `GET /{index}/_mapping/field/{fields}`: each matching field's full name and definition.
    pub fn get_field_mapping(&self, name: &str, fields: &str) -> Result<String> {
        let handle = self.get(name)?;
        let mappings = render(&handle.mappings_json);
        let mut names = Vec::new();
        leaf_names(&mappings, "", &mut names);
        let mut out = Map::new();
        for pattern in fields.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            for full in names.iter().filter(|n| glob(pattern, n)) {
                if let Some(def) = definition(&mappings, full) {
                    let leaf = full.rsplit('.').next().unwrap_or(full);
                    out.insert(full.clone(), json!({ "full_name": full, "mapping": { leaf: def } }));
                }
            }
        }
        Ok(json!({ name: { "mappings": out } }).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fields_and_subfields() {
        let m = json!({"properties": {"title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
            "user": {"properties": {"n": {"type": "long"}}}}});
        let mut names = Vec::new();
        leaf_names(&m, "", &mut names);
        assert_eq!(names, vec!["title", "title.raw", "user.n"]);
        assert_eq!(definition(&m, "title.raw"), Some(&json!({"type": "keyword"})));
        assert!(glob("t*", "title") && !glob("t*", "user.n"));
    }
}
