//! ES's `_ignored` metadata field: the names of the fields whose malformed values a document's
//! indexing skipped under `ignore_malformed` (`store/document.rs` records them). It is indexed
//! (`term`, `terms` and `exists` find documents by it) and stored, and shown with each hit
//! and each document read by id, as ES shows it.

use tantivy::schema::Value as _;
use tantivy::TantivyDocument;

use crate::store::index::push_json_str;
use crate::store::mapping::Mapping;

/// Appends `,"_ignored":[...]` for a stored document that lists ignored fields; nothing otherwise.
pub fn push_ignored(mapping: &Mapping, doc: &TantivyDocument, out: &mut String) {
    let Some(field) = mapping.ignored_field else { return };
    let mut names = doc.get_all(field).filter_map(|v| v.as_str()).peekable();
    if names.peek().is_none() {
        return;
    }
    out.push_str(r#","_ignored":["#);
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_str(out, name);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn malformed_values_are_skipped_and_listed() {
        let mapping = Mapping::from_mappings_json(&json!({"properties": {
            "d": {"type": "date", "ignore_malformed": true},
            "n": {"type": "integer", "ignore_malformed": true},
            "k": {"type": "keyword"}
        }}))
        .unwrap();
        let source = json!({"d": "bar", "n": [1, "x", "y"], "k": "ok"});
        let doc = crate::store::document::build_document(&mapping, "1", &source, b"{}").unwrap();
        let mut out = String::new();
        push_ignored(&mapping, &doc, &mut out);
        assert_eq!(out, r#","_ignored":["d","n"]"#);
        assert_eq!(doc.get_all(mapping.get("n").unwrap().field).count(), 1);
        let clean = crate::store::document::build_document(&mapping, "2", &json!({"d": "2020-01-01"}), b"{}").unwrap();
        let mut none = String::new();
        push_ignored(&mapping, &clean, &mut none);
        assert!(none.is_empty());
        // Without `ignore_malformed` the document is refused, as before.
        let strict = Mapping::from_mappings_json(&json!({"properties": {"n": {"type": "integer"}}})).unwrap();
        assert!(crate::store::document::build_document(&strict, "3", &json!({"n": "x"}), b"{}").is_err());
    }
}
