//! `_search` and `_count` over several indices (lists, wildcards, aliases) or through a filtered
//! alias. Each index answers the request (with the alias filter added to its query and the page
//! widened to `from + size`); hits merge by the request's sort (or score), totals add up, and
//! each index's aggregations, as collected, merge into one result rendered once
//! (`aggs::multi_index`).

use std::cmp::Ordering;

use serde_json::{json, Map, Value};

use crate::error::{json_syntax_error, EngineError, Result};
use crate::store::versioning::param_text;

use super::resolve::Target;
use super::Engine;

fn parse_object(body: &[u8]) -> Result<Map<String, Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(body).map_err(|e| json_syntax_error(&e))? {
        Value::Object(map) => Ok(map),
        _ => Err(EngineError::Parsing("request body must be an object".into())),
    }
}

/// `body` with `filter` added to its query (the alias filter: it never changes scores).
pub(crate) fn with_filter(body: &[u8], filter: &Value) -> Result<Vec<u8>> {
    let mut obj = parse_object(body)?;
    let query = obj.remove("query").unwrap_or_else(|| json!({"match_all": {}}));
    obj.insert("query".into(), json!({ "bool": { "must": [query], "filter": [filter] } }));
    serde_json::to_vec(&Value::Object(obj)).map_err(|e| EngineError::Internal(e.to_string()))
}

/// One sort key's direction: descending, and whether it is `_score`.
#[derive(Debug, Clone, Copy)]
struct Key {
    desc: bool,
}

fn sort_keys(body: &Map<String, Value>, params: &Map<String, Value>) -> Option<Vec<Key>> {
    let key = |field: &str, order: Option<&str>| Key { desc: order.map_or(field == "_score", |o| o == "desc") };
    if let Some(url) = params.get("sort").map(param_text) {
        return Some(
            url.split(',')
                .map(|s| {
                    let (field, order) = s.split_once(':').map_or((s, None), |(f, o)| (f, Some(o)));
                    key(field, order)
                })
                .collect(),
        );
    }
    let sort = body.get("sort")?;
    let list = match sort {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    Some(
        list.iter()
            .map(|entry| match entry {
                Value::String(field) => key(field, None),
                Value::Object(o) => {
                    let (field, spec) = o.iter().next().map_or(("", &Value::Null), |(f, s)| (f.as_str(), s));
                    let order = spec.as_str().or_else(|| spec.get("order").and_then(Value::as_str));
                    key(field, order)
                }
                _ => key("", None),
            })
            .collect(),
    )
}

fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.as_f64().unwrap_or(0.0).partial_cmp(&y.as_f64().unwrap_or(0.0)).unwrap_or(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// ES's merge order: sort values key by key (missing values last either way), else score.
fn compare_hits(a: &Value, b: &Value, keys: Option<&[Key]>) -> Ordering {
    let Some(keys) = keys else {
        let score = |h: &Value| h["_score"].as_f64().unwrap_or(f64::NEG_INFINITY);
        return score(b).partial_cmp(&score(a)).unwrap_or(Ordering::Equal);
    };
    for (i, key) in keys.iter().enumerate() {
        let (x, y) = (&a["sort"][i], &b["sort"][i]);
        let ord = match (x.is_null(), y.is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => compare_values(x, y),
        };
        let ord = if key.desc { ord.reverse() } else { ord };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}

/// With no index to search, ES still parses the request where it arrives: a query or an
/// aggregation it cannot parse fails, while what only an index's shard would check does not.
fn check_without_index(obj: &Map<String, Value>) -> Result<()> {
    // A field pattern, like a shard's own checks, waits for an index's mapping.
    let coordinating = |e: EngineError| match e {
        EngineError::SearchPhase { .. } => Ok(()),
        e if crate::query::dsl::field_patterns::is_refusal(&e) => Ok(()),
        other => Err(other),
    };
    if let Some(query) = obj.get("query") {
        crate::query::dsl::parse_query(query).map(drop).or_else(coordinating)?;
    }
    let aggs = obj.get("aggs").or_else(|| obj.get("aggregations"));
    if let Some(aggs) = aggs {
        let mapping = crate::store::mapping::Mapping::from_mappings_json(&json!({}))?;
        crate::aggs::parse_aggs(aggs, &mapping).map(drop).or_else(coordinating)?;
    }
    Ok(())
}

fn usize_of(v: Option<&Value>) -> Option<usize> {
    v.and_then(|v| v.as_u64().or_else(|| param_text(v).parse().ok())).map(|n| n as usize)
}

impl Engine {
    /// A search over `targets` (none, several, or one reached through a filtered alias).
    pub(crate) fn search_targets(
        &self,
        targets: &[Target],
        body: &[u8],
        params: &Map<String, Value>,
    ) -> Result<String> {
        let obj = parse_object(body)?;
        if targets.is_empty() {
            check_without_index(&obj)?;
        }
        let has_aggs = ["aggs", "aggregations"].iter().any(|k| obj.get(*k).and_then(Value::as_object).is_some());
        let mut agg_parts = Vec::new();
        if params.contains_key("scroll") || obj.contains_key("pit") {
            return Err(EngineError::IllegalArgument(
                "a scroll or point in time over more than one index (or a filtered alias) is not supported".into(),
            ));
        }
        let from = usize_of(obj.get("from")).or_else(|| usize_of(params.get("from"))).unwrap_or(0);
        let size = usize_of(obj.get("size")).or_else(|| usize_of(params.get("size"))).unwrap_or(10);
        let keys = sort_keys(&obj, params);
        let mut per_index = obj.clone();
        per_index.insert("from".into(), json!(0));
        per_index.insert("size".into(), json!(from + size));
        super::multi_collapse::per_index(&mut per_index);
        let mut rest = params.clone();
        rest.remove("from");
        rest.remove("size");
        let base = serde_json::to_vec(&Value::Object(per_index)).map_err(|e| EngineError::Internal(e.to_string()))?;
        let (mut hits, mut total, mut relation, mut max_score, mut timed_out) =
            (Vec::new(), 0u64, "eq", None::<f64>, false);
        // With no index to ask, a search still reports a total, unless it asked for none.
        let mut counted = targets.is_empty() && obj.get("track_total_hits") != Some(&Value::Bool(false));
        let mut failures = Vec::new();
        let mut suggests = Vec::new();
        for (ord, target) in targets.iter().enumerate() {
            let request = match &target.filter {
                Some(filter) => with_filter(&base, filter)?,
                None => base.clone(),
            };
            // As ES's shards do, an index the search fails on (a sort field it does not map)
            // is a shard failure of a search that other indices still answer.
            let searched = if has_aggs {
                self.get(&target.index).and_then(|handle| {
                    let (text, aggs) = crate::search::search_deferring_aggs(handle.as_ref(), &request, &rest)?;
                    agg_parts.extend(aggs);
                    Ok(text)
                })
            } else {
                self.search(&target.index, &request, &rest)
            };
            let text = match searched {
                Ok(text) => text,
                Err(e @ EngineError::SearchPhase { .. }) if targets.len() > 1 => {
                    let cause = e.to_es_body()["error"]["caused_by"].clone();
                    failures.push(json!({ "shard": 0, "index": target.index, "node": "everycell", "reason": cause }));
                    continue;
                }
                Err(e) => return Err(e),
            };
            let reply: Value = serde_json::from_str(&text).map_err(|e| EngineError::Internal(e.to_string()))?;
            timed_out |= reply["timed_out"] == true;
            if let Some(t) = reply["hits"].get("total") {
                counted = true;
                total += t["value"].as_u64().or_else(|| t.as_u64()).unwrap_or(0);
                if t["relation"] == "gte" {
                    relation = "gte";
                }
            }
            if let Some(s) = reply["hits"]["max_score"].as_f64() {
                max_score = Some(max_score.map_or(s, |m: f64| m.max(s)));
            }
            for (pos, hit) in reply["hits"]["hits"].as_array().into_iter().flatten().enumerate() {
                hits.push((ord, pos, hit.clone()));
            }
            if let Some(suggest) = reply.get("suggest") {
                suggests.push(suggest.clone());
            }
        }
        hits.sort_by(|(oa, pa, a), (ob, pb, b)| compare_hits(a, b, keys.as_deref()).then(oa.cmp(ob)).then(pa.cmp(pb)));
        let mut merged: Vec<Value> = hits.into_iter().map(|(_, _, h)| h).collect();
        if let Some(field) = super::multi_collapse::field(&obj) {
            merged = super::multi_collapse::first_of_each_group(merged, field);
        }
        let mut page: Vec<Value> = merged.into_iter().skip(from).take(size).collect();
        self.expand_groups(targets, &obj, params, &mut page)?;
        let n = targets.len();
        if n > 0 && failures.len() == n {
            return Err(EngineError::shard(
                crate::error::ShardCause::QueryShard,
                failures[0]["reason"]["reason"].as_str().unwrap_or("all shards failed").to_string(),
            ));
        }
        let mut shards =
            json!({ "total": n, "successful": n - failures.len(), "skipped": 0, "failed": failures.len() });
        if !failures.is_empty() {
            shards["failures"] = Value::Array(failures);
        }
        // `track_total_hits`, the body's or the URL's: each index counted up to a limit, so
        // together they count up to it too; `false` counts nothing.
        let track = obj.get("track_total_hits").cloned().or_else(|| {
            params.get("track_total_hits").map(|v| match param_text(v).as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                other => other.parse::<u64>().map_or(Value::Null, Value::from),
            })
        });
        if let Some(limit) = track.as_ref().and_then(Value::as_u64) {
            if total > limit {
                (total, relation) = (limit, "gte");
            }
        }
        let as_int = params.get("rest_total_hits_as_int").is_some_and(|v| param_text(v) == "true");
        let mut hits_obj = Map::new();
        if track == Some(Value::Bool(false)) {
            if as_int {
                hits_obj.insert("total".into(), json!(-1));
            }
        } else if counted {
            let total = if as_int { json!(total) } else { json!({ "value": total, "relation": relation }) };
            hits_obj.insert("total".into(), total);
        }
        hits_obj.insert("max_score".into(), max_score.map_or(Value::Null, |s| json!(s)));
        hits_obj.insert("hits".into(), Value::Array(page));
        let mut out = json!({
            "took": 0,
            "timed_out": timed_out,
            "_shards": shards,
            "hits": hits_obj,
        });
        if !agg_parts.is_empty() {
            let merged = crate::aggs::multi_index::merge(agg_parts)?;
            let typed_keys = params.get("typed_keys").is_some_and(|v| param_text(v) == "true");
            let mut text = String::new();
            crate::aggs::write_aggs(&merged.reqs, &merged.fruits, merged.hits, typed_keys, &mut text)?;
            out["aggregations"] = serde_json::from_str(&text).map_err(|e| EngineError::Internal(e.to_string()))?;
        }
        if let Some(section) = obj.get("suggest") {
            let typed_keys = params.get("typed_keys").is_some_and(|v| param_text(v) == "true");
            let request = crate::suggest::SuggestRequest::parse(section)?;
            out["suggest"] = request.merge(&suggests.iter().collect::<Vec<_>>(), typed_keys);
        }
        Ok(out.to_string())
    }

    /// A count over `targets`: the sum of each index's count (with its alias filter).
    pub(crate) fn count_targets(&self, targets: &[Target], body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let mut total = 0u64;
        for target in targets {
            let request = match &target.filter {
                Some(filter) => with_filter(body, filter)?,
                None => body.to_vec(),
            };
            let reply: Value = serde_json::from_str(&self.count_one(&target.index, &request, params)?)
                .map_err(|e| EngineError::Internal(e.to_string()))?;
            total += reply["count"].as_u64().unwrap_or(0);
        }
        let n = targets.len();
        Ok(json!({ "count": total, "_shards": { "total": n, "successful": n, "skipped": 0, "failed": 0 } }).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_by_sort_values_with_missing_last() {
        let keys = [Key { desc: false }];
        let a = json!({"sort": [1]});
        let b = json!({"sort": [2]});
        let none = json!({"sort": [null]});
        assert_eq!(compare_hits(&a, &b, Some(&keys)), Ordering::Less);
        assert_eq!(compare_hits(&none, &a, Some(&keys)), Ordering::Greater);
        assert_eq!(compare_hits(&json!({"_score": 2.0}), &json!({"_score": 1.0}), None), Ordering::Less);
    }

    #[test]
    fn adds_the_alias_filter_to_the_query() {
        let body = with_filter(br#"{"query":{"term":{"a":1}},"size":3}"#, &json!({"term": {"b": 2}})).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["query"]["bool"]["filter"][0], json!({"term": {"b": 2}}));
        assert_eq!(v["size"], 3);
    }
}
