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
            let picked: Option<BTreeSet<u64>> =
                routing.as_ref().map(|values| values.iter().map(|r| shard_for_routing(r, layout.primaries)).collect());
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

/// The shard ES routes `routing` to among `primaries`: Murmur3 (x86, 32-bit, seed 0) of the
/// value's UTF-16 code units, modulo the index's routing shards (ES 7's default: the primaries
/// doubled up to 1,024), divided back down to a primary.
fn shard_for_routing(routing: &str, primaries: u64) -> u64 {
    let mut bytes = Vec::with_capacity(routing.len() * 2);
    for unit in routing.encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let hash = murmur3_x86_32(&bytes, 0) as i32;
    let routing_shards = routing_num_shards(primaries);
    let factor = routing_shards / primaries.max(1);
    (i64::from(hash).rem_euclid(routing_shards as i64) as u64) / factor.max(1)
}

fn routing_num_shards(primaries: u64) -> u64 {
    if primaries <= 1 {
        return 1024.max(primaries);
    }
    let log2_shards = 64 - (primaries - 1).leading_zeros() as i64;
    let splits = (10 - log2_shards).max(0);
    primaries << splits
}

fn murmur3_x86_32(data: &[u8], seed: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur3_matches_the_reference_vectors() {
        assert_eq!(murmur3_x86_32(b"", 0), 0);
        assert_eq!(murmur3_x86_32(b"hello", 0), 0x248b_fa47);
        assert_eq!(murmur3_x86_32(b"The quick brown fox jumps over the lazy dog", 0), 0x2e4f_f723);
    }

    #[test]
    fn routing_stays_within_the_primaries() {
        assert_eq!(shard_for_routing("foo", 1), 0);
        assert!((0..50).all(|i| shard_for_routing(&format!("r{i}"), 5) < 5));
        assert_eq!(routing_num_shards(5), 640);
    }

    #[test]
    fn filters_print_as_parsed_queries() {
        let term = normalize(&json!({ "term": { "field": "value1" } }));
        assert_eq!(term, json!({ "term": { "field": { "value": "value1", "boost": 1.0 } } }));
        let b = normalize(&json!({ "bool": { "must": { "term": { "a": 1 } } } }));
        assert_eq!(b["bool"]["must"][0]["term"]["a"]["value"], json!(1));
        assert_eq!(b["bool"]["adjust_pure_negative"], json!(true));
    }
}
