//! `collapse` over several indices: each index answers with its own best hit per group (its
//! first `from + size` groups, enough for the merged page: a group among the first n overall is
//! among the first n of the index holding its best hit), the merged hits keep the first hit of
//! each group key, and each group's `inner_hits` are searched again over every index (the
//! query within the group), as ES's expand phase does after the query phase.

use serde_json::{json, Map, Value};

use super::resolve::Target;
use super::Engine;
use crate::error::{EngineError, Result};

/// The collapse field of a request body, when it collapses.
pub(super) fn field(obj: &Map<String, Value>) -> Option<&str> {
    obj.get("collapse")?.get("field")?.as_str()
}

/// The per-index body: the collapse without its inner hits (searched once over all indices).
pub(super) fn per_index(obj: &mut Map<String, Value>) {
    if let Some(Value::Object(collapse)) = obj.get_mut("collapse") {
        collapse.remove("inner_hits");
    }
}

/// The group key of a merged hit: its collapse field's value, `null` when it has none.
fn key(hit: &Value, field: &str) -> Value {
    hit["fields"][field].get(0).cloned().unwrap_or(Value::Null)
}

/// The sorted hits with only the first of each group.
pub(super) fn first_of_each_group(hits: Vec<Value>, field: &str) -> Vec<Value> {
    let mut seen: Vec<Value> = Vec::new();
    hits.into_iter()
        .filter(|hit| {
            let k = key(hit, field);
            let new = !seen.contains(&k);
            if new {
                seen.push(k);
            }
            new
        })
        .collect()
}

impl Engine {
    /// Fills each page hit's `inner_hits` with a search of its group over every target.
    pub(super) fn expand_groups(
        &self,
        targets: &[Target],
        obj: &Map<String, Value>,
        params: &Map<String, Value>,
        page: &mut [Value],
    ) -> Result<()> {
        let Some(field) = field(obj) else { return Ok(()) };
        let specs: Vec<&Value> = match obj["collapse"].get("inner_hits") {
            None => return Ok(()),
            Some(Value::Array(items)) => items.iter().collect(),
            Some(one) => vec![one],
        };
        let query = obj.get("query").cloned().unwrap_or_else(|| json!({ "match_all": {} }));
        let mut inner_params = Map::new();
        if let Some(v) = params.get("rest_total_hits_as_int") {
            inner_params.insert("rest_total_hits_as_int".into(), v.clone());
        }
        for hit in page.iter_mut() {
            let in_group = match key(hit, field) {
                Value::Null => json!({ "bool": { "must_not": [{ "exists": { "field": field } }] } }),
                value => json!({ "term": { field: value } }),
            };
            let mut inner = Map::new();
            for spec in &specs {
                let Some(spec) = spec.as_object() else {
                    return Err(EngineError::Parsing("[inner_hits] must be an object".into()));
                };
                let name = spec.get("name").and_then(Value::as_str).unwrap_or(field).to_string();
                let mut body = spec.clone();
                body.remove("name");
                body.entry("size").or_insert(json!(3));
                body.insert("query".into(), json!({ "bool": { "must": [query], "filter": [in_group] } }));
                let bytes =
                    serde_json::to_vec(&Value::Object(body)).map_err(|e| EngineError::Internal(e.to_string()))?;
                let reply: Value = serde_json::from_str(&self.search_targets(targets, &bytes, &inner_params)?)
                    .map_err(|e| EngineError::Internal(e.to_string()))?;
                inner.insert(name, json!({ "hits": reply["hits"] }));
            }
            hit["inner_hits"] = Value::Object(inner);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_hit_of_each_group_missing_values_grouped_together() {
        let hit = |id: &str, v: Value| json!({"_id": id, "fields": {"g": [v]}});
        let hits =
            vec![hit("a", json!(1)), hit("b", json!(2)), hit("c", json!(1)), json!({"_id": "d"}), json!({"_id": "e"})];
        let ids: Vec<Value> = first_of_each_group(hits, "g").into_iter().map(|h| h["_id"].clone()).collect();
        assert_eq!(ids, vec![json!("a"), json!("b"), json!("d")]);
    }
}
