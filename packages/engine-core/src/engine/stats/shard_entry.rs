//! One shard copy's entry in `level=shards` statistics: where it is routed, its sections, its
//! last commit and its sequence numbers, in ES's shape.

use serde_json::{json, Map, Value};

use crate::error::Result;
use crate::store::index::IndexHandle;

use super::super::Engine;

/// The entry of primary `shard`; shard 0 holds the store (`layout.rs`), the others are empty.
pub fn entry(engine: &Engine, handle: &IndexHandle, shard: u64, sections: Map<String, Value>) -> Result<Value> {
    let mut out = Map::new();
    out.insert(
        "routing".into(),
        json!({ "state": "STARTED", "primary": true, "node": engine.identity.node_id, "relocating_node": null }),
    );
    out.extend(sections);
    let (generation, committed_docs, next_seq_no) = if shard == 0 { handle.commit_point()? } else { (0, 0, 0) };
    // Every write up to the last sequence number is applied and acknowledged on the one copy:
    // its local and global checkpoints are the maximum itself.
    let max_seq_no = next_seq_no as i64 - 1;
    out.insert(
        "commit".into(),
        json!({
            "id": format!("{}-{shard}-{generation}", handle.uuid),
            "generation": generation,
            "user_data": {
                "max_seq_no": max_seq_no.to_string(),
                "local_checkpoint": max_seq_no.to_string(),
                "history_uuid": handle.uuid,
            },
            "num_docs": committed_docs,
        }),
    );
    out.insert(
        "seq_no".into(),
        json!({ "max_seq_no": max_seq_no, "local_checkpoint": max_seq_no, "global_checkpoint": max_seq_no }),
    );
    out.insert("retention_leases".into(), json!({ "primary_term": 1, "version": 0, "leases": [] }));
    let path = handle.dir().display().to_string();
    out.insert("shard_path".into(), json!({ "state_path": path, "data_path": path, "is_custom_data_path": false }));
    Ok(Value::Object(out))
}
