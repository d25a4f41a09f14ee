//! Legacy index templates: `PUT|GET|HEAD|DELETE /_template/{name}`. A legacy template has
//! `index_patterns`, an `order` (templates that match an index apply lowest order first, so a
//! higher order wins), an optional `version`, and the settings, mappings and aliases it gives.

use serde_json::{json, Map, Value};

use super::patterns::{is_match_all, overlap};
use super::{
    acknowledged, checked_mappings, names_matching, normalize_settings, parse_aliases, parse_long, parse_patterns,
    render_settings, validate_name_and_patterns, LegacyTemplate, Template, TemplateSet,
};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::store::versioning::param_text;

fn flag(params: &Map<String, Value>, key: &str) -> bool {
    params.get(key).is_some_and(|v| matches!(param_text(v).as_str(), "true" | ""))
}

/// A Java list as ES prints it in messages: `[a, b]`.
pub(super) fn java_list(items: &[String]) -> String {
    format!("[{}]", items.join(", "))
}

/// Other templates' names and patterns as ES lists overlaps: `a,b` and `a => [x],b => [y]`.
pub(super) fn overlap_texts<'a>(found: impl Iterator<Item = (&'a String, &'a Vec<String>)>) -> (String, String) {
    let found: Vec<(&String, &Vec<String>)> = found.collect();
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    let patterns: Vec<String> = found.iter().map(|(n, p)| format!("{n} => {}", java_list(p))).collect();
    (names.join(","), patterns.join(","))
}

fn parse(name: &str, body: &[u8], params: &Map<String, Value>) -> Result<LegacyTemplate> {
    let body: Value = if body.iter().all(u8::is_ascii_whitespace) {
        return Err(EngineError::RequestBodyRequired);
    } else {
        crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?
    };
    let obj = body.as_object().ok_or_else(|| EngineError::Parsing("template body must be an object".into()))?;
    let mut patterns = None;
    let (mut order, mut version) = (0, None);
    let (mut settings, mut mappings, mut aliases) = (Value::Null, Value::Null, None);
    for (key, value) in obj {
        match key.as_str() {
            "index_patterns" | "template" => patterns = Some(parse_patterns(value)?),
            "order" => order = parse_long(key, value)?,
            "version" => version = if value.is_null() { None } else { Some(parse_long(key, value)?) },
            "settings" => settings = value.clone(),
            "mappings" => mappings = value.clone(),
            "aliases" => aliases = Some(value.clone()),
            other => return Err(EngineError::IllegalArgument(format!("unknown key [{other}] in the template "))),
        }
    }
    if let Some(o) = params.get("order") {
        order = param_text(o).parse().map_err(|_| {
            EngineError::IllegalArgument(format!(
                "Failed to parse int parameter [order] with value [{}]",
                param_text(o)
            ))
        })?;
    }
    let index_patterns = patterns.ok_or_else(|| {
        EngineError::ActionRequestValidation("Validation Failed: 1: index patterns are missing;".into())
    })?;
    validate_name_and_patterns(name, &index_patterns)?;
    let settings = normalize_settings(&settings)?;
    let aliases = aliases.map(|a| parse_aliases(&a, &index_patterns)).transpose()?.unwrap_or_default();
    let mappings = checked_mappings(&mappings)?;
    Ok(LegacyTemplate {
        order,
        version,
        index_patterns,
        template: Template { settings: Some(settings), mappings, aliases: Some(aliases) },
    })
}

/// One legacy template as `GET /_template` shows it.
fn render(t: &LegacyTemplate, flat_settings: bool) -> Value {
    let mut out = Map::new();
    out.insert("order".into(), json!(t.order));
    if let Some(v) = t.version {
        out.insert("version".into(), json!(v));
    }
    out.insert("index_patterns".into(), json!(t.index_patterns));
    let settings = t.template.settings.clone().unwrap_or_default();
    out.insert("settings".into(), render_settings(&settings, flat_settings));
    let mappings = t.template.mappings.as_ref().map_or_else(|| json!({}), crate::store::mapping_update::render);
    out.insert("mappings".into(), mappings);
    let aliases: Map<String, Value> =
        t.template.aliases.iter().flatten().map(|(k, v)| (k.clone(), v.to_json())).collect();
    out.insert("aliases".into(), Value::Object(aliases));
    Value::Object(out)
}

/// The warning ES gives a legacy template that composable templates overlap.
fn shadowed_warning(set: &TemplateSet, name: &str, patterns: &[String]) -> Option<String> {
    let found = set.composable.iter().filter(|(n, t)| *n != name && overlap(&t.index_patterns, patterns));
    let found: Vec<(&String, &Vec<String>)> = found.map(|(n, t)| (n, &t.index_patterns)).collect();
    if found.is_empty() {
        return None;
    }
    let (names, listed) = overlap_texts(found.into_iter());
    Some(format!(
        "legacy template [{name}] has index patterns {} matching patterns from existing composable templates [{names}] with patterns ({listed}); this template [{name}] may be ignored in favor of a composable template at index creation time",
        java_list(patterns)
    ))
}

impl Engine {
    /// `PUT /_template/{name}` (`create`, `order`): the body and the warnings ES would send.
    pub fn put_legacy_template(
        &self,
        name: &str,
        body: &[u8],
        params: &Map<String, Value>,
    ) -> Result<(String, Vec<String>)> {
        let template = parse(name, body, params)?;
        if template.index_patterns.iter().any(|p| is_match_all(p))
            && template.template.settings.as_ref().is_some_and(|s| s.contains_key("index.hidden"))
        {
            return Err(EngineError::InvalidIndexTemplate {
                name: name.to_string(),
                reason: "Validation Failed: 1: global templates may not specify the setting index.hidden;".into(),
            });
        }
        let create = flag(params, "create");
        let warnings = self.templates.update(|set| {
            if create && set.legacy.contains_key(name) {
                return Err(EngineError::IllegalArgument(format!("index_template [{name}] already exists")));
            }
            let warning = shadowed_warning(set, name, &template.index_patterns);
            set.legacy.insert(name.to_string(), template);
            Ok(warning.into_iter().collect())
        })?;
        Ok((acknowledged(), warnings))
    }

    /// `GET /_template[/{names}]` (`flat_settings`): 404 with `{}` when names match nothing.
    pub fn get_legacy_templates(&self, names: Option<&str>, params: &Map<String, Value>) -> Result<(String, u16)> {
        let set = self.templates.snapshot();
        let flat_settings = flag(params, "flat_settings");
        let found = names_matching(&set.legacy, names);
        let status = if names.is_some() && found.is_empty() { 404 } else { 200 };
        let out: Map<String, Value> = found.into_iter().map(|(n, t)| (n.clone(), render(t, flat_settings))).collect();
        Ok((Value::Object(out).to_string(), status))
    }

    /// `HEAD /_template/{names}`.
    pub fn legacy_template_exists(&self, names: &str) -> bool {
        !names_matching(&self.templates.snapshot().legacy, Some(names)).is_empty()
    }

    /// `DELETE /_template/{name}` (`*` wildcards).
    pub fn delete_legacy_template(&self, name: &str) -> Result<String> {
        self.templates.update(|set| {
            let doomed: Vec<String> =
                names_matching(&set.legacy, Some(name)).into_iter().map(|(n, _)| n.clone()).collect();
            if doomed.is_empty() && !is_match_all(name) {
                return Err(EngineError::IndexTemplateMissing(name.to_string()));
            }
            for n in doomed {
                set.legacy.remove(&n);
            }
            Ok(())
        })?;
        Ok(acknowledged())
    }
}
