//! Index management: create (with `aliases`), delete (lists; never through an alias), get and
//! exists (aliases and expressions), refresh (every index the expression names), and searches
//! whose path is an expression rather than one index (`search_expression`).

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::names::validate_index_name;

use super::aliases::AliasDef;
use super::resolve::ResolveOptions;
use crate::store::versioning::param_text;

/// The version `index.version.created` stands for, as `human` shows it.
const CREATED_VERSION: &str = "8.15.0";
use super::{parse_json_body, uri_query, Engine, INDICES_DIR};

/// The directory an index lives in: its name, with `%` and NUL escaped (ES accepts a NUL in an
/// index name; a file system does not). The name itself is kept in the index's meta file.
pub(super) fn dir_name(name: &str) -> String {
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
        if self.get_meta(name).is_ok() || self.aliases.is_alias(name) {
            return Ok(true);
        }
        let mut params = params.clone();
        let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
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
        self.create_index_warned(name, body).map(|(body, _)| body)
    }

    /// `PUT /{index}`: the matching templates apply under the request's own settings, mappings
    /// and aliases; the answer comes with the warnings ES would send.
    pub fn create_index_warned(&self, name: &str, body: &[u8]) -> Result<(String, Vec<String>)> {
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
        let mut warnings = Vec::new();
        if !self.templates.is_empty() {
            let set = self.templates.snapshot();
            let prefixed = super::templates::prefixed_settings(&settings);
            let resolved = super::templates::resolve(&set, name, prefixed, mappings, aliases);
            settings = Value::Object(resolved.settings);
            mappings = resolved.mappings;
            aliases = resolved.aliases;
            warnings = resolved.warnings;
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
        self.metadata_changed();
        if !aliases.is_empty() {
            self.aliases.update(|map| {
                for (alias, def) in aliases {
                    map.entry(alias).or_default().insert(name.to_string(), def);
                }
                Ok(())
            })?;
        }
        Ok((json!({ "acknowledged": true, "shards_acknowledged": true, "index": name }).to_string(), warnings))
    }

    /// `DELETE /{index}`: a name, or a comma list of names; an alias is refused (ES names the
    /// concrete indices it wants deleted).
    pub fn delete_index(&self, name: &str) -> Result<String> {
        self.delete_indices(name, false)
    }

    /// `DELETE /{index}` with `ignore_unavailable`.
    pub fn delete_indices(&self, name: &str, ignore_unavailable: bool) -> Result<String> {
        let mut params = Map::new();
        if ignore_unavailable {
            params.insert("ignore_unavailable".into(), json!("true"));
        }
        self.delete_indices_with(name, &params)
    }

    /// `DELETE /{index}` with its resolution options: wildcards expand to open and closed
    /// indices (never to aliases; a named alias is refused), unless
    /// `action.destructive_requires_name` asks for names.
    pub fn delete_indices_with(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        self.check_destructive(name)?;
        let mut params = params.clone();
        let base = ResolveOptions { ignore_aliases: true, ..ResolveOptions::open_and_closed() };
        let options = ResolveOptions::take_over(&mut params, base)?;
        let names: Vec<String> = self.resolve(name, options)?.into_iter().map(|t| t.index).collect();
        for n in &names {
            let handle = self.get_meta(n)?;
            handle.settings.blocks.check_delete(n)?;
        }
        for n in names {
            let Some(handle) = self.shared.indices.write().unwrap_or_else(|p| p.into_inner()).remove(&n) else {
                continue;
            };
            let dir = handle.dir().to_path_buf();
            drop(handle);
            self.metadata_changed();
            std::fs::remove_dir_all(&dir)?;
            self.aliases.drop_index(&n)?;
        }
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `GET /{index}`: every index the expression names, with aliases, mappings and settings.
    pub fn get_index(&self, name: &str) -> Result<String> {
        self.get_index_with(name, &Map::new())
    }

    /// `GET /{index}` with its URL parameters: the resolution options (open indices by default,
    /// a named closed one shown too), `flat_settings`, and `human` (dates and versions also as
    /// text).
    pub fn get_index_with(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
        let flag = |k: &str| params.get(k).is_some_and(|v| matches!(param_text(v).as_str(), "true" | ""));
        let (flat, human) = (flag("flat_settings"), flag("human"));
        // Accepted with nothing to change on one node: `local`, `master_timeout`, and
        // `include_defaults` (the defaults we honour are listed by `_settings`).
        for key in ["flat_settings", "human", "local", "master_timeout", "include_defaults"] {
            params.remove(key);
        }
        if let Some(other) = params.keys().next() {
            return Err(EngineError::IllegalArgument(format!(
                "request [/{name}] contains unrecognized parameter: [{other}]"
            )));
        }
        let targets = self.resolve(name, options)?;
        let mut out = Map::new();
        for target in targets {
            let h = self.get_meta(&target.index)?;
            h.settings.blocks.check(&h.name, crate::store::blocks::Level::MetadataRead)?;
            let mut mappings = crate::store::mapping_update::render(&h.mappings_json);
            crate::knn::render_mappings(&mut mappings, &h.mapping.vectors);
            let aliases: Map<String, Value> =
                self.aliases.of_index(&target.index).into_iter().map(|(a, d)| (a, d.to_json())).collect();
            let mut settings = h.settings.flat(&h.uuid, &h.name, h.creation_date);
            if human {
                settings
                    .insert("index.creation_date_string".into(), json!(crate::date::format_millis(h.creation_date)));
                settings.insert("index.version.created_string".into(), json!(CREATED_VERSION));
            }
            let settings = if flat {
                Value::Object(settings)
            } else {
                let mut nested = Map::new();
                for (key, value) in settings {
                    crate::store::settings::insert_dotted(&mut nested, &key, value);
                }
                Value::Object(nested)
            };
            out.insert(target.index.clone(), json!({ "aliases": aliases, "mappings": mappings, "settings": settings }));
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
        let mut layouts = Vec::new();
        for index in &targets {
            let handle = self.get(index)?;
            handle.refresh()?;
            layouts.push(super::stats::layout::ShardLayout::of(&handle.settings));
        }
        Ok(json!({ "_shards": super::stats::layout::shards_header(&layouts) }).to_string())
    }

    /// Every target is open and readable: a closed or read-blocked index among them fails the
    /// whole search, as in ES (not as one shard failure among others).
    pub(crate) fn searchable(&self, targets: &[super::resolve::Target]) -> Result<()> {
        for target in targets {
            self.get_for(&target.index, crate::store::blocks::Level::Read)?;
        }
        Ok(())
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
        self.searchable(&targets)?;
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
