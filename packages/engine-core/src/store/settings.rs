//! The index settings we honour: `refresh_interval`, `max_result_window` and
//! `mapping.total_fields.limit`. Shard and replica counts are accepted (one shard is what we
//! serve) and echoed back, as is every setting given, the way ES shows them (strings).

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct IndexSettings {
    /// `None` when `refresh_interval` is `-1` (automatic refresh disabled).
    pub refresh_interval_ms: Option<u64>,
    pub max_result_window: usize,
    pub number_of_shards: u64,
    pub number_of_replicas: u64,
    /// `index.mapping.total_fields.limit`: fields (objects and multi-fields included) a mapping
    /// may hold.
    pub total_fields_limit: usize,
    /// The settings as given (flattened, without the `index.` prefix), for `GET _settings`.
    pub given: Map<String, Value>,
    /// `index.similarity.*` (`store/similarity.rs`).
    pub similarity: crate::store::similarity::Similarities,
    /// `index.analysis.*`: the analyzers, tokenizers, filters and normalizers the index defines
    /// (`analysis/registry.rs`).
    pub analysis: crate::analysis::registry::IndexAnalysisSettings,
    /// Request and document limits, and settings accepted without effect (`settings_limits.rs`).
    pub limits: crate::store::settings_limits::IndexLimits,
    /// `index.hidden`: wildcards skip the index unless they expand to hidden ones.
    pub hidden: bool,
    /// `index.blocks.*` (`store/blocks.rs`).
    pub blocks: crate::store::blocks::Blocks,
    /// `index.codec`: the doc store's compression (`store/codec.rs`).
    pub codec: crate::store::codec::Codec,
}

/// Settings an open index may change (`PUT /{index}/_settings`).
const DYNAMIC: [&str; 8] = [
    "refresh_interval",
    "max_result_window",
    "number_of_replicas",
    "mapping.total_fields.limit",
    "requests.cache.enable",
    "search.idle.after",
    "auto_expand_replicas",
    "knn.algo_param.ef_search",
];

impl Default for IndexSettings {
    fn default() -> Self {
        IndexSettings {
            refresh_interval_ms: Some(1000),
            max_result_window: 10_000,
            number_of_shards: 1,
            number_of_replicas: 1,
            total_fields_limit: 1000,
            given: Map::new(),
            similarity: Default::default(),
            analysis: Default::default(),
            limits: Default::default(),
            hidden: false,
            blocks: Default::default(),
            codec: Default::default(),
        }
    }
}

/// Flattens settings as `flatten` does (`index.` prefixes dropped), for callers outside.
pub fn flatten_into(value: &Value, out: &mut Map<String, Value>) {
    flatten(value, "", out)
}

/// Flattens `{"index": {"a": 1}}` and `{"index.a": 1}` into `a -> 1`.
fn flatten(value: &Value, prefix: &str, out: &mut Map<String, Value>) {
    if let Value::Object(obj) = value {
        for (k, v) in obj {
            let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            flatten(v, &key, out);
        }
    } else {
        out.insert(prefix.strip_prefix("index.").unwrap_or(prefix).to_string(), value.clone());
    }
}

fn as_u64(key: &str, v: &Value) -> Result<u64> {
    v.as_u64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| EngineError::IllegalArgument(format!("Failed to parse value [{v}] for setting [index.{key}]")))
}

/// ES time values: `1s`, `500ms`, `2m`, `-1`.
pub fn parse_time_value_ms(key: &str, v: &Value) -> Result<Option<u64>> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    if text == "-1" {
        return Ok(None);
    }
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (num, unit) = text.split_at(split);
    let n: u64 = num.parse().map_err(|_| bad_time(key, &text))?;
    let factor = match unit {
        "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(bad_time(key, &text)),
    };
    Ok(Some(n * factor))
}

fn bad_time(key: &str, text: &str) -> EngineError {
    EngineError::IllegalArgument(format!(
        "failed to parse setting [index.{key}] with value [{text}] as a time value: unit is missing or unrecognized"
    ))
}

impl IndexSettings {
    pub fn parse(settings: &Value) -> Result<IndexSettings> {
        let mut flat = Map::new();
        if !settings.is_null() {
            if !settings.is_object() {
                return Err(EngineError::IllegalArgument("settings must be an object".into()));
            }
            flatten(settings, "", &mut flat);
        }
        let mut out = IndexSettings::default();
        let mut analysis = Map::new();
        for (key, value) in &flat {
            match key.as_str() {
                analysis_key if analysis_key.starts_with("analysis.") => {
                    insert_dotted(&mut analysis, &analysis_key["analysis.".len()..], value.clone())
                }
                "refresh_interval" => out.refresh_interval_ms = parse_time_value_ms(key, value)?,
                "max_result_window" => out.max_result_window = at_least(key, value, 1, u64::MAX)? as usize,
                "number_of_shards" => out.number_of_shards = at_least(key, value, 1, 1024)?,
                "number_of_replicas" => out.number_of_replicas = as_u64(key, value)?,
                // Durability is always per request (fsync before acknowledging), as this default.
                "translog.durability" if value == "request" => {}
                // Settings with no effect on a single-shard tantivy index, accepted so index
                // bodies written for ES/OpenSearch load unchanged.
                "mapping.total_fields.limit" => out.total_fields_limit = as_u64(key, value)? as usize,
                "codec" => out.codec = crate::store::codec::Codec::parse(value)?,
                "search.idle.after" | "auto_expand_replicas" => {}
                // OpenSearch's switch for `knn_vector` fields and its graph search width: our
                // vector search is an exact scan, on for every index (see `knn`).
                "knn" | "knn.algo_param.ef_search" => {}
                // The shard request cache: this engine has none. It only ever changes how fast a
                // repeated size-0 search answers, never what, so either value holds here.
                "requests.cache.enable" if matches!(value, Value::Bool(_)) || value == "false" || value == "true" => {}
                "hidden" => out.hidden = crate::store::blocks::parse_bool(value)?,
                // The order indices recover in after a restart: one node, nothing to order.
                "priority" => {
                    as_u64(key, value)?;
                }
                block if crate::store::blocks::Blocks::is_block_setting(block) => out.blocks.set(block, value)?,
                similarity if similarity.starts_with("similarity.") => {
                    out.similarity.set(&similarity["similarity.".len()..], value)?
                }
                other if out.limits.apply(other, value)? => {}
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "unknown setting [index.{other}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
                    )))
                }
            }
        }
        out.given = flat;
        out.similarity.validate()?;
        if !analysis.is_empty() {
            out.analysis = crate::analysis::registry::IndexAnalysisSettings::parse(Value::Object(analysis))?;
        }
        Ok(out)
    }

    /// These settings with `changes` applied (`PUT /{index}/_settings`): only dynamic settings
    /// change, and `null` puts one back to its default.
    pub fn update(&self, changes: &Value, index: &str, uuid: &str) -> Result<(IndexSettings, Value)> {
        self.update_with(changes, index, uuid, false, false)
    }

    /// `update` on an index that may be closed (its static settings may change then, as in
    /// ES), and with `preserve_existing` (settings already set keep their values).
    pub fn update_with(
        &self,
        changes: &Value,
        index: &str,
        uuid: &str,
        closed: bool,
        preserve_existing: bool,
    ) -> Result<(IndexSettings, Value)> {
        let mut flat = Map::new();
        if !changes.is_object() {
            return Err(EngineError::IllegalArgument("settings must be an object".into()));
        }
        flatten(changes, "", &mut flat);
        let dynamic = |k: &str| {
            DYNAMIC.contains(&k)
                || crate::store::settings_limits::DYNAMIC_LIMITS.contains(&k)
                || crate::store::settings_limits::DYNAMIC_ACCEPTED.contains(&k)
                || matches!(k, "hidden" | "priority")
                || crate::store::blocks::Blocks::is_block_setting(k)
        };
        let frozen: Vec<String> = flat.keys().filter(|k| !dynamic(k)).cloned().collect();
        let known = |k: &str| {
            IndexSettings::parse(&json!({ k: Value::Null })).is_ok()
                || k == "number_of_shards"
                || k == "codec"
                || crate::store::settings_limits::is_setting(k)
        };
        if let Some(unknown) = frozen.iter().find(|k| !known(k)) {
            return Err(EngineError::IllegalArgument(format!(
                "unknown setting [index.{unknown}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
            )));
        }
        if closed && frozen.iter().any(|k| k == "number_of_shards") {
            return Err(EngineError::IllegalArgument(
                "final index setting [index.number_of_shards], not updateable".into(),
            ));
        }
        if !frozen.is_empty() && !closed {
            let names: Vec<String> = frozen.iter().map(|k| format!("index.{k}")).collect();
            return Err(EngineError::IllegalArgument(format!(
                "Can't update non dynamic settings [[{}]] for open indices [[{index}/{uuid}]]",
                names.join(", ")
            )));
        }
        let mut given = self.given.clone();
        for (key, value) in flat {
            // Every index has its shard and replica counts, given or not.
            let existing = given.contains_key(&key) || key == "number_of_replicas" || key == "number_of_shards";
            if preserve_existing && existing {
                continue;
            }
            if value.is_null() {
                given.remove(&key);
            } else {
                given.insert(key, value);
            }
        }
        let stored = Value::Object(given);
        Ok((IndexSettings::parse(&stored)?, stored))
    }

    /// The `settings.index` object as `GET /{index}` shows it (ES renders values as strings).
    pub fn to_json(&self, uuid: &str, name: &str, creation_date: i64) -> Value {
        let mut index = Map::new();
        for (key, value) in self.flat(uuid, name, creation_date) {
            insert_dotted(&mut index, key.strip_prefix("index.").unwrap_or(&key), value);
        }
        json!({ "index": index })
    }

    /// Every setting as `index.a.b -> "value"` (ES's `flat_settings=true`), the index's own
    /// metadata included.
    pub fn flat(&self, uuid: &str, name: &str, creation_date: i64) -> Map<String, Value> {
        let mut out = Map::new();
        let as_text = |value: &Value| match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        for (key, value) in &self.given {
            // ES shows a list setting (stop words, filter names) as a list of strings.
            let shown = match value {
                Value::Array(items) => Value::Array(items.iter().map(|v| json!(as_text(v))).collect()),
                other => json!(as_text(other)),
            };
            out.insert(format!("index.{key}"), shown);
        }
        out.insert("index.number_of_shards".into(), json!(self.number_of_shards.to_string()));
        out.insert("index.number_of_replicas".into(), json!(self.number_of_replicas.to_string()));
        out.insert("index.uuid".into(), json!(uuid));
        out.insert("index.provided_name".into(), json!(name));
        out.insert("index.creation_date".into(), json!(creation_date.to_string()));
        out.insert("index.version.created".into(), json!("8512000"));
        out
    }
}

/// ES's settings validation for a bounded number.
fn at_least(key: &str, v: &Value, min: u64, max: u64) -> Result<u64> {
    let n = as_u64(key, v)?;
    if n < min {
        return Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{n}] for setting [index.{key}] must be >= {min}"
        )));
    }
    if n > max {
        return Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{n}] for setting [index.{key}] must be <= {max}"
        )));
    }
    Ok(n)
}

/// `a.b.c -> v` into nested objects.
pub fn insert_dotted(out: &mut Map<String, Value>, key: &str, value: Value) {
    match key.split_once('.') {
        None => {
            out.insert(key.to_string(), value);
        }
        Some((head, rest)) => {
            let child = out.entry(head.to_string()).or_insert_with(|| json!({}));
            if !child.is_object() {
                *child = json!({});
            }
            insert_dotted(child.as_object_mut().expect("an object"), rest, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_flat_forms() {
        let s = IndexSettings::parse(
            &json!({"index": {"refresh_interval": "-1", "number_of_shards": "1"}, "index.max_result_window": 50}),
        )
        .unwrap();
        assert_eq!(s.refresh_interval_ms, None);
        assert_eq!(s.max_result_window, 50);
        let s = IndexSettings::parse(&json!({"refresh_interval": "250ms"})).unwrap();
        assert_eq!(s.refresh_interval_ms, Some(250));
        assert_eq!(IndexSettings::parse(&Value::Null).unwrap(), IndexSettings::default());
    }

    #[test]
    fn unknown_or_bad_settings_fail() {
        assert!(IndexSettings::parse(&json!({"index": {"analysis": {"analyzer": {"a": {"type": "custom"}}}}})).is_err());
        assert!(IndexSettings::parse(&json!({"index": {"translog.durability": "async"}})).is_err());
        assert!(IndexSettings::parse(&json!({"index": {"codec": "best_compression"}})).is_ok());
        assert!(IndexSettings::parse(&json!({"refresh_interval": "soon"})).is_err());
        assert!(IndexSettings::parse(&json!({"index": {"requests": {"cache": {"enable": false}}}})).is_ok());
        assert!(IndexSettings::parse(&json!({"index.requests.cache.enable": "false"})).is_ok());
        assert!(IndexSettings::parse(&json!({"index.requests.cache.enable": true})).is_ok());
        assert!(IndexSettings::parse(&json!({"index.number_of_shards": 0})).is_err());
        assert!(IndexSettings::parse(&json!({"index.number_of_shards": 1025})).is_err());
        assert!(IndexSettings::parse(&json!({"index.max_result_window": 0})).is_err());
    }

    #[test]
    fn updates_only_dynamic_settings() {
        let s = IndexSettings::parse(&json!({"index": {"number_of_shards": 1, "refresh_interval": "5s"}})).unwrap();
        let (next, stored) =
            s.update(&json!({"index.max_result_window": 3, "refresh_interval": null}), "t", "u").unwrap();
        assert_eq!((next.max_result_window, next.refresh_interval_ms), (3, Some(1000)));
        assert_eq!(stored["max_result_window"], 3);
        assert!(s
            .update(&json!({"index.number_of_shards": 2}), "t", "u")
            .unwrap_err()
            .to_string()
            .contains("non dynamic"));
        assert!(s
            .update(&json!({"index.colour": "red"}), "t", "u")
            .unwrap_err()
            .to_string()
            .contains("unknown setting"));
        assert_eq!(s.to_json("u", "t", 0)["index"]["refresh_interval"], "5s");
    }
}
