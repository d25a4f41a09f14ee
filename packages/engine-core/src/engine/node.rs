//! The node's identity: its id and its cluster's UUID, made once when the data directory is
//! first opened and kept in `node.json` there, so both stay the same across restarts (as ES
//! keeps them in its data path's node state).

use std::path::Path;

use serde_json::{json, Value};

use crate::error::{EngineError, Result};
use crate::store::ids::random_uuid;
use crate::store::index::write_atomically;

const NODE_FILE: &str = "node.json";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeIdentity {
    pub node_id: String,
    pub cluster_uuid: String,
}

impl NodeIdentity {
    /// The identity kept in `data_dir`, made and kept there first if there is none.
    pub fn load_or_create(data_dir: &Path) -> Result<NodeIdentity> {
        let path = data_dir.join(NODE_FILE);
        if let Ok(bytes) = std::fs::read(&path) {
            let stored: Value = serde_json::from_slice(&bytes)
                .map_err(|e| EngineError::Internal(format!("corrupt {NODE_FILE} in {}: {e}", data_dir.display())))?;
            if let (Some(node_id), Some(cluster_uuid)) = (stored["node_id"].as_str(), stored["cluster_uuid"].as_str()) {
                return Ok(NodeIdentity { node_id: node_id.to_string(), cluster_uuid: cluster_uuid.to_string() });
            }
        }
        let identity = NodeIdentity { node_id: random_uuid(), cluster_uuid: random_uuid() };
        let stored = json!({ "node_id": identity.node_id, "cluster_uuid": identity.cluster_uuid });
        write_atomically(&path, stored.to_string().as_bytes())?;
        Ok(identity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_survives_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let first = NodeIdentity::load_or_create(dir.path()).unwrap();
        assert_eq!(first.node_id.len(), 22);
        assert_ne!(first.node_id, first.cluster_uuid);
        assert_eq!(NodeIdentity::load_or_create(dir.path()).unwrap(), first);
    }
}
