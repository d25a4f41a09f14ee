//! `GET [/{index}]/_settings[/{names}]` (`flat_settings`, `include_defaults`), `PUT
//! /{index}/_settings` (dynamic settings only) and `_flush`.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::error::{json_syntax_error, EngineError, Result};
use crate::store::blocks::Level;
use crate::store::settings::{insert_dotted, IndexSettings};
use crate::store::versioning::param_text;

use super::resolve::ResolveOptions;
use super::Engine;
use crate::wildcard::glob;

/// What `include_defaults` shows: the defaults of the settings this engine honours.
fn defaults() -> Map<String, Value> {
    let d = IndexSettings::default();
    let mut out = Map::new();
    out.insert("index.refresh_interval".into(), json!("1s"));
    out.insert("index.max_result_window".into(), json!(d.max_result_window.to_string()));
    out.insert("index.mapping.total_fields.limit".into(), json!(d.total_fields_limit.to_string()));
    out.insert("index.requests.cache.enable".into(), json!("true"));
    out
}

fn render(flat: Map<String, Value>, flat_settings: bool) -> Value {
    if flat_settings {
        return Value::Object(flat);
    }
    let mut nested = Map::new();
    for (key, value) in flat {
        insert_dotted(&mut nested, &key, value);
    }
    Value::Object(nested)
}

fn flag(params: &Map<String, Value>, key: &str) -> bool {
    params.get(key).is_some_and(|v| matches!(param_text(v).as_str(), "true" | ""))
}

/// A change of one block setting alone, which ES lets through the blocks themselves so a
/// read-only or metadata block can be lifted.
fn only_unblocks(changes: &Value) -> bool {
    let mut flat = Map::new();
    crate::store::settings::flatten_into(changes, &mut flat);
    flat.len() == 1
        && flat
            .keys()
            .all(|k| matches!(k.as_str(), "blocks.read_only" | "blocks.metadata" | "blocks.read_only_allow_delete"))
}

impl Engine {
    /// `GET [/{index}]/_settings[/{names}]`.
    pub fn get_settings(&self, index: &str, names: Option<&str>, params: &Map<String, Value>) -> Result<String> {
        let (flat_settings, with_defaults) = (flag(params, "flat_settings"), flag(params, "include_defaults"));
        let mut params = params.clone();
        let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
        let patterns: Option<Vec<&str>> = names.map(|n| n.split(',').collect());
        let wanted = |key: &str| patterns.as_ref().is_none_or(|ps| ps.iter().any(|p| *p == "_all" || glob(p, key)));
        let mut out = Map::new();
        for target in self.resolve(index, options)? {
            let h = self.get_meta(&target.index)?;
            h.settings.blocks.check(&h.name, Level::MetadataRead)?;
            let flat: Map<String, Value> =
                h.settings.flat(&h.uuid, &h.name, h.creation_date).into_iter().filter(|(k, _)| wanted(k)).collect();
            if patterns.is_some() && flat.is_empty() {
                continue;
            }
            let mut entry = json!({ "settings": render(flat, flat_settings) });
            if with_defaults {
                let given = h.settings.flat(&h.uuid, &h.name, h.creation_date);
                let d: Map<String, Value> =
                    defaults().into_iter().filter(|(k, _)| !given.contains_key(k) && wanted(k)).collect();
                entry["defaults"] = render(d, flat_settings);
            }
            out.insert(target.index, entry);
        }
        Ok(Value::Object(out).to_string())
    }

    /// `PUT /{index}/_settings`: every index the expression names takes the change.
    pub fn put_settings(&self, index: &str, body: &[u8]) -> Result<String> {
        self.put_settings_with(index, body, &Map::new())
    }

    /// `PUT /{index}/_settings` with its URL parameters: the resolution options (open and closed
    /// indices by default; a closed index may change its static settings too) and
    /// `preserve_existing`.
    pub fn put_settings_with(&self, index: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let base = ResolveOptions { allow_no_indices: false, ..ResolveOptions::open_and_closed() };
        let options = ResolveOptions::take_over(&mut params, base)?;
        let preserve_existing = flag(&params, "preserve_existing");
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(EngineError::RequestBodyRequired);
        }
        let changes: Value = crate::strict_json::from_slice(body).map_err(|e| json_syntax_error(&e))?;
        let changes = changes.get("settings").cloned().unwrap_or(changes);
        let targets = self.resolve(index, options)?;
        let _one_at_a_time = self.mapping_updates.lock().unwrap_or_else(|p| p.into_inner());
        // Every index must accept the change before any takes it.
        let mut next = Vec::new();
        for target in &targets {
            let h = self.get_meta(&target.index)?;
            if !only_unblocks(&changes) {
                h.settings.blocks.check(&h.name, Level::MetadataWrite)?;
            }
            let (settings, stored) = h.settings.update_with(&changes, &h.name, &h.uuid, h.closed, preserve_existing)?;
            next.push((h, settings, stored));
        }
        for (h, settings, stored) in next {
            let swapped = Arc::new(h.with_settings(settings, &stored)?);
            self.shared.indices.write().unwrap_or_else(|p| p.into_inner()).insert(h.name.clone(), swapped);
            self.metadata_changed();
        }
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `_flush`: pending writes committed (durable without the translog), not made visible.
    pub fn flush(&self, index: &str) -> Result<String> {
        self.flush_with(index, &Map::new())
    }

    /// `_flush` with its URL parameters: the resolution options, `force` and `wait_if_ongoing`
    /// (one flush at a time per index here, so a flush always waits for one in progress).
    pub fn flush_with(&self, index: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let flag = |key: &str, default: bool| -> Result<bool> {
            match params.get(key).map(param_text).as_deref() {
                None => Ok(default),
                Some("true") | Some("") => Ok(true),
                Some("false") => Ok(false),
                Some(other) => Err(EngineError::IllegalArgument(format!(
                    "Failed to parse value [{other}] as only [true] or [false] are allowed."
                ))),
            }
        };
        if flag("force", false)? && !flag("wait_if_ongoing", true)? {
            return Err(EngineError::ActionRequestValidation(
                "Validation Failed: 1: wait_if_ongoing must be true for a force flush;".into(),
            ));
        }
        let targets = self.resolve(index, options)?;
        let mut layouts = Vec::new();
        for target in &targets {
            let handle = self.get(&target.index)?;
            handle.flush()?;
            layouts.push(super::stats::layout::ShardLayout::of(&handle.settings));
        }
        Ok(json!({ "_shards": super::stats::layout::shards_header(&layouts) }).to_string())
    }
}
