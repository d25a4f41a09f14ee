//! `GET /_cluster/state[/{metric}[/{index}]]`: the one-node cluster's state in ES's shape:
//! `metadata` (each index's settings, mappings, aliases), `routing_table` and `routing_nodes`
//! (each index's shard copies, `stats/layout.rs`), `blocks` (from the indices' `blocks.*`
//! settings), `master_node`, and `version`/`state_uuid`, which move with every change of the
//! indices' metadata. The `nodes` section is the service's (it knows the node's addresses).

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;

use super::super::resolve::ResolveOptions;
use super::super::stats::layout::{ShardCopy, ShardLayout};
use super::super::Engine;

/// The metrics `_cluster/state` takes; `nodes` is rendered by the service.
pub const STATE_METRICS: [&str; 7] =
    ["version", "master_node", "blocks", "nodes", "metadata", "routing_table", "routing_nodes"];

/// ES's index blocks: the setting, the block's id, its description and the levels it blocks.
const BLOCKS: [(&str, u32, &str, &[&str]); 5] = [
    ("blocks.read_only", 5, "index read-only (api)", &["write", "metadata_write"]),
    ("blocks.read", 7, "index read (api)", &["read"]),
    ("blocks.write", 8, "index write (api)", &["write"]),
    ("blocks.metadata", 9, "index metadata (api)", &["metadata_read", "metadata_write"]),
    ("blocks.read_only_allow_delete", 12, "index read-only / allow delete (api)", &["metadata_write", "write"]),
];

impl Engine {
    /// The cluster state's `version`: one more for every metadata change since the engine
    /// opened.
    pub fn state_version(&self) -> u64 {
        use std::sync::atomic::Ordering::Relaxed;
        1 + self.shared.changes.load(Relaxed) + self.aliases.changes.load(Relaxed)
    }

    /// The state's sections named in `metrics` (every one for an empty list), for the indices
    /// `expression` names (all by default).
    pub fn cluster_state(&self, metrics: &[String], expression: &str, params: &Map<String, Value>) -> Result<String> {
        let wanted = |m: &str| metrics.is_empty() || metrics.iter().any(|w| w == m || w == "_all");
        let mut params = params.clone();
        // ES's default for the state (`lenientExpandOpen`): lenient about missing names, and a
        // closed index is metadata like any other.
        let unavailable_given = params.contains_key("ignore_unavailable");
        let mut options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
        if !unavailable_given {
            options.ignore_unavailable = true;
        }
        let flat_settings = matches!(params.get("flat_settings").and_then(Value::as_str), Some("true") | Some(""));
        let expression = if expression.is_empty() { "_all" } else { expression };
        let mut handles = Vec::new();
        for target in self.resolve(expression, options)? {
            handles.push(self.get_meta(&target.index)?);
        }
        let version = self.state_version();
        let node_id = &self.identity.node_id;
        let mut out = Map::new();
        out.insert("cluster_name".into(), json!(super::CLUSTER_NAME));
        out.insert("cluster_uuid".into(), json!(self.identity.cluster_uuid));
        if wanted("version") {
            out.insert("version".into(), json!(version));
            out.insert("state_uuid".into(), json!(format!("{}-{version}", self.identity.cluster_uuid)));
        }
        if wanted("master_node") {
            out.insert("master_node".into(), json!(node_id));
        }
        if wanted("blocks") {
            out.insert("blocks".into(), blocks(&handles));
        }
        if wanted("metadata") {
            let indices: Map<String, Value> =
                handles.iter().map(|h| (h.name.clone(), self.index_metadata(h, version, flat_settings))).collect();
            out.insert(
                "metadata".into(),
                json!({
                    "cluster_uuid": self.identity.cluster_uuid,
                    "cluster_uuid_committed": true,
                    "cluster_coordination": {
                        "term": 1,
                        "last_committed_config": [node_id],
                        "last_accepted_config": [node_id],
                        "voting_config_exclusions": [],
                    },
                    "templates": {},
                    "indices": indices,
                    "index-graveyard": { "tombstones": [] },
                }),
            );
        }
        if wanted("routing_table") {
            let indices: Map<String, Value> = handles
                .iter()
                .map(|h| {
                    let layout = ShardLayout::of(&h.settings);
                    let mut shards = Map::new();
                    for copy in layout.copies() {
                        let list = shards.entry(copy.shard.to_string()).or_insert_with(|| json!([]));
                        if let Some(list) = list.as_array_mut() {
                            list.push(routing_entry(h, copy, node_id));
                        }
                    }
                    (h.name.clone(), json!({ "shards": shards }))
                })
                .collect();
            out.insert("routing_table".into(), json!({ "indices": indices }));
        }
        if wanted("routing_nodes") {
            let (mut started, mut unassigned) = (Vec::new(), Vec::new());
            for h in &handles {
                for copy in ShardLayout::of(&h.settings).copies() {
                    let entry = routing_entry(h, copy, node_id);
                    if copy.assigned {
                        started.push(entry);
                    } else {
                        unassigned.push(entry);
                    }
                }
            }
            out.insert(
                "routing_nodes".into(),
                json!({ "unassigned": unassigned, "nodes": { node_id.clone(): started } }),
            );
        }
        Ok(Value::Object(out).to_string())
    }

    fn index_metadata(&self, h: &IndexHandle, version: u64, flat_settings: bool) -> Value {
        let layout = ShardLayout::of(&h.settings);
        let settings = if flat_settings {
            Value::Object(h.settings.flat(&h.uuid, &h.name, h.creation_date))
        } else {
            h.settings.to_json(&h.uuid, &h.name, h.creation_date)
        };
        let mut mappings = crate::store::mapping_update::render(&h.mappings_json);
        crate::knn::render_mappings(&mut mappings, &h.mapping.vectors);
        let mappings =
            if mappings.as_object().is_some_and(Map::is_empty) { json!({}) } else { json!({ "_doc": mappings }) };
        let aliases: Vec<String> = self.aliases.of_index(&h.name).into_keys().collect();
        let shards = 0..layout.primaries;
        json!({
            "version": version,
            "mapping_version": 1,
            "settings_version": 1,
            "aliases_version": 1,
            "routing_num_shards": crate::store::routing::routing_num_shards(&h.settings),
            "state": h.state_name(),
            "settings": settings,
            "mappings": mappings,
            "aliases": aliases,
            "primary_terms": shards.clone().map(|n| (n.to_string(), json!(1))).collect::<Map<String, Value>>(),
            "in_sync_allocations": shards.map(|n| (n.to_string(), json!([allocation_id(h, n)]))).collect::<Map<String, Value>>(),
            "rollover_info": {},
            "system": false,
        })
    }
}

/// The allocation id of a primary: fixed for the index and shard (one copy, never moved).
fn allocation_id(h: &IndexHandle, shard: u64) -> String {
    format!("{}_{shard}", h.uuid)
}

fn routing_entry(h: &IndexHandle, copy: ShardCopy, node_id: &str) -> Value {
    if copy.assigned {
        return json!({
            "state": "STARTED",
            "primary": copy.primary,
            "node": node_id,
            "relocating_node": null,
            "shard": copy.shard,
            "index": h.name,
            "allocation_id": { "id": allocation_id(h, copy.shard) },
        });
    }
    json!({
        "state": "UNASSIGNED",
        "primary": copy.primary,
        "node": null,
        "relocating_node": null,
        "shard": copy.shard,
        "index": h.name,
        "recovery_source": { "type": "PEER" },
        "unassigned_info": {
            "reason": "INDEX_CREATED",
            "at": crate::date::format_millis(h.creation_date),
            "delayed": false,
            "allocation_status": "no_attempt",
        },
    })
}

/// The indices' blocks, by index and block id (`{}` when none is set).
fn blocks(handles: &[std::sync::Arc<IndexHandle>]) -> Value {
    let mut indices = Map::new();
    for h in handles {
        let mut set = Map::new();
        for (setting, id, description, levels) in BLOCKS {
            let on = match h.settings.given.get(setting) {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(s)) => s == "true",
                _ => false,
            };
            if on {
                set.insert(id.to_string(), json!({ "description": description, "retryable": false, "levels": levels }));
            }
        }
        if !set.is_empty() {
            indices.insert(h.name.clone(), Value::Object(set));
        }
    }
    if indices.is_empty() {
        json!({})
    } else {
        json!({ "indices": indices })
    }
}

/// A metric list from the URL, or ES's 400 for an unknown name.
pub fn parse_metrics(list: Option<&str>) -> Result<Vec<String>> {
    let Some(list) = list else { return Ok(Vec::new()) };
    let names: Vec<String> = list.split(',').map(|m| m.trim().to_string()).filter(|m| !m.is_empty()).collect();
    if let Some(bad) = names.iter().find(|m| *m != "_all" && !STATE_METRICS.contains(&m.as_str())) {
        return Err(EngineError::IllegalArgument(format!("Unknown metric [{bad}]")));
    }
    Ok(names)
}
