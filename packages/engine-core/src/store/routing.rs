//! `routing` on the document APIs. It is checked against the mapping (`_routing.required`),
//! stored with the document as `_routing`, and shown by reads and hits. An index keeps all of
//! its documents in one store, but a document still belongs to the shard ES would route it to
//! (`shard_for`): a read or write by id addresses one shard, so on an index of several shards
//! it misses a document that lives on another, as in ES.

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::settings::IndexSettings;

/// The shard ES's `OperationRouting` sends `routing` to: Murmur3 (x86, 32-bit, seed 0) of the
/// value's UTF-16 code units (little-endian), floor-modulo the index's routing shards, divided
/// by the routing factor (routing shards per primary).
pub fn shard_for(routing: &str, primaries: u64, routing_shards: u64) -> u64 {
    let mut bytes = Vec::with_capacity(routing.len() * 2);
    for unit in routing.encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let hash = murmur3_x86_32(&bytes, 0) as i32;
    let routing_shards = routing_shards.max(1);
    let factor = (routing_shards / primaries.max(1)).max(1);
    (i64::from(hash).rem_euclid(routing_shards as i64) as u64) / factor
}

/// `index.number_of_routing_shards` when the index was created with it, else ES 7's default
/// for its primaries.
pub fn routing_num_shards(settings: &IndexSettings) -> u64 {
    let given = settings.given.get("number_of_routing_shards").and_then(|v| match v {
        serde_json::Value::String(s) => s.parse::<u64>().ok(),
        other => other.as_u64(),
    });
    given.filter(|n| *n > 0).unwrap_or_else(|| default_routing_num_shards(settings.number_of_shards.max(1)))
}

/// ES 7's default (`MetadataCreateIndexService.calculateNumRoutingShards`): the primaries
/// doubled while they stay within 1,024, so the index can later be split.
pub fn default_routing_num_shards(primaries: u64) -> u64 {
    let log2_shards = 64 - primaries.max(1).saturating_sub(1).leading_zeros() as i64;
    let splits = (10 - log2_shards).max(0);
    primaries.max(1) << splits
}

/// Whether a read or write of document `id` addressed with `requested` routing (the id when
/// none) reaches the copy stored with `stored` routing: always on a one-shard index.
pub fn reaches(settings: &IndexSettings, id: &str, requested: Option<&str>, stored: Option<&str>) -> bool {
    let primaries = settings.number_of_shards;
    if primaries <= 1 {
        return true;
    }
    let (requested, stored) = (requested.unwrap_or(id), stored.unwrap_or(id));
    if requested == stored {
        return true;
    }
    let routing_shards = routing_num_shards(settings);
    shard_for(requested, primaries, routing_shards) == shard_for(stored, primaries, routing_shards)
}

/// Lucene's `StringHelper.murmurhash3_x86_32`, as ES's `Murmur3HashFunction` calls it.
pub(crate) fn murmur3_x86_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    let chunks = data.chunks_exact(4);
    let tail = chunks.remainder();
    for chunk in chunks {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let mut k = 0u32;
    for (i, byte) in tail.iter().enumerate() {
        k ^= u32::from(*byte) << (8 * i);
    }
    if !tail.is_empty() {
        h ^= k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

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

    use super::{default_routing_num_shards, murmur3_x86_32, reaches, routing_num_shards, shard_for};
    use crate::store::settings::IndexSettings;

    #[test]
    fn murmur3_matches_the_reference_vectors() {
        assert_eq!(murmur3_x86_32(b"", 0), 0);
        assert_eq!(murmur3_x86_32(b"hello", 0), 0x248b_fa47);
        assert_eq!(murmur3_x86_32(b"The quick brown fox jumps over the lazy dog", 0), 0x2e4f_f723);
    }

    #[test]
    fn routing_shards_default_as_es_7_and_follow_the_setting() {
        assert_eq!(default_routing_num_shards(1), 1024);
        assert_eq!(default_routing_num_shards(5), 640);
        assert_eq!(default_routing_num_shards(2048), 2048);
        let five = IndexSettings::parse(&json!({"number_of_shards": 5, "number_of_routing_shards": 5})).unwrap();
        assert_eq!(routing_num_shards(&five), 5);
        assert!((0..50).all(|i| shard_for(&format!("r{i}"), 5, 640) < 5));
        assert_eq!(shard_for("foo", 1, 1024), 0);
    }

    /// A document routed with `5` on five shards is not where its id `1` routes, nor `4`, so
    /// reads by id alone or by `4` miss it; on one shard everything reaches everything.
    #[test]
    fn a_routed_document_is_reached_only_through_its_shard() {
        let five = IndexSettings::parse(&json!({"number_of_shards": 5})).unwrap();
        assert!(reaches(&five, "1", Some("5"), Some("5")));
        assert!(!reaches(&five, "1", None, Some("5")));
        assert!(!reaches(&five, "1", Some("4"), Some("5")));
        let one = IndexSettings::default();
        assert!(reaches(&one, "1", None, Some("5")));
    }

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
        let doc = crate::store::get::get_doc(&handle, "1", None).unwrap();
        assert_eq!((doc["_source"]["n"].clone(), doc.get("_routing")), (json!(3), None));
    }
}
