//! Index aliases: names that stand for one or more indices, each with an optional filter, routing
//! and `is_write_index`. Kept in `<data-dir>/aliases.json`, rewritten atomically on every change,
//! so a set of `_aliases` actions applies all at once or not at all.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};

const FILE: &str = "aliases.json";

/// One alias on one index.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AliasDef {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_routing: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_routing: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_write_index: Option<bool>,
    /// A hidden alias: wildcards reach it only when they expand to hidden names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_hidden: Option<bool>,
}

impl AliasDef {
    /// Reads an alias body (`PUT /{index}/_alias/{name}` or an `add` action's options).
    pub fn parse(options: &Map<String, Value>, skip: &[&str]) -> Result<AliasDef> {
        let mut def = AliasDef::default();
        let mut routing = None;
        let text = |k: &str, v: &Value| match v {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            _ => Err(EngineError::Parsing(format!("[{k}] must be a string, got [{v}]"))),
        };
        for (key, value) in options {
            match key.as_str() {
                k if skip.contains(&k) => {}
                "filter" => {
                    // Checked now, as ES does, so a bad filter fails the request, not later searches.
                    crate::query::dsl::parse_query(value)?;
                    def.filter = Some(value.clone());
                }
                // The default of both routings; either given on its own wins.
                "routing" => routing = Some(text(key, value)?),
                "index_routing" => def.index_routing = Some(text(key, value)?),
                "search_routing" => def.search_routing = Some(text(key, value)?),
                "is_write_index" => {
                    def.is_write_index = Some(value.as_bool().ok_or_else(|| {
                        EngineError::Parsing(format!("[is_write_index] must be a boolean, got [{value}]"))
                    })?)
                }
                "is_hidden" => {
                    def.is_hidden =
                        Some(value.as_bool().ok_or_else(|| {
                            EngineError::Parsing(format!("[is_hidden] must be a boolean, got [{value}]"))
                        })?)
                }
                other => {
                    return Err(EngineError::XContentParse(format!("[alias_action] unknown field [{other}]")));
                }
            }
        }
        if let Some(r) = routing {
            def.index_routing.get_or_insert_with(|| r.clone());
            def.search_routing.get_or_insert(r);
        }
        Ok(def)
    }

    /// ES's rendering in `GET _alias` and `GET /{index}`.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|_| json!({}))
    }
}

/// alias -> index -> definition.
pub type AliasMap = BTreeMap<String, BTreeMap<String, AliasDef>>;

pub struct Aliases {
    path: PathBuf,
    map: RwLock<AliasMap>,
    /// Changes made since the engine opened (part of the cluster state's `version`).
    pub changes: std::sync::atomic::AtomicU64,
}

impl Aliases {
    pub fn open(data_dir: &Path) -> Result<Aliases> {
        let path = data_dir.join(FILE);
        let map = match std::fs::read(&path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes).map_err(|e| EngineError::Internal(format!("corrupt {FILE}: {e}")))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => AliasMap::new(),
            Err(e) => return Err(e.into()),
        };
        Ok(Aliases { path, map: RwLock::new(map), changes: Default::default() })
    }

    pub fn snapshot(&self) -> AliasMap {
        self.map.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The indices (and definitions) of `alias`, if it is one.
    pub fn get(&self, alias: &str) -> Option<BTreeMap<String, AliasDef>> {
        self.map.read().unwrap_or_else(|p| p.into_inner()).get(alias).cloned()
    }

    pub fn is_alias(&self, name: &str) -> bool {
        self.map.read().unwrap_or_else(|p| p.into_inner()).contains_key(name)
    }

    /// The aliases of `index`: alias -> definition.
    pub fn of_index(&self, index: &str) -> BTreeMap<String, AliasDef> {
        let map = self.map.read().unwrap_or_else(|p| p.into_inner());
        map.iter().filter_map(|(alias, indices)| indices.get(index).map(|d| (alias.clone(), d.clone()))).collect()
    }

    /// Applies `change` to a copy of the table and stores it; nothing changes if it fails.
    pub fn update(&self, change: impl FnOnce(&mut AliasMap) -> Result<()>) -> Result<()> {
        let mut map = self.map.write().unwrap_or_else(|p| p.into_inner());
        let mut next = map.clone();
        change(&mut next)?;
        next.retain(|_, indices| !indices.is_empty());
        let bytes = serde_json::to_vec_pretty(&next).map_err(|e| EngineError::Internal(e.to_string()))?;
        crate::store::index::write_atomically(&self.path, &bytes)?;
        *map = next;
        self.changes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Forgets every alias of a deleted index.
    pub fn drop_index(&self, index: &str) -> Result<()> {
        if self.of_index(index).is_empty() {
            return Ok(());
        }
        self.update(|map| {
            for indices in map.values_mut() {
                indices.remove(index);
            }
            Ok(())
        })
    }
}

/// ES's 404 for aliases that do not exist.
pub fn aliases_missing(names: &[String]) -> EngineError {
    EngineError::AliasesNotFound(names.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_persist_and_fail_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let aliases = Aliases::open(dir.path()).unwrap();
        aliases
            .update(|m| {
                m.entry("a".into()).or_default().insert("i".into(), AliasDef::default());
                Ok(())
            })
            .unwrap();
        let failed = aliases.update(|m| {
            m.clear();
            Err(EngineError::IllegalArgument("no".into()))
        });
        assert!(failed.is_err());
        assert!(Aliases::open(dir.path()).unwrap().is_alias("a"));
        aliases.drop_index("i").unwrap();
        assert!(!Aliases::open(dir.path()).unwrap().is_alias("a"));
    }

    #[test]
    fn parses_routing_and_filters() {
        let options = json!({"routing": "1", "filter": {"term": {"tag": "b"}}, "is_write_index": true});
        let def = AliasDef::parse(options.as_object().unwrap(), &[]).unwrap();
        assert_eq!(def.to_json()["index_routing"], "1");
        assert_eq!(def.to_json()["search_routing"], "1");
        assert!(AliasDef::parse(json!({"colour": 1}).as_object().unwrap(), &[]).is_err());
    }
}
