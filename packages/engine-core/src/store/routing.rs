//! `routing` on the document APIs. An index here is one shard, so a routing value picks no
//! shard: it is checked against the mapping (`_routing.required`), stored with the document
//! as `_routing`, and shown by reads and hits, as ES does on a one-shard index.

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;

/// Checks a request's routing for document `id`: present when the mapping requires it, and,
/// for a write that stores it, an index whose schema has the `_routing` field.
pub fn check(handle: &IndexHandle, id: &str, routing: Option<&str>, stores: bool) -> Result<()> {
    if routing.is_none() && handle.mapping.routing_required {
        return Err(EngineError::RoutingMissing { index: handle.name.clone(), id: id.to_string() });
    }
    if stores && routing.is_some() && handle.mapping.routing_field.is_none() {
        return Err(EngineError::IllegalArgument(format!(
            "index [{}] was created by an earlier build without a [_routing] field; reindex it to write with routing",
            handle.name
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::store::index::IndexHandle;
    use crate::store::mapping::Mapping;
    use crate::store::writes;

    /// An index whose schema predates `_routing` (written by an earlier build) opens with every
    /// field where it was, writes and reads as before, and refuses a routed write plainly.
    #[test]
    fn an_index_from_before_the_field_keeps_its_numbers_and_refuses_routed_writes() {
        let mappings = json!({"properties": {"a": {"type": "keyword"}, "n": {"type": "long"}}});
        let new = Mapping::from_mappings_json(&mappings).unwrap();
        let old = Mapping::from_stored_mappings(&mappings, false).unwrap();
        assert!(old.routing_field.is_none() && new.routing_field.is_some());
        // `_routing`, and `_ignored` after it, are the fields such an index lacks.
        assert_eq!(new.schema.num_fields(), old.schema.num_fields() + 2);
        for (name, field) in &old.fields {
            assert_eq!(new.fields[name].field, field.field, "{name} moved");
        }

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("idx");
        drop(IndexHandle::create(&path, "idx", &json!({}), &mappings).unwrap());
        // The tantivy index as an earlier build created it: the same schema less `_routing`.
        std::fs::remove_dir_all(path.join("tantivy")).unwrap();
        std::fs::create_dir_all(path.join("tantivy")).unwrap();
        tantivy::Index::create_in_dir(path.join("tantivy"), old.schema.clone()).unwrap();
        let handle = IndexHandle::open(&path).unwrap();
        assert!(handle.mapping.routing_field.is_none());
        let cond = crate::store::versioning::Conditions::default();
        let refused = writes::index_doc(&handle, Some("1"), cond.clone(), Some("r".into()), br#"{"a":"x"}"#, true);
        assert!(refused.unwrap_err().to_string().contains("reindex"));
        let (_, status) = writes::index_doc(&handle, Some("1"), cond, None, br#"{"a":"x","n":3}"#, true).unwrap();
        assert_eq!(status, 201);
        let doc = crate::store::get::get_doc(&handle, "1").unwrap();
        assert_eq!((doc["_source"]["n"].clone(), doc.get("_routing")), (json!(3), None));
    }
}
