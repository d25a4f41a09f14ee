//! The hidden documents of one source document's `nested` objects, in block-join order.
//!
//! `nested` objects are stored as Lucene's block join stores them: each object of a document is
//! a hidden document of its own, written just before its parent in one indexing batch, so a
//! segment holds every document's objects directly before it (post-order: an object's own
//! nested objects come before the object). Merges keep that order. A segment's walks between a
//! document and its objects are `nested_levels`; the `nested` query is `query::lower::nested`,
//! and top-level queries see root documents only (`query::root_only`).

use serde_json::Value;
use tantivy::TantivyDocument;

use crate::error::{EngineError, Result};
use crate::json_source::lookup;
use crate::store::document::add_field;
use crate::store::mapping::{Mapping, NestedFields};

/// Every nested object of `source` as a document, each object's own nested objects before
/// it; the root document is written after all of them. Empty without nested mappings. More
/// than `limit` objects (`index.mapping.nested_objects.limit`) is ES's parse error.
pub fn nested_documents(mapping: &Mapping, id: &str, source: &Value, limit: usize) -> Result<Vec<TantivyDocument>> {
    let Some(nested) = &mapping.nested else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    add_objects(mapping, nested, None, source, id, &mut out, limit)?;
    Ok(out)
}

fn add_objects(
    mapping: &Mapping,
    nested: &NestedFields,
    scope: Option<usize>,
    object: &Value,
    id: &str,
    out: &mut Vec<TantivyDocument>,
    limit: usize,
) -> Result<()> {
    for (at, path) in nested.paths.iter().enumerate().filter(|(_, p)| p.parent == scope) {
        let relative = match scope {
            Some(outer) => &path.path[nested.paths[outer].path.len() + 1..],
            None => path.path.as_str(),
        };
        let Some(value) = lookup(object, relative) else { continue };
        let mut items = Vec::new();
        flatten(value, &mut items);
        for item in items {
            if !item.is_object() {
                return Err(EngineError::DocumentParsing(format!(
                    "object mapping for [{}] tried to parse field [{}] as object, but found a concrete value",
                    path.path, path.path
                )));
            }
            add_objects(mapping, nested, Some(at), item, id, out, limit)?;
            let mut doc = TantivyDocument::default();
            doc.add_u64(nested.path_field, at as u64);
            doc.add_text(nested.root_field, id);
            for fm in mapping.fields.values().filter(|fm| fm.nested == Some(at)) {
                add_field(&mut doc, mapping, fm, item, id)?;
            }
            out.push(doc);
            if out.len() > limit {
                return Err(EngineError::DocumentParsing(format!(
                    "The number of nested documents has exceeded the allowed limit of [{limit}]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting."
                )));
            }
        }
    }
    Ok(())
}

/// An array of objects (arrays inside it flattened, nulls skipped), or the one object.
fn flatten<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Null => {}
        Value::Array(items) => items.iter().for_each(|item| flatten(item, out)),
        other => out.push(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tantivy::schema::Value as _;

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(&json!({"properties": {
            "title": {"type": "keyword"},
            "comments": {"type": "nested", "properties": {
                "author": {"type": "keyword"},
                "stars": {"type": "integer"},
                "replies": {"type": "nested", "properties": {"by": {"type": "keyword"}}}
            }}
        }}))
        .unwrap()
    }

    fn path_of(m: &Mapping, doc: &TantivyDocument) -> u64 {
        doc.get_first(m.nested.as_ref().unwrap().path_field).and_then(|v| v.as_u64()).unwrap()
    }

    #[test]
    fn objects_come_before_their_parents_in_post_order() {
        let m = mapping();
        let source = json!({"title": "t", "comments": [
            {"author": "a", "stars": 3, "replies": [{"by": "x"}, {"by": "y"}]},
            {"author": "b", "replies": {"by": "z"}}
        ]});
        let docs = nested_documents(&m, "1", &source, 10_000).unwrap();
        let paths: Vec<u64> = docs.iter().map(|d| path_of(&m, d)).collect();
        // replies x, y, comment a, reply z, comment b
        assert_eq!(paths, vec![1, 1, 0, 1, 0]);
        let author = m.get("comments.author").unwrap().field;
        assert_eq!(docs[2].get_first(author).and_then(|v| v.as_str()), Some("a"));
        assert_eq!(docs[4].get_first(author).and_then(|v| v.as_str()), Some("b"));
        let by = m.get("comments.replies.by").unwrap().field;
        assert_eq!(docs[3].get_first(by).and_then(|v| v.as_str()), Some("z"));
        // The root document does not carry the objects' fields.
        let root = crate::store::document::build_document(&m, "1", &source, b"{}").unwrap();
        assert!(root.get_first(author).is_none());
    }

    #[test]
    fn concrete_values_and_documents_without_objects() {
        let m = mapping();
        assert!(nested_documents(&m, "1", &json!({"title": "t"}), 10_000).unwrap().is_empty());
        assert!(nested_documents(&m, "1", &json!({"comments": null}), 10_000).unwrap().is_empty());
        let err = nested_documents(&m, "1", &json!({"comments": ["x"]}), 10_000).unwrap_err();
        assert!(err.to_string().contains("tried to parse field [comments] as object"));
        let plain = Mapping::from_mappings_json(&json!({"properties": {"a": {"type": "keyword"}}})).unwrap();
        assert!(plain.nested.is_none());
    }

    #[test]
    fn more_objects_than_the_index_limit_are_refused() {
        let m = mapping();
        let two = json!({"comments": [{"author": "a"}, {"author": "b"}]});
        assert_eq!(nested_documents(&m, "1", &two, 2).unwrap().len(), 2);
        let three = json!({"comments": [{"author": "a"}, {"author": "b"}, {"author": "c"}]});
        let err = nested_documents(&m, "1", &three, 2).unwrap_err().to_string();
        assert!(err.contains("exceeded the allowed limit of [2]"), "{err}");
    }
}
