//! The parts of `GET /_cluster/state` this slice of the engine keeps: index blocks (`blocks`),
//! each index's state, settings, mappings and aliases (`metadata.indices`, resolved as ES
//! resolves the state's index expression) and the legacy templates (`metadata.templates`).
//! The route that assembles the whole state calls these.

use serde_json::{json, Map, Value};

use crate::error::Result;

use super::resolve::ResolveOptions;
use super::Engine;

impl Engine {
    /// `blocks` of the cluster state: `{"indices": {name: {id: block}}}`, or `{}` when no
    /// index has a block.
    pub fn cluster_state_blocks(&self) -> Value {
        let indices = self.shared.indices.read().unwrap_or_else(|p| p.into_inner());
        let mut blocked = Map::new();
        for (name, handle) in indices.iter() {
            let mut blocks = handle.settings.blocks.to_state_json();
            if handle.closed {
                blocks["4"] = json!({ "description": "index closed", "retryable": false, "levels": ["read", "write"] });
            }
            if blocks.as_object().is_some_and(|b| !b.is_empty()) {
                blocked.insert(name.clone(), blocks);
            }
        }
        if blocked.is_empty() {
            return json!({});
        }
        json!({ "indices": blocked })
    }

    /// `metadata.indices` of the cluster state for `expression` (every index when `None`), with
    /// ES's state-request defaults: missing names are skipped, wildcards reach open indices.
    pub fn cluster_state_indices(&self, expression: Option<&str>, params: &Map<String, Value>) -> Result<Value> {
        let mut params = params.clone();
        let base = ResolveOptions { ignore_unavailable: true, ..ResolveOptions::metadata() };
        let options = ResolveOptions::take_over(&mut params, base)?;
        let names: Vec<String> = match expression {
            None => self.index_infos().into_iter().map(|i| i.name).collect(),
            Some(expr) => self.resolve(expr, options)?.into_iter().map(|t| t.index).collect(),
        };
        let mut out = Map::new();
        for name in names {
            let h = self.get_meta(&name)?;
            let aliases: Vec<String> = self.aliases.of_index(&name).into_keys().collect();
            out.insert(
                name,
                json!({
                    "state": h.state_name(),
                    "settings": h.settings.to_json(&h.uuid, &h.name, h.creation_date),
                    "mappings": { "_doc": crate::store::mapping_update::render(&h.mappings_json) },
                    "aliases": aliases,
                }),
            );
        }
        Ok(Value::Object(out))
    }

    /// `metadata.templates` of the cluster state: the legacy templates by name.
    pub fn cluster_state_templates(&self) -> Value {
        let (body, _) = self.get_legacy_templates(None, &Map::new()).unwrap_or_else(|_| ("{}".into(), 200));
        serde_json::from_str(&body).unwrap_or_else(|_| json!({}))
    }
}
