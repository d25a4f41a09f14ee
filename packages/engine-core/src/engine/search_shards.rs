//! `GET|POST [/{index}]/_search_shards`: the shard copies a search of the expression would
//! ask, grouped by shard, with the aliases each index was reached through and their combined
//! filter (none when the index was named itself or through an unfiltered alias). With
//! `routing`, only the shards ES's routing formula picks for the values.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use crate::error::Result;
use crate::store::versioning::param_text;

use super::resolve::ResolveOptions;
use super::stats::layout::ShardLayout;
use super::Engine;
use crate::wildcard::glob;

impl Engine {
    pub fn search_shards(&self, expression: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let routing: Option<Vec<String>> =
            params.get("routing").map(|v| param_text(v).split(',').map(|s| s.trim().to_string()).collect());
        let expression = if expression.is_empty() { "_all" } else { expression };
        let targets = self.resolve(expression, options)?;
        let parts: Vec<&str> = expression.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        let named = |name: &str| parts.iter().any(|p| *p == "_all" || glob(p, name));
        let aliases = self.aliases.snapshot();
        let mut indices = Map::new();
        let mut groups = Vec::new();
        for target in &targets {
            let handle = self.get(&target.index)?;
            let mut through = BTreeSet::new();
            let mut filters = Vec::new();
            let mut unfiltered = named(&target.index);
            for (alias, members) in &aliases {
                let Some(def) = members.get(&target.index) else { continue };
                if !parts.iter().any(|p| glob(p, alias)) {
                    continue;
                }
                through.insert(alias.clone());
                match &def.filter {
                    Some(f) => filters.push(normalize(f)),
                    None => unfiltered = true,
                }
            }
            let mut entry = Map::new();
            if !through.is_empty() {
                entry.insert("aliases".into(), json!(through));
            }
            if !unfiltered && !filters.is_empty() {
                let filter = if filters.len() == 1 {
                    filters.remove(0)
                } else {
                    json!({ "bool": { "should": filters, "adjust_pure_negative": true, "boost": 1.0 } })
                };
                entry.insert("filter".into(), filter);
            }
            indices.insert(target.index.clone(), Value::Object(entry));
            let layout = ShardLayout::of(&handle.settings);
            let routing_shards = crate::store::routing::routing_num_shards(&handle.settings);
            let picked: Option<BTreeSet<u64>> = routing.as_ref().map(|values| {
                values.iter().map(|r| crate::store::routing::shard_for(r, layout.primaries, routing_shards)).collect()
            });
            for copy in layout.copies() {
                if picked.as_ref().is_some_and(|p| !p.contains(&copy.shard)) {
                    continue;
                }
                if copy.primary {
                    groups.push(Vec::new());
                }
                let entry = if copy.assigned {
                    json!({
                        "state": "STARTED", "primary": true, "node": self.identity.node_id, "relocating_node": null,
                        "shard": copy.shard, "index": target.index,
                        "allocation_id": { "id": format!("{}_{}", handle.uuid, copy.shard) },
                    })
                } else {
                    json!({
                        "state": "UNASSIGNED", "primary": false, "node": null, "relocating_node": null,
                        "shard": copy.shard, "index": target.index,
                    })
                };
                if let Some(group) = groups.last_mut() {
                    group.push(entry);
                }
            }
        }
        Ok(json!({ "nodes": {}, "indices": indices, "shards": groups }).to_string())
    }
}

/// A filter as ES prints a parsed query: `term` with its `value` and `boost`, `bool` with its
/// clause lists, `adjust_pure_negative` and `boost`, `match_all` with its `boost`; other
/// queries as they were given.
fn normalize(query: &Value) -> Value {
    let Some((kind, body)) = query.as_object().and_then(|o| o.iter().next()) else { return query.clone() };
    match kind.as_str() {
        "term" => {
            let Some((field, value)) = body.as_object().and_then(|o| o.iter().next()) else { return query.clone() };
            let mut inner = match value {
                Value::Object(o) => o.clone(),
                scalar => Map::from_iter([("value".to_string(), scalar.clone())]),
            };
            inner.entry("boost").or_insert(json!(1.0));
            json!({ "term": { field.clone(): inner } })
        }
        "bool" => {
            let Some(clauses) = body.as_object() else { return query.clone() };
            let mut out = Map::new();
            for (key, value) in clauses {
                let normalized = match (key.as_str(), value) {
                    ("must" | "filter" | "should" | "must_not", Value::Array(list)) => {
                        Value::Array(list.iter().map(normalize).collect())
                    }
                    ("must" | "filter" | "should" | "must_not", one) => json!([normalize(one)]),
                    (_, other) => other.clone(),
                };
                out.insert(key.clone(), normalized);
            }
            out.entry("adjust_pure_negative").or_insert(json!(true));
            out.entry("boost").or_insert(json!(1.0));
            json!({ "bool": out })
        }
        "match_all" => {
            let mut inner = body.as_object().cloned().unwrap_or_default();
            inner.entry("boost").or_insert(json!(1.0));
            json!({ "match_all": inner })
        }
        _ => query.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_print_as_parsed_queries() {
        let term = normalize(&json!({ "term": { "field": "value1" } }));
        assert_eq!(term, json!({ "term": { "field": { "value": "value1", "boost": 1.0 } } }));
        let b = normalize(&json!({ "bool": { "must": { "term": { "a": 1 } } } }));
        assert_eq!(b["bool"]["must"][0]["term"]["a"]["value"], json!(1));
        assert_eq!(b["bool"]["adjust_pure_negative"], json!(true));
    }
}
