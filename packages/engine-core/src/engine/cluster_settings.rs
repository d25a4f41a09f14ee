//! Cluster settings (`GET|PUT /_cluster/settings`): persistent ones kept in
//! `<data-dir>/cluster_settings.json` (rewritten atomically, so they survive a restart), transient
//! ones in memory; a transient value wins over a persistent one, and `null` puts a setting back to
//! its default. Only settings this engine knows are accepted, each with ES's validation; those
//! that change behaviour take effect at once (`Effective`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::RwLock;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::settings::insert_dotted;

const FILE: &str = "cluster_settings.json";

/// How a setting's value is checked.
#[derive(Clone, Copy)]
enum Kind {
    Bool,
    /// An integer of at least this much.
    Int(i64),
    /// A time value (`30s`, `5m`).
    Time,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Any text (byte sizes, percentages, node names).
    Text,
}

/// The settings known here: name, kind, default (as ES renders it). The ones marked "takes
/// effect" change answers; the others only concern shard allocation, recovery and disk
/// watermarks of a multi-node cluster, which a one-node, one-shard engine does not have, so
/// they are accepted and shown back as ES would, with nothing to change.
const KNOWN: &[(&str, Kind, &str)] = &[
    // Takes effect: wildcards and `_all` in index deletion and closing.
    ("action.destructive_requires_name", Kind::Bool, "false"),
    // Takes effect: scroll and point-in-time keep-alives.
    ("search.max_keep_alive", Kind::Time, "1d"),
    ("search.default_keep_alive", Kind::Time, "5m"),
    // Takes effect: aggregation buckets per search.
    ("search.max_buckets", Kind::Int(0), "65535"),
    // Takes effect: prefix, wildcard, regexp, fuzzy, text ranges, joining and script queries.
    ("search.allow_expensive_queries", Kind::Bool, "true"),
    ("cluster.routing.allocation.enable", Kind::Choice(&["all", "primaries", "new_primaries", "none"]), "all"),
    ("cluster.routing.rebalance.enable", Kind::Choice(&["all", "primaries", "replicas", "none"]), "all"),
    (
        "cluster.routing.allocation.allow_rebalance",
        Kind::Choice(&["always", "indices_primaries_active", "indices_all_active"]),
        "indices_all_active",
    ),
    ("cluster.routing.allocation.cluster_concurrent_rebalance", Kind::Int(-1), "2"),
    ("cluster.routing.allocation.node_concurrent_recoveries", Kind::Int(0), "2"),
    ("cluster.routing.allocation.disk.threshold_enabled", Kind::Bool, "true"),
    ("cluster.routing.allocation.disk.watermark.low", Kind::Text, "85%"),
    ("cluster.routing.allocation.disk.watermark.high", Kind::Text, "90%"),
    ("cluster.routing.allocation.disk.watermark.flood_stage", Kind::Text, "95%"),
    ("cluster.routing.allocation.exclude._name", Kind::Text, ""),
    ("cluster.routing.allocation.exclude._ip", Kind::Text, ""),
    ("cluster.routing.allocation.include._name", Kind::Text, ""),
    ("cluster.routing.allocation.require._name", Kind::Text, ""),
    ("cluster.routing.allocation.awareness.attributes", Kind::Text, ""),
    ("cluster.max_shards_per_node", Kind::Int(1), "1000"),
    ("indices.recovery.max_bytes_per_sec", Kind::Text, "40mb"),
];

fn kind_of(key: &str) -> Option<(Kind, &'static str)> {
    KNOWN.iter().find(|(name, _, _)| *name == key).map(|(_, kind, default)| (*kind, *default))
}

/// ES's time units, in milliseconds.
pub(crate) fn time_ms(text: &str) -> Option<u64> {
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (num, unit) = text.split_at(split);
    let n: u64 = num.parse().ok()?;
    let factor = match unit {
        "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// The value as ES stores it (text), checked against the setting's kind.
fn checked(key: &str, kind: Kind, value: &Value) -> Result<String> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => {
            items.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect::<Vec<_>>().join(",")
        }
        other => other.to_string(),
    };
    let ok = match kind {
        Kind::Bool => {
            if text != "true" && text != "false" {
                return Err(EngineError::IllegalArgument(format!(
                    "Failed to parse value [{text}] as only [true] or [false] are allowed."
                )));
            }
            true
        }
        Kind::Int(min) => match text.parse::<i64>() {
            Ok(n) if n >= min => true,
            Ok(n) => {
                return Err(EngineError::IllegalArgument(format!(
                    "Failed to parse value [{n}] for setting [{key}] must be >= {min}"
                )))
            }
            Err(_) => false,
        },
        Kind::Time => time_ms(&text).is_some() || text == "-1",
        Kind::Choice(words) => words.contains(&text.to_lowercase().as_str()),
        Kind::Text => true,
    };
    if !ok {
        return Err(EngineError::IllegalArgument(match kind {
            Kind::Time => format!(
                "failed to parse setting [{key}] with value [{text}] as a time value: unit is missing or unrecognized"
            ),
            _ => format!("Failed to parse value [{text}] for setting [{key}]"),
        }));
    }
    Ok(text)
}

/// `{"a": {"b": 1}, "c.d": 2}` as `a.b -> 1, c.d -> 2`.
fn flatten(value: &Value, prefix: &str, out: &mut Map<String, Value>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(v, &key, out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.clone());
        }
    }
}

fn render(flat: &Map<String, Value>, flat_settings: bool) -> Value {
    if flat_settings {
        return Value::Object(flat.clone());
    }
    let mut nested = Map::new();
    for (key, value) in flat {
        insert_dotted(&mut nested, key, value.clone());
    }
    Value::Object(nested)
}

#[derive(Default)]
struct Scopes {
    persistent: Map<String, Value>,
    transient: Map<String, Value>,
}

/// The values the engine reads while it works, refreshed on every change.
pub struct Effective {
    pub destructive_requires_name: AtomicBool,
    pub max_keep_alive_ms: AtomicU64,
    pub max_buckets: AtomicU64,
    pub allow_expensive_queries: AtomicBool,
}

pub struct ClusterSettings {
    path: PathBuf,
    scopes: RwLock<Scopes>,
    pub effective: Effective,
}

impl ClusterSettings {
    pub fn open(data_dir: &Path) -> Result<ClusterSettings> {
        let path = data_dir.join(FILE);
        let persistent = match std::fs::read(&path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes).map_err(|e| EngineError::Internal(format!("corrupt {FILE}: {e}")))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Map::new(),
            Err(e) => return Err(e.into()),
        };
        let settings = ClusterSettings {
            path,
            scopes: RwLock::new(Scopes { persistent, transient: Map::new() }),
            effective: Effective {
                destructive_requires_name: AtomicBool::new(false),
                max_keep_alive_ms: AtomicU64::new(0),
                max_buckets: AtomicU64::new(0),
                allow_expensive_queries: AtomicBool::new(true),
            },
        };
        settings.refresh_effective();
        Ok(settings)
    }

    /// The value in force: transient, else persistent, else the default.
    fn value(&self, key: &str) -> String {
        let scopes = self.scopes.read().unwrap_or_else(|p| p.into_inner());
        scopes
            .transient
            .get(key)
            .or_else(|| scopes.persistent.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| kind_of(key).map_or_else(String::new, |(_, d)| d.to_string()))
    }

    fn refresh_effective(&self) {
        let e = &self.effective;
        e.destructive_requires_name.store(self.value("action.destructive_requires_name") == "true", Ordering::Relaxed);
        e.max_keep_alive_ms.store(time_ms(&self.value("search.max_keep_alive")).unwrap_or(u64::MAX), Ordering::Relaxed);
        e.max_buckets.store(self.value("search.max_buckets").parse().unwrap_or(65_535), Ordering::Relaxed);
        e.allow_expensive_queries.store(self.value("search.allow_expensive_queries") != "false", Ordering::Relaxed);
    }

    /// `GET /_cluster/settings` (`flat_settings`, `include_defaults`).
    pub fn get(&self, flat_settings: bool, include_defaults: bool) -> String {
        let scopes = self.scopes.read().unwrap_or_else(|p| p.into_inner());
        let mut body = json!({
            "persistent": render(&scopes.persistent, flat_settings),
            "transient": render(&scopes.transient, flat_settings),
        });
        if include_defaults {
            let defaults: Map<String, Value> = KNOWN
                .iter()
                .filter(|(k, _, _)| !scopes.persistent.contains_key(*k) && !scopes.transient.contains_key(*k))
                .map(|(k, _, d)| (k.to_string(), json!(d)))
                .collect();
            body["defaults"] = render(&defaults, flat_settings);
        }
        body.to_string()
    }

    /// `PUT /_cluster/settings`: every change is checked before any applies; the answer lists
    /// the values set (not the ones reset), as ES's does.
    pub fn put(&self, body: &[u8], flat_settings: bool) -> Result<String> {
        let request: Value = if body.iter().all(u8::is_ascii_whitespace) {
            json!({})
        } else {
            crate::strict_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))?
        };
        let obj = request.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
        let mut changes: Vec<(&str, Map<String, Value>)> = Vec::new();
        for (scope, value) in obj {
            if scope != "persistent" && scope != "transient" {
                return Err(EngineError::XContentParse(format!(
                    "[cluster_update_settings_request] unknown field [{scope}]"
                )));
            }
            let mut flat = Map::new();
            flatten(value, "", &mut flat);
            flat.remove("");
            let scope = if scope == "persistent" { "persistent" } else { "transient" };
            changes.push((scope, flat));
        }
        if changes.iter().all(|(_, c)| c.is_empty()) {
            return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no settings to update;".into()));
        }
        let mut scopes = self.scopes.write().unwrap_or_else(|p| p.into_inner());
        let (mut persistent, mut transient) = (scopes.persistent.clone(), scopes.transient.clone());
        let mut applied = json!({ "persistent": {}, "transient": {} });
        for (scope, flat) in &changes {
            let target = if *scope == "persistent" { &mut persistent } else { &mut transient };
            for (key, value) in flat {
                if value.is_null() {
                    if let Some(prefix) = key.strip_suffix('*') {
                        target.retain(|k, _| !k.starts_with(prefix));
                    } else if kind_of(key).is_some() {
                        target.remove(key);
                    } else {
                        return Err(not_recognized(scope, key));
                    }
                    continue;
                }
                let (kind, _) = kind_of(key).ok_or_else(|| not_recognized(scope, key))?;
                let text = checked(key, kind, value)?;
                target.insert(key.clone(), json!(text));
                applied[*scope][key] = json!(text);
            }
        }
        if persistent != scopes.persistent {
            let bytes = serde_json::to_vec_pretty(&persistent).map_err(|e| EngineError::Internal(e.to_string()))?;
            crate::store::index::write_atomically(&self.path, &bytes)?;
        }
        scopes.persistent = persistent;
        scopes.transient = transient;
        drop(scopes);
        self.refresh_effective();
        let shown = |scope: &str| render(applied[scope].as_object().unwrap_or(&Map::new()), flat_settings);
        Ok(json!({ "acknowledged": true, "persistent": shown("persistent"), "transient": shown("transient") })
            .to_string())
    }
}

impl super::Engine {
    /// `GET /_cluster/settings`.
    pub fn get_cluster_settings(&self, params: &Map<String, Value>) -> Result<String> {
        Ok(self.cluster.get(param_flag(params, "flat_settings"), param_flag(params, "include_defaults")))
    }

    /// `PUT /_cluster/settings`; the settings that change behaviour take effect now.
    pub fn put_cluster_settings(&self, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let reply = self.cluster.put(body, param_flag(params, "flat_settings"))?;
        self.follow_cluster_settings();
        Ok(reply)
    }

    /// Hands the settings the engine's parts keep to those parts.
    pub(crate) fn follow_cluster_settings(&self) {
        let ms = self.cluster.effective.max_keep_alive_ms.load(Ordering::Relaxed);
        self.contexts.set_max_keep_alive(std::time::Duration::from_millis(ms));
    }

    /// Runs a search (or anything that lowers queries or renders aggregations) under the
    /// cluster's `search.max_buckets` and `search.allow_expensive_queries`.
    pub(crate) fn with_search_limits<T>(&self, f: impl FnOnce() -> T) -> T {
        let e = &self.cluster.effective;
        let buckets = e.max_buckets.load(Ordering::Relaxed);
        let expensive = e.allow_expensive_queries.load(Ordering::Relaxed);
        crate::aggs::bucket_budget::with_limit(buckets, || crate::query::expensive::with_allowed(expensive, f))
    }

    /// `action.destructive_requires_name`: wildcards and `_all` may not name indices to delete
    /// or close.
    pub(crate) fn check_destructive(&self, expression: &str) -> Result<()> {
        if !self.cluster.effective.destructive_requires_name.load(Ordering::Relaxed) {
            return Ok(());
        }
        let wild = expression.is_empty() || expression.split(',').any(|p| p.trim() == "_all" || p.contains('*'));
        if wild {
            return Err(EngineError::IllegalArgument("Wildcard expressions or all indices are not allowed".into()));
        }
        Ok(())
    }
}

fn param_flag(params: &Map<String, Value>, key: &str) -> bool {
    params.get(key).is_some_and(|v| matches!(crate::store::versioning::param_text(v).as_str(), "true" | ""))
}

fn not_recognized(scope: &str, key: &str) -> EngineError {
    EngineError::IllegalArgument(format!("{scope} setting [{key}], not recognized"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_reset_and_persist() {
        let dir = tempfile::tempdir().unwrap();
        let s = ClusterSettings::open(dir.path()).unwrap();
        let put = s
            .put(br#"{"persistent":{"search.max_buckets":3},"transient":{"cluster":{"routing.allocation.enable":"none"}}}"#, true)
            .unwrap();
        let put: Value = serde_json::from_str(&put).unwrap();
        assert_eq!(put["persistent"]["search.max_buckets"], "3");
        assert_eq!(put["transient"]["cluster.routing.allocation.enable"], "none");
        assert_eq!(s.effective.max_buckets.load(Ordering::Relaxed), 3);
        let got: Value = serde_json::from_str(&s.get(false, false)).unwrap();
        assert_eq!(got["transient"]["cluster"]["routing"]["allocation"]["enable"], "none");
        // Persistent survives a reopen, transient does not.
        let again = ClusterSettings::open(dir.path()).unwrap();
        let got: Value = serde_json::from_str(&again.get(true, false)).unwrap();
        assert_eq!(got, json!({"persistent": {"search.max_buckets": "3"}, "transient": {}}));
        s.put(br#"{"persistent":{"search.max_buckets":null}}"#, true).unwrap();
        assert_eq!(s.effective.max_buckets.load(Ordering::Relaxed), 65_535);
    }

    #[test]
    fn refuses_unknown_and_bad_values() {
        let dir = tempfile::tempdir().unwrap();
        let s = ClusterSettings::open(dir.path()).unwrap();
        let err = s.put(br#"{"transient":{"no.such":1}}"#, false).unwrap_err();
        assert_eq!(err.to_string(), "transient setting [no.such], not recognized");
        assert!(s.put(br#"{"transient":{"search.max_keep_alive":"soon"}}"#, false).is_err());
        assert!(s.put(br#"{"transient":{"search.allow_expensive_queries":"maybe"}}"#, false).is_err());
        assert!(s.put(br#"{"transient":{"search.max_buckets":-1}}"#, false).is_err());
        assert!(s.put(b"{}", false).is_err());
        assert!(s.effective.allow_expensive_queries.load(Ordering::Relaxed));
    }
}
