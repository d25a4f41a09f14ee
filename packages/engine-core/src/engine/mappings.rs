//! `PUT /{index}/_mapping` and `GET /{index}/_mapping/field/{fields}`: mapping updates through the
//! same path dynamic mapping takes (`Indices::update_mapping`), and single-field lookups.

use serde_json::{json, Value};

use crate::error::{EngineError, Result};
use crate::store::bulk::Indices;

use super::resolve::ResolveOptions;
use super::Engine;

/// The definition at dotted `path` in rendered mappings (`properties` and multi-field `fields`).
pub(super) fn definition<'a>(mappings: &'a Value, path: &str) -> Option<&'a Value> {
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
pub(super) fn leaf_names(def: &Value, prefix: &str, out: &mut Vec<String>) {
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
        assert!(crate::wildcard::glob("t*", "title") && !crate::wildcard::glob("t*", "user.n"));
    }
}
