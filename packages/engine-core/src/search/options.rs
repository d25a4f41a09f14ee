//! The search body's and URL's options beyond query, paging, sort and aggregations: what a
//! hit shows (`version`, `seq_no_primary_term`, `explain`, `stored_fields`,
//! `docvalue_fields`, `fields`), what is collected (`min_score`, `post_filter`,
//! `terminate_after`, `indices_boost`, `rescore`, `collapse`) and how the response is shaped
//! (`rest_total_hits_as_int`, `typed_keys`, `filter_path`). The URL parameters that change
//! nothing on a one-shard index are checked as ES checks them and accepted.

use serde_json::Value;

use super::collapse::Collapse;
use super::rescore::Rescore;
use crate::error::{EngineError, Result};
use crate::hits::doc_meta::DocMeta;
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;
use crate::store::hit_fields::FieldRequest;
use crate::store::mapping::Mapping;

/// `stored_fields`: `_none_` hides `_id` and `_source`; a list shows `_source` only if named.
#[derive(Debug, Clone, PartialEq)]
pub enum StoredFields {
    None,
    List(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchOptions {
    pub meta: DocMeta,
    pub explain: bool,
    /// On the shown score scale.
    pub min_score: Option<f32>,
    pub post_filter: Option<QueryAst>,
    pub terminate_after: Option<usize>,
    pub stored_fields: Option<StoredFields>,
    pub docvalue_fields: Vec<FieldRequest>,
    pub fields: Vec<FieldRequest>,
    /// `indices_boost` as given, resolved against the index's name when the search runs.
    pub indices_boost: Option<Value>,
    pub rescore: Vec<Rescore>,
    pub collapse: Option<Collapse>,
    /// `script_fields`: a value per hit computed by the Painless subset (`script/`).
    pub script_fields: Vec<(String, crate::script::Script)>,
    pub rest_total_hits_as_int: bool,
    pub typed_keys: bool,
    pub filter_path: Option<String>,
    /// `stats`: the statistics groups the search is also counted under (`_stats?groups=`).
    pub stats_groups: Vec<String>,
    /// `profile: true`: the request's `aggs` as given (or `Null`), for the profile's names.
    pub profile: Option<Value>,
    /// A sliced scroll's part (`slice.rs`); set by the scroll, refused elsewhere.
    pub slice: Option<super::slice::Slice>,
}

impl SearchOptions {
    /// Whether the options change which documents are collected or how they score (the
    /// search's fast page paths handle none of that).
    pub fn changes_collection(&self) -> bool {
        self.min_score.is_some()
            || self.post_filter.is_some()
            || self.terminate_after.is_some()
            || !self.rescore.is_empty()
            || self.collapse.is_some()
            || self.slice.is_some()
    }

    /// A body key this module owns; false for keys it does not know.
    pub fn parse_body_key(&mut self, key: &str, value: &Value, mapping: &Mapping) -> Result<bool> {
        match key {
            "version" => self.meta.version = bool_value(key, value)?,
            "seq_no_primary_term" => self.meta.seq_no_primary_term = bool_value(key, value)?,
            "explain" => self.explain = bool_value(key, value)?,
            "min_score" => {
                self.min_score = Some(value.as_f64().ok_or_else(|| bad(key, value))? as f32);
            }
            "post_filter" => self.post_filter = Some(parse_query(value)?),
            "terminate_after" => self.terminate_after = terminate_after(value)?,
            "stored_fields" => self.stored_fields = Some(stored_fields(value)?),
            "docvalue_fields" => self.docvalue_fields = field_requests(key, value)?,
            "fields" => self.fields = field_requests(key, value)?,
            "indices_boost" => self.indices_boost = Some(value.clone()),
            "rescore" => self.rescore = Rescore::parse_list(value)?,
            "collapse" => self.collapse = Some(Collapse::parse(value, mapping)?),
            "script_fields" => self.script_fields = script_fields(value)?,
            "profile" => self.profile = bool_value(key, value)?.then_some(Value::Null),
            // Statistics groups count the search under each (`_stats?groups=`).
            "stats" => match value {
                Value::Array(groups) if groups.iter().all(Value::is_string) => {
                    self.stats_groups = groups.iter().filter_map(Value::as_str).map(str::to_string).collect();
                }
                _ => return Err(bad(key, value)),
            },
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A URL parameter this module owns; false for parameters it does not know.
    pub fn parse_param(&mut self, key: &str, value: &Value) -> Result<bool> {
        match key {
            "version" => self.meta.version = bool_param(key, value)?,
            "seq_no_primary_term" => self.meta.seq_no_primary_term = bool_param(key, value)?,
            "explain" => self.explain = bool_param(key, value)?,
            "terminate_after" => self.terminate_after = terminate_after(value)?,
            "stored_fields" => {
                let list = value.as_str().unwrap_or_default();
                self.stored_fields = Some(stored_fields(&Value::Array(
                    list.split(',').map(|s| Value::String(s.trim().to_string())).collect(),
                ))?);
            }
            "docvalue_fields" => {
                let list = value.as_str().unwrap_or_default();
                self.docvalue_fields =
                    list.split(',').map(|s| FieldRequest { pattern: s.trim().to_string(), format: None }).collect();
            }
            "rest_total_hits_as_int" => self.rest_total_hits_as_int = bool_param(key, value)?,
            "typed_keys" => self.typed_keys = bool_param(key, value)?,
            "filter_path" => self.filter_path = value.as_str().map(str::to_string),
            // One shard: DFS's global term statistics are the shard's own, so both types score alike.
            "search_type" => match value.as_str() {
                Some("query_then_fetch" | "dfs_query_then_fetch") => {}
                _ => {
                    return Err(EngineError::IllegalArgument(format!(
                        "No search type for [{}]",
                        value.as_str().unwrap_or_default()
                    )))
                }
            },
            // One shard on one node: no shard can fail alone, every shard is the local one,
            // routing reaches that shard, and nothing runs concurrently to bound.
            "allow_partial_search_results" | "ccs_minimize_roundtrips" => {
                bool_param(key, value)?;
            }
            "pre_filter_shard_size" | "max_concurrent_shard_requests" | "batched_reduce_size" => {
                check_shard_count_param(key, value)?;
            }
            "preference" | "routing" => {}
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The request's shard-count knobs, checked as ES's `SearchRequest` setters check them (with
/// one shard per index they bound nothing here).
pub(crate) fn check_shard_count_param(key: &str, value: &Value) -> Result<()> {
    let (name, min) = match key {
        "pre_filter_shard_size" => ("preFilterShardSize", 1),
        "max_concurrent_shard_requests" => ("maxConcurrentShardRequests", 1),
        "batched_reduce_size" => ("batchedReduceSize", 2),
        _ => return Ok(()),
    };
    let n = value.as_str().and_then(|s| s.parse::<i64>().ok()).or_else(|| value.as_i64());
    match n {
        Some(n) if n >= min => Ok(()),
        _ => Err(EngineError::IllegalArgument(format!("{name} must be >= {min}"))),
    }
}

fn bad(key: &str, value: &Value) -> EngineError {
    EngineError::Parsing(format!("[{key}] unexpected value [{value}]"))
}

fn bool_value(key: &str, value: &Value) -> Result<bool> {
    value.as_bool().ok_or_else(|| bad(key, value))
}

fn bool_param(key: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s.is_empty() => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        _ => Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{}] as only [true] or [false] are allowed for [{key}]",
            v.as_str().unwrap_or_default()
        ))),
    }
}

/// `terminate_after`: 0 means no limit (ES's default).
fn terminate_after(value: &Value) -> Result<Option<usize>> {
    let n = value.as_i64().or_else(|| value.as_str().and_then(|s| s.parse().ok()));
    match n {
        Some(n) if n < 0 => Err(EngineError::IllegalArgument("terminateAfter must be > 0".into())),
        Some(0) => Ok(None),
        Some(n) => Ok(Some(n as usize)),
        None => Err(bad("terminate_after", value)),
    }
}

fn stored_fields(value: &Value) -> Result<StoredFields> {
    let names: Vec<String> = match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| bad("stored_fields", v)))
            .collect::<Result<_>>()?,
        other => return Err(bad("stored_fields", other)),
    };
    if names.iter().any(|n| n == "_none_") {
        if names.len() > 1 {
            return Err(EngineError::Parsing(
                "The field [stored_fields] with value [_none_] cannot be used with other fields".into(),
            ));
        }
        return Ok(StoredFields::None);
    }
    Ok(StoredFields::List(names))
}

fn script_fields(value: &Value) -> Result<Vec<(String, crate::script::Script)>> {
    let obj = value.as_object().ok_or_else(|| bad("script_fields", value))?;
    obj.iter()
        .map(|(name, def)| {
            let def = def.as_object().ok_or_else(|| bad("script_fields", def))?;
            if let Some(other) = def.keys().find(|k| !matches!(k.as_str(), "script" | "ignore_failure")) {
                return Err(EngineError::Parsing(format!("[script_fields] unknown field [{other}]")));
            }
            if def.get("ignore_failure").is_some_and(|v| v != false) {
                return Err(EngineError::Parsing("[script_fields] [ignore_failure] is not supported".into()));
            }
            let script =
                def.get("script").ok_or_else(|| EngineError::Parsing(format!("[{name}] requires [script]")))?;
            Ok((name.clone(), crate::script::Script::from_json(script)?))
        })
        .collect()
}

fn field_requests(key: &str, value: &Value) -> Result<Vec<FieldRequest>> {
    let items = match value {
        Value::Array(items) => items,
        other => return Err(bad(key, other)),
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(s) => Ok(FieldRequest { pattern: s.clone(), format: None }),
            Value::Object(o) => {
                if let Some(other) = o.keys().find(|k| !matches!(k.as_str(), "field" | "format" | "include_unmapped")) {
                    return Err(EngineError::XContentParse(format!("[{key}] unknown field [{other}]")));
                }
                if o.get("include_unmapped").is_some_and(|v| v != false) {
                    return Err(EngineError::XContentParse(format!("[{key}] [include_unmapped] is not supported")));
                }
                let pattern = o.get("field").and_then(Value::as_str).ok_or_else(|| bad(key, item))?;
                let format =
                    o.get("format").map(|f| f.as_str().map(str::to_string).ok_or_else(|| bad(key, f))).transpose()?;
                Ok(FieldRequest { pattern: pattern.to_string(), format })
            }
            other => Err(bad(key, other)),
        })
        .collect()
}
