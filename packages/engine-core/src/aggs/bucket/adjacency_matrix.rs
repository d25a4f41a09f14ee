//! `adjacency_matrix`: a bucket per filter and per pair of filters matching together
//! (`A`, `A&B`), named by the filters, sorted by name. Collected like `filters` (the pair
//! keys are added to a document's matched filters, `adjacency_keys`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::render::single_bucket;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;

pub struct AdjacencyMatrix;

impl Aggregation for AdjacencyMatrix {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        Ok((parse_adjacency(def.name, def.body)?, FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::AdjacencyMatrix { filters, separator }, AggFruit::Buckets(b)) => {
                render_adjacency(req, filters, separator, b)
            }
            _ => Value::Null,
        }
    }
}

/// ES caps the filters of one `adjacency_matrix` (`index.max_adjacency_matrix_filters`).
const MAX_ADJACENCY_FILTERS: usize = 100;

fn parse_adjacency(name: &str, body: &Map<String, Value>) -> Result<AggKind> {
    let mut filters = Vec::new();
    let mut separator = "&".to_string();
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[adjacency_matrix] failed to parse field [{key}]"));
        match key.as_str() {
            "filters" => {
                for (filter_name, query) in value.as_object().ok_or_else(bad)? {
                    filters.push((filter_name.clone(), parse_query(query)?));
                }
            }
            "separator" => separator = value.as_str().ok_or_else(bad)?.to_string(),
            _ => return Err(EngineError::XContentParse(format!("[adjacency_matrix] unknown field [{key}]"))),
        }
    }
    if filters.is_empty() {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("[filters] cannot be empty: [{name}]")));
    }
    if filters.len() > MAX_ADJACENCY_FILTERS {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
            "Number of filters is too large, must be less than or equal to: [{MAX_ADJACENCY_FILTERS}] but was [{}].",
            filters.len()
        ),
        ));
    }
    // Buckets come out sorted by key; sorting the filters makes pair keys `lower&higher`.
    filters.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(AggKind::AdjacencyMatrix { filters, separator })
}

/// `adjacency_matrix`: to the indexes of the filters a doc matches (ascending), adds
/// `n + i * n + j` for every matching pair `i < j`. Other kinds are left alone.
pub(crate) fn adjacency_keys(kind: &AggKind, keys: &mut Vec<u64>) {
    let AggKind::AdjacencyMatrix { filters, .. } = kind else { return };
    let n = filters.len();
    let singles = keys.len();
    for a in 0..singles {
        for b in a + 1..singles {
            keys.push((n + keys[a] as usize * n + keys[b] as usize) as u64);
        }
    }
}

fn render_adjacency(
    req: &AggRequest,
    filters: &[(String, QueryAst)],
    separator: &str,
    buckets: &HashMap<BucketKey, FruitBucket>,
) -> Value {
    let n = filters.len();
    let mut named: Vec<(String, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(key, b)| {
            let BucketKey::Num(k) = key else { return None };
            let k = *k as usize;
            let name = if k < n {
                filters[k].0.clone()
            } else {
                let (i, j) = ((k - n) / n, (k - n) % n);
                format!("{}{separator}{}", filters[i].0, filters[j].0)
            };
            Some((name, b))
        })
        .filter(|(_, b)| b.count > 0)
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    let rendered: Vec<Value> = named
        .into_iter()
        .map(|(name, b)| {
            crate::aggs::bucket_budget::consume();
            let mut obj = Map::new();
            obj.insert("key".into(), Value::String(name));
            if let Value::Object(rest) = single_bucket(req, Some(b)) {
                obj.extend(rest);
            }
            Value::Object(obj)
        })
        .collect();
    serde_json::json!({ "buckets": rendered })
}
