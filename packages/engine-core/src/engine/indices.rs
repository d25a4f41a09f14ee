//! Index management: create (with `aliases`), delete (lists; never through an alias), get and
//! exists (aliases and expressions), refresh (every index the expression names), and searches
//! whose path is an expression rather than one index (`search_expression`).

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::names::validate_index_name;

use super::aliases::AliasDef;
use super::resolve::{is_plain, ResolveOptions};
use super::{parse_json_body, uri_query, Engine, INDICES_DIR};

/// The directory an index lives in: its name, with `%` and NUL escaped (ES accepts a NUL in an
/// index name; a file system does not). The name itself is kept in the index's meta file.
fn dir_name(name: &str) -> String {
    if name.contains(['%', '\0']) {
        name.replace('%', "%25").replace('\0', "%00")
    } else {
        name.to_string()
    }
}

impl Engine {
    /// An index, an alias, or an expression naming at least one index.
    pub fn index_exists(&self, name: &str) -> bool {
        self.index_exists_with(name, &Map::new()).unwrap_or(false)
    }

    /// `HEAD /{index}`: an index or an alias; an expression exists when it resolves (a wildcard
    /// matching nothing does, as in ES; `ignore_unavailable` skips missing names).
    pub fn index_exists_with(&self, name: &str, params: &Map<String, Value>) -> Result<bool> {
        if self.get(name).is_ok() || self.aliases.is_alias(name) {
            return Ok(true);
        }
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        // Accepted and without effect on one node: `local`, and the rendering options of GET.
        for key in ["local", "flat_settings", "include_defaults"] {
            params.remove(key);
        }
        if let Some(other) = params.keys().next() {
            return Err(EngineError::IllegalArgument(format!(
                "request [/{name}] contains unrecognized parameter: [{other}]"
            )));
        }
        Ok(self.resolve(name, options).is_ok())
    }

    pub fn create_index(&self, name: &str, body: &[u8]) -> Result<String> {
        validate_index_name(name)?;
        if self.aliases.is_alias(name) {
            return Err(EngineError::InvalidIndexName {
                index: name.to_string(),
                reason: format!("Invalid index name [{name}], already exists as alias"),
            });
        }
        let body = parse_json_body(body)?;
        let mut settings = Value::Null;
        let mut mappings = Value::Null;
        let mut aliases: Vec<(String, AliasDef)> = Vec::new();
        for (key, value) in body.as_object().into_iter().flatten() {
            match key.as_str() {
                "settings" => settings = value.clone(),
                "mappings" => mappings = value.clone(),
                "aliases" => {
                    let list =
                        value.as_object().ok_or_else(|| EngineError::Parsing("[aliases] must be an object".into()))?;
                    for (alias, options) in list {
                        let empty = Map::new();
                        aliases.push((alias.clone(), AliasDef::parse(options.as_object().unwrap_or(&empty), &[])?));
                    }
                }
                other => return Err(EngineError::Parse(format!("unknown key [{other}] for create index"))),
            }
        }
        {
            let mut indices = self.shared.indices.write().unwrap_or_else(|p| p.into_inner());
            if indices.contains_key(name) {
                return Err(EngineError::IndexAlreadyExists(name.to_string()));
            }
            let dir = self.shared.data_dir.join(INDICES_DIR).join(dir_name(name));
            if dir.exists() {
                // Left over from an interrupted create or delete: it holds nothing acknowledged.
                std::fs::remove_dir_all(&dir)?;
            }
            let handle = match IndexHandle::create(&dir, name, &settings, &mappings) {
                Ok(h) => h,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&dir);
                    return Err(e);
                }
            };
            indices.insert(name.to_string(), Arc::new(handle));
        }
        if !aliases.is_empty() {
            self.aliases.update(|map| {
                for (alias, def) in aliases {
                    map.entry(alias).or_default().insert(name.to_string(), def);
                }
                Ok(())
            })?;
        }
        Ok(json!({ "acknowledged": true, "shards_acknowledged": true, "index": name }).to_string())
    }

    /// `DELETE /{index}`: a name, or a comma list of names; an alias is refused (ES names the
    /// concrete indices it wants deleted).
    pub fn delete_index(&self, name: &str) -> Result<String> {
        self.delete_indices(name, false)
    }

    /// `DELETE /{index}` with `ignore_unavailable`. As ES 8 (`action.destructive_requires_name`
    /// is on by default there), wildcards and `_all` are refused: a delete names its indices.
    pub fn delete_indices(&self, name: &str, ignore_unavailable: bool) -> Result<String> {
        if name.contains('*') || name == "_all" {
            return Err(EngineError::IllegalArgument("Wildcard expressions or all indices are not allowed".into()));
        }
        let names: Vec<&str> = name
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty() && (!ignore_unavailable || self.get(n).is_ok()))
            .collect();
        for n in &names {
            if self.get(n).is_err() {
                if self.aliases.is_alias(n) {
                    return Err(EngineError::IllegalArgument(format!(
                        "The provided expression [{n}] matches an alias, specify the corresponding concrete indices instead."
                    )));
                }
                return Err(EngineError::IndexNotFound(n.to_string()));
            }
        }
        for n in names {
            let Some(handle) = self.shared.indices.write().unwrap_or_else(|p| p.into_inner()).remove(n) else {
                continue;
            };
            let dir = handle.dir().to_path_buf();
            drop(handle);
            std::fs::remove_dir_all(&dir)?;
            self.aliases.drop_index(n)?;
        }
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `GET /{index}`: every index the expression names, with aliases, mappings and settings.
    pub fn get_index(&self, name: &str) -> Result<String> {
        let options = ResolveOptions { allow_no_indices: is_plain(name) || name.contains('*'), ..Default::default() };
        let targets = self.resolve(name, options)?;
        let mut out = Map::new();
        for target in targets {
            let h = self.get(&target.index)?;
            let mut mappings = crate::store::mapping_update::render(&h.mappings_json);
            crate::knn::render_mappings(&mut mappings, &h.mapping);
            let aliases: Map<String, Value> =
                self.aliases.of_index(&target.index).into_iter().map(|(a, d)| (a, d.to_json())).collect();
            out.insert(
                target.index.clone(),
                json!({
                    "aliases": aliases,
                    "mappings": mappings,
                    "settings": h.settings.to_json(&h.uuid, &h.name, h.creation_date),
                }),
            );
        }
        Ok(Value::Object(out).to_string())
    }

    /// `_refresh` of every index `name` names (all of them for an empty name).
    pub fn refresh(&self, name: &str) -> Result<String> {
        self.refresh_with(name, &Map::new())
    }

    /// `_refresh` with the resolution options (`ignore_unavailable`, ...).
    pub fn refresh_with(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        if let Some(other) = params.keys().next() {
            return Err(EngineError::IllegalArgument(format!(
                "request [/{name}/_refresh] contains unrecognized parameter: [{other}]"
            )));
        }
        let targets = if self.get(name).is_ok() {
            vec![name.to_string()]
        } else {
            self.resolve(name, options)?.into_iter().map(|t| t.index).collect()
        };
        for index in &targets {
            self.get(index)?.refresh()?;
        }
        let n = targets.len();
        Ok(json!({ "_shards": { "total": n * 2, "successful": n, "failed": 0 } }).to_string())
    }

    /// A search whose path names several indices, an alias, or carries resolution options.
    pub(crate) fn search_expression(
        &self,
        name: &str,
        body: &[u8],
        params: &Map<String, Value>,
        cheap_only: bool,
    ) -> Result<Option<String>> {
        // ES checks these while parsing the request, before it resolves any index.
        for (key, value) in params {
            crate::search::options::check_shard_count_param(key, value)?;
        }
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let targets = self.resolve(name, options)?;
        let boosted = self.resolve_indices_boost(body, options)?;
        let body = boosted.as_deref().unwrap_or(body);
        if let [one] = targets.as_slice() {
            if one.filter.is_none() {
                return if cheap_only {
                    self.search_if_cheap(&one.index, body, &params)
                } else {
                    self.search(&one.index, body, &params).map(Some)
                };
            }
        }
        let uri = uri_query::for_search(body, &params)?;
        self.search_targets(&targets, &uri.body, &uri.params).map(Some)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn directory_names_escape_nul_and_percent() {
        assert_eq!(super::dir_name("logs"), "logs");
        assert_eq!(super::dir_name("a\0b"), "a%00b");
        assert_eq!(super::dir_name("a%00b"), "a%2500b");
    }
}
