//! `PUT|POST /{index}/_clone/{target}`: a new index holding the source's documents, mappings
//! and settings (the body's settings over them; templates do not apply), as ES clones a
//! write-blocked index. One shard here, so the target's shard count must be the source's.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::names::validate_index_name;

use super::aliases::AliasDef;
use super::{Engine, INDICES_DIR};

impl Engine {
    /// `PUT|POST /{index}/_clone/{target}` (body: `settings`, `aliases`).
    pub fn clone_index(&self, source: &str, target: &str, body: &[u8]) -> Result<String> {
        let request: Value = if body.iter().all(u8::is_ascii_whitespace) {
            json!({})
        } else {
            crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?
        };
        let obj = request.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
        let (mut settings, mut aliases) = (Map::new(), Vec::new());
        for (key, value) in obj {
            match key.as_str() {
                "settings" => {
                    settings = super::templates::prefixed_settings(value)
                        .into_iter()
                        .map(|(k, v)| (k.trim_start_matches("index.").to_string(), v))
                        .collect()
                }
                "aliases" => {
                    let list =
                        value.as_object().ok_or_else(|| EngineError::Parsing("[aliases] must be an object".into()))?;
                    for (alias, options) in list {
                        let empty = Map::new();
                        aliases.push((alias.clone(), AliasDef::parse(options.as_object().unwrap_or(&empty), &[])?));
                    }
                }
                other => return Err(EngineError::XContentParse(format!("[resize] unknown field [{other}]"))),
            }
        }
        let src = self.get(source)?;
        if let Some(shards) = settings.get("number_of_shards") {
            let asked = crate::store::versioning::param_text(shards);
            if asked != src.settings.number_of_shards.to_string() {
                return Err(EngineError::IllegalArgument(format!(
                    "the number of target shards ({asked}) must be the same as the number of source shards ({})",
                    src.settings.number_of_shards
                )));
            }
        }
        validate_index_name(target)?;
        if self.get_meta(target).is_ok() || self.aliases.is_alias(target) {
            return Err(EngineError::IndexAlreadyExists(target.to_string()));
        }
        if !src.settings.given.get("blocks.write").is_some_and(|v| v == true || v == "true") {
            return Err(EngineError::IllegalState(format!(
                "index {source} must be read-only to resize index. use \"index.blocks.write=true\""
            )));
        }
        let mut merged = src.settings.given.clone();
        merged.extend(settings);
        let merged = Value::Object(merged);
        crate::store::settings::IndexSettings::parse(&merged)?;
        // Copied outside the indices' lock (searches go on meanwhile), then registered.
        let dir = self.shared.data_dir.join(INDICES_DIR).join(super::indices::dir_name(target));
        let handle: IndexHandle = match src.copy_to(&dir, target, &merged) {
            Ok(h) => h,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                return Err(e);
            }
        };
        {
            let mut indices = self.shared.indices.write().unwrap_or_else(|p| p.into_inner());
            if indices.contains_key(target) {
                drop(handle);
                let _ = std::fs::remove_dir_all(&dir);
                return Err(EngineError::IndexAlreadyExists(target.to_string()));
            }
            indices.insert(target.to_string(), Arc::new(handle));
        }
        if !aliases.is_empty() {
            self.aliases.update(|map| {
                for (alias, def) in aliases {
                    map.entry(alias).or_default().insert(target.to_string(), def);
                }
                Ok(())
            })?;
        }
        Ok(json!({ "acknowledged": true, "shards_acknowledged": true, "index": target }).to_string())
    }
}
