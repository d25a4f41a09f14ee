//! Index templates: legacy ones (`_template`, `legacy.rs`), composable index templates and the
//! component templates they are composed of (`_index_template`, `_component_template`,
//! `composable.rs`), applied when an index is created (`apply.rs`) and simulated
//! (`simulate.rs`). All three kinds live in `<data-dir>/templates.json`, rewritten atomically
//! on every change, so they survive a restart as the rest of the engine's metadata does.

mod apply;
mod cat;
mod composable;
mod legacy;
pub(crate) mod patterns;
mod simulate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::aliases::AliasDef;
use crate::error::{EngineError, Result};
use crate::store::settings::insert_dotted;

pub(crate) use apply::resolve;

const FILE: &str = "templates.json";

/// Settings, mappings and aliases: the part of a template an index is created from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Template {
    /// Flat, `index.`-prefixed, values as text (ES normalizes template settings so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mappings: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aliases: Option<BTreeMap<String, AliasDef>>,
}

/// A legacy template (`PUT /_template/{name}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegacyTemplate {
    pub order: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    pub index_patterns: Vec<String>,
    pub template: Template,
}

/// A component template (`PUT /_component_template/{name}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComponentTemplate {
    pub template: Template,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// A composable index template (`PUT /_index_template/{name}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComposableTemplate {
    pub index_patterns: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    #[serde(default)]
    pub composed_of: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

impl ComposableTemplate {
    pub fn priority_or_zero(&self) -> i64 {
        self.priority.unwrap_or(0)
    }
}

/// Every template, by kind and name.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TemplateSet {
    #[serde(default)]
    pub legacy: BTreeMap<String, LegacyTemplate>,
    #[serde(default)]
    pub composable: BTreeMap<String, ComposableTemplate>,
    #[serde(default)]
    pub component: BTreeMap<String, ComponentTemplate>,
}

pub struct Templates {
    path: PathBuf,
    set: RwLock<TemplateSet>,
}

impl Templates {
    pub fn open(data_dir: &Path) -> Result<Templates> {
        let path = data_dir.join(FILE);
        let set = match std::fs::read(&path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes).map_err(|e| EngineError::Internal(format!("corrupt {FILE}: {e}")))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => TemplateSet::default(),
            Err(e) => return Err(e.into()),
        };
        Ok(Templates { path, set: RwLock::new(set) })
    }

    pub fn snapshot(&self) -> TemplateSet {
        self.set.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Whether any template exists (index creation skips template matching when none does).
    pub fn is_empty(&self) -> bool {
        let set = self.set.read().unwrap_or_else(|p| p.into_inner());
        set.legacy.is_empty() && set.composable.is_empty()
    }

    /// Applies `change` to a copy of the set and stores it; nothing changes if it fails.
    pub fn update<T>(&self, change: impl FnOnce(&mut TemplateSet) -> Result<T>) -> Result<T> {
        let mut set = self.set.write().unwrap_or_else(|p| p.into_inner());
        let mut next = set.clone();
        let out = change(&mut next)?;
        let bytes = serde_json::to_vec_pretty(&next).map_err(|e| EngineError::Internal(e.to_string()))?;
        crate::store::index::write_atomically(&self.path, &bytes)?;
        *set = next;
        Ok(out)
    }
}

/// An index creation request's settings flattened under `index.`, values as given.
pub(crate) fn prefixed_settings(settings: &Value) -> Map<String, Value> {
    let mut flat = Map::new();
    if settings.is_object() {
        flatten(settings, "", &mut flat);
    }
    flat.into_iter().map(|(k, v)| (if k.starts_with("index.") { k } else { format!("index.{k}") }, v)).collect()
}

/// Template settings as ES keeps them: flattened, every key under `index.`, values as text.
pub(crate) fn normalize_settings(settings: &Value) -> Result<Map<String, Value>> {
    let mut flat = Map::new();
    if settings.is_null() {
        return Ok(flat);
    }
    if !settings.is_object() {
        return Err(EngineError::IllegalArgument("settings must be an object".into()));
    }
    flatten(settings, "", &mut flat);
    // The engine's own validation of index settings: a template must be one an index accepts.
    let bare: Map<String, Value> =
        flat.iter().map(|(k, v)| (k.strip_prefix("index.").unwrap_or(k).to_string(), v.clone())).collect();
    crate::store::settings::IndexSettings::parse(&Value::Object(bare))?;
    Ok(flat
        .into_iter()
        .map(|(k, v)| {
            let key = if k.starts_with("index.") { k } else { format!("index.{k}") };
            (key, as_setting_text(v))
        })
        .collect())
}

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

/// A setting value as ES stores it: text, or a list of texts.
fn as_setting_text(value: Value) -> Value {
    match value {
        Value::String(_) | Value::Null => value,
        Value::Array(items) => Value::Array(items.into_iter().map(as_setting_text).collect()),
        other => Value::String(other.to_string()),
    }
}

/// Settings as GET shows them: flat (`flat_settings`) or nested.
pub(crate) fn render_settings(flat: &Map<String, Value>, flat_settings: bool) -> Value {
    if flat_settings {
        return Value::Object(flat.clone());
    }
    let mut nested = Map::new();
    for (key, value) in flat {
        insert_dotted(&mut nested, key, value.clone());
    }
    Value::Object(nested)
}

/// Aliases of a template body (`aliases: {name: {filter, routing, ...}}`).
pub(crate) fn parse_aliases(value: &Value, patterns: &[String]) -> Result<BTreeMap<String, AliasDef>> {
    let list = value.as_object().ok_or_else(|| EngineError::Parsing("[aliases] must be an object".into()))?;
    let mut out = BTreeMap::new();
    for (name, options) in list {
        if patterns.iter().any(|p| p == name) {
            return Err(EngineError::IllegalArgument(format!(
                "alias [{name}] cannot be the same as any pattern in [{}]",
                patterns.join(", ")
            )));
        }
        let empty = Map::new();
        out.insert(name.clone(), AliasDef::parse(options.as_object().unwrap_or(&empty), &[])?);
    }
    Ok(out)
}

/// `index_patterns`: one pattern or a list.
pub(crate) fn parse_patterns(value: &Value) -> Result<Vec<String>> {
    match value {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| EngineError::Parsing("[index_patterns] must hold strings".into()))
            })
            .collect(),
        other => Err(EngineError::Parsing(format!("[index_patterns] must be a string or a list, got [{other}]"))),
    }
}

/// ES's checks of a template's name and patterns (all problems in one error).
pub(crate) fn validate_name_and_patterns(name: &str, patterns: &[String]) -> Result<()> {
    let mut problems = Vec::new();
    for (bad, what) in [(" ", "a space"), (",", "a ','"), ("#", "a '#'"), ("*", "a '*'")] {
        if name.contains(bad) {
            problems.push(format!("name must not contain {what}"));
        }
    }
    if name.starts_with('_') {
        problems.push("name must not start with '_'".into());
    }
    if name.to_lowercase() != name {
        problems.push("name must be lower cased".into());
    }
    for p in patterns {
        if p.contains(' ') {
            problems.push(format!("index_patterns [{p}] must not contain a space"));
        }
        for (bad, what) in [(",", "a ','"), ("#", "a '#'"), (":", "a ':'")] {
            if p.contains(bad) {
                problems.push(format!("index_pattern [{p}] must not contain {what}"));
            }
        }
        if p.starts_with('_') {
            problems.push(format!("index_pattern [{p}] must not start with '_'"));
        }
        if p.contains(['\\', '/', '?', '"', '<', '>', '|']) {
            problems.push(format!(
                "index_pattern [{p}] must not contain the following characters [ , \", *, \\, <, |, ,, >, /, ?]"
            ));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = problems.iter().enumerate().map(|(i, p)| format!("{}: {p};", i + 1)).collect();
    Err(EngineError::InvalidIndexTemplate {
        name: name.to_string(),
        reason: format!("Validation Failed: {}", listed.join("")),
    })
}

/// A template's mappings checked as an index would take them; `{}` and `null` are none.
pub(crate) fn checked_mappings(value: &Value) -> Result<Option<Value>> {
    if value.is_null() {
        return Ok(None);
    }
    if !value.is_object() {
        return Err(EngineError::MapperParsing("Failed to parse mapping: mappings must be an object".into()));
    }
    crate::store::mapping::Mapping::from_mappings_json(value)?;
    Ok(Some(value.clone()))
}

/// The `template` object of composable and component templates, as GET shows it.
pub(crate) fn render_template(t: &Template, flat_settings: bool) -> Value {
    let mut out = Map::new();
    if let Some(settings) = &t.settings {
        out.insert("settings".into(), render_settings(settings, flat_settings));
    }
    if let Some(mappings) = &t.mappings {
        out.insert("mappings".into(), crate::store::mapping_update::render(mappings));
    }
    if let Some(aliases) = &t.aliases {
        let shown: Map<String, Value> = aliases.iter().map(|(k, v)| (k.clone(), v.to_json())).collect();
        out.insert("aliases".into(), Value::Object(shown));
    }
    Value::Object(out)
}

/// The `template` object of a composable or component template body.
pub(crate) fn parse_template(value: &Value, patterns: &[String]) -> Result<Template> {
    let obj = value.as_object().ok_or_else(|| EngineError::Parsing("[template] must be an object".into()))?;
    let mut t = Template::default();
    for (key, v) in obj {
        match key.as_str() {
            "settings" => t.settings = Some(normalize_settings(v)?),
            "mappings" => t.mappings = checked_mappings(v)?,
            "aliases" => t.aliases = Some(parse_aliases(v, patterns)?),
            other => return Err(EngineError::XContentParse(format!("[template] unknown field [{other}]"))),
        }
    }
    Ok(t)
}

/// A number field of a template body.
pub(crate) fn parse_long(key: &str, value: &Value) -> Result<i64> {
    value
        .as_i64()
        .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| EngineError::XContentParse(format!("[{key}] failed to parse field [{key}]: [{value}]")))
}

/// Names matching one of the comma-separated `patterns` (`*` wildcards; `_all` or none: every name).
pub(crate) fn names_matching<'a, T>(map: &'a BTreeMap<String, T>, patterns: Option<&str>) -> Vec<(&'a String, &'a T)> {
    let list: Vec<&str> = patterns.map(|p| p.split(',').map(str::trim).collect()).unwrap_or_default();
    map.iter()
        .filter(|(name, _)| list.is_empty() || list.iter().any(|p| *p == "_all" || patterns::matches(p, name)))
        .collect()
}

/// `{"acknowledged": true}`.
pub(crate) fn acknowledged() -> String {
    json!({ "acknowledged": true }).to_string()
}
