//! The index settings we honour: `refresh_interval` and `max_result_window`. Shard and
//! replica counts are accepted (one shard is what we serve) and echoed back.

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct IndexSettings {
    /// `None` when `refresh_interval` is `-1` (automatic refresh disabled).
    pub refresh_interval_ms: Option<u64>,
    pub max_result_window: usize,
    pub number_of_shards: u64,
    pub number_of_replicas: u64,
}

impl Default for IndexSettings {
    fn default() -> Self {
        IndexSettings {
            refresh_interval_ms: Some(1000),
            max_result_window: 10_000,
            number_of_shards: 1,
            number_of_replicas: 1,
        }
    }
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
        for (key, value) in &flat {
            match key.as_str() {
                "refresh_interval" => out.refresh_interval_ms = parse_time_value_ms(key, value)?,
                "max_result_window" => out.max_result_window = as_u64(key, value)? as usize,
                "number_of_shards" => out.number_of_shards = as_u64(key, value)?,
                "number_of_replicas" => out.number_of_replicas = as_u64(key, value)?,
                // Durability is always per request (fsync before acknowledging), as this default.
                "translog.durability" if value == "request" => {}
                // Settings with no effect on a single-shard tantivy index, accepted so index
                // bodies written for ES/OpenSearch load unchanged.
                "codec" | "mapping.total_fields.limit" | "search.idle.after" | "auto_expand_replicas" => {}
                // OpenSearch's switch for `knn_vector` fields and its graph search width: our
                // vector search is an exact scan, on for every index (see `knn`).
                "knn" | "knn.algo_param.ef_search" => {}
                // The shard request cache: this engine has none, so `false` is simply true here
                // (the harness sets it so the baseline does not answer repeated `_count`s and
                // size-0 searches from its cache). `true` would promise a cache, so it is refused.
                "requests.cache.enable" if value == false || value == "false" => {}
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "unknown setting [index.{other}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
                    )))
                }
            }
        }
        Ok(out)
    }

    /// The `settings.index` object as `GET /{index}` shows it (ES renders values as strings).
    pub fn to_json(&self, uuid: &str, name: &str, creation_date: i64) -> Value {
        let mut index = json!({
            "number_of_shards": self.number_of_shards.to_string(),
            "number_of_replicas": self.number_of_replicas.to_string(),
            "uuid": uuid,
            "provided_name": name,
            "creation_date": creation_date.to_string(),
            "version": { "created": "8512000" },
        });
        if self.refresh_interval_ms != Some(1000) {
            index["refresh_interval"] =
                json!(self.refresh_interval_ms.map_or("-1".to_string(), |ms| format!("{ms}ms")));
        }
        if self.max_result_window != 10_000 {
            index["max_result_window"] = json!(self.max_result_window.to_string());
        }
        json!({ "index": index })
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
        assert!(IndexSettings::parse(&json!({"index.requests.cache.enable": true})).is_err());
    }
}
