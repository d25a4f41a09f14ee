//! Composable index templates (`PUT|GET|HEAD|DELETE /_index_template/{name}`) and component
//! templates (`/_component_template/{name}`). An index template names the components it is
//! `composed_of` and has a `priority`: of the index templates matching a new index only the
//! highest-priority one applies, so two may not share patterns at the same priority. One that
//! overlaps legacy templates takes precedence over them, which ES says in a warning.

use serde_json::{json, Map, Value};

use super::legacy::{java_list, overlap_texts};
use super::patterns::{is_match_all, overlap};
use super::{
    acknowledged, names_matching, parse_long, parse_patterns, parse_template, render_template,
    validate_name_and_patterns, ComponentTemplate, ComposableTemplate, TemplateSet,
};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::store::versioning::param_text;

fn flag(params: &Map<String, Value>, key: &str) -> bool {
    params.get(key).is_some_and(|v| matches!(param_text(v).as_str(), "true" | ""))
}

fn body_object(body: &[u8]) -> Result<Map<String, Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(EngineError::RequestBodyRequired);
    }
    match crate::strict_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))? {
        Value::Object(map) => Ok(map),
        _ => Err(EngineError::Parsing("request body must be an object".into())),
    }
}

/// An index template body.
pub(super) fn parse_composable(name: &str, body: &[u8]) -> Result<ComposableTemplate> {
    let obj = body_object(body)?;
    let patterns = obj.get("index_patterns").map(parse_patterns).transpose()?;
    let index_patterns = patterns.ok_or_else(|| EngineError::IllegalArgument("Required [index_patterns]".into()))?;
    let mut t = ComposableTemplate {
        index_patterns,
        template: None,
        composed_of: Vec::new(),
        priority: None,
        version: None,
        meta: None,
    };
    for (key, value) in &obj {
        match key.as_str() {
            "index_patterns" => {}
            "template" => t.template = Some(parse_template(value, &t.index_patterns)?),
            "composed_of" => {
                t.composed_of = parse_patterns(value).map_err(|_| {
                    EngineError::XContentParse("[index_template] failed to parse field [composed_of]".into())
                })?
            }
            "priority" => t.priority = Some(parse_long(key, value)?).filter(|_| !value.is_null()),
            "version" => t.version = Some(parse_long(key, value)?).filter(|_| !value.is_null()),
            "_meta" => t.meta = Some(value.clone()),
            "data_stream" => {
                return Err(EngineError::IllegalArgument("data streams are not supported by this engine".into()))
            }
            other => return Err(EngineError::XContentParse(format!("[index_template] unknown field [{other}]"))),
        }
    }
    if t.priority.is_some_and(|p| p < 0) {
        return Err(EngineError::IllegalArgument("index template priority must be >= 0".into()));
    }
    validate_name_and_patterns(name, &t.index_patterns)?;
    Ok(t)
}

/// A component template body.
fn parse_component(body: &[u8]) -> Result<ComponentTemplate> {
    let obj = body_object(body)?;
    let template = obj.get("template").ok_or_else(|| EngineError::IllegalArgument("Required [template]".into()))?;
    let mut c = ComponentTemplate { template: parse_template(template, &[])?, version: None, meta: None };
    for (key, value) in &obj {
        match key.as_str() {
            "template" => {}
            "version" => c.version = Some(parse_long(key, value)?).filter(|_| !value.is_null()),
            "_meta" => c.meta = Some(value.clone()),
            other => return Err(EngineError::XContentParse(format!("[component_template] unknown field [{other}]"))),
        }
    }
    Ok(c)
}

/// ES's checks before an index template is stored (in `set`, as it would be after the put);
/// the warning for legacy templates it overlaps.
pub(super) fn check_composable(set: &TemplateSet, name: &str, t: &ComposableTemplate) -> Result<Option<String>> {
    let missing: Vec<String> = t.composed_of.iter().filter(|c| !set.component.contains_key(*c)).cloned().collect();
    if !missing.is_empty() {
        return Err(EngineError::InvalidIndexTemplate {
            name: name.to_string(),
            reason: format!(
                "index template [{name}] specifies component templates {} that do not exist",
                java_list(&missing)
            ),
        });
    }
    if t.index_patterns.iter().any(|p| is_match_all(p)) {
        let settings = super::apply::composed_settings(set, t);
        if settings.contains_key("index.hidden") {
            return Err(EngineError::InvalidIndexTemplate {
                name: name.to_string(),
                reason: "global composable templates may not specify the setting index.hidden".into(),
            });
        }
    }
    let same_priority: Vec<(&String, &Vec<String>)> = set
        .composable
        .iter()
        .filter(|(n, other)| {
            *n != name
                && other.priority_or_zero() == t.priority_or_zero()
                && overlap(&other.index_patterns, &t.index_patterns)
        })
        .map(|(n, other)| (n, &other.index_patterns))
        .collect();
    if !same_priority.is_empty() {
        let (names, listed) = overlap_texts(same_priority.into_iter());
        return Err(EngineError::IllegalArgument(format!(
            "index template [{name}] has index patterns {} matching patterns from existing templates [{names}] with patterns ({listed}) that have the same priority [{}], multiple index templates may not match during index creation, please use a different priority",
            java_list(&t.index_patterns),
            t.priority_or_zero()
        )));
    }
    let legacy: Vec<(&String, &Vec<String>)> = set
        .legacy
        .iter()
        .filter(|(_, l)| overlap(&l.index_patterns, &t.index_patterns))
        .map(|(n, l)| (n, &l.index_patterns))
        .collect();
    if legacy.is_empty() {
        return Ok(None);
    }
    let (names, listed) = overlap_texts(legacy.into_iter());
    Ok(Some(format!(
        "index template [{name}] has index patterns {} matching patterns from existing older templates [{names}] with patterns ({listed}); this template [{name}] will take precedence during new index creation",
        java_list(&t.index_patterns)
    )))
}

fn render_composable(t: &ComposableTemplate, flat_settings: bool) -> Value {
    let mut out = Map::new();
    out.insert("index_patterns".into(), json!(t.index_patterns));
    if let Some(template) = &t.template {
        out.insert("template".into(), render_template(template, flat_settings));
    }
    out.insert("composed_of".into(), json!(t.composed_of));
    if let Some(p) = t.priority {
        out.insert("priority".into(), json!(p));
    }
    if let Some(v) = t.version {
        out.insert("version".into(), json!(v));
    }
    if let Some(m) = &t.meta {
        out.insert("_meta".into(), m.clone());
    }
    Value::Object(out)
}

fn render_component(c: &ComponentTemplate, flat_settings: bool) -> Value {
    let mut out = Map::new();
    out.insert("template".into(), render_template(&c.template, flat_settings));
    if let Some(v) = c.version {
        out.insert("version".into(), json!(v));
    }
    if let Some(m) = &c.meta {
        out.insert("_meta".into(), m.clone());
    }
    Value::Object(out)
}

/// The templates `name` picks, or ES's 404 for a plain name that is not there.
fn picked<'a, T>(
    map: &'a std::collections::BTreeMap<String, T>,
    name: Option<&str>,
    what: &str,
) -> Result<Vec<(&'a String, &'a T)>> {
    let found = names_matching(map, name);
    match name {
        Some(n) if found.is_empty() && !n.contains('*') => {
            Err(EngineError::ResourceNotFound(format!("{what} matching [{n}] not found")))
        }
        _ => Ok(found),
    }
}

impl Engine {
    /// `PUT /_index_template/{name}` (`create`): the body and the warnings ES would send.
    pub fn put_index_template(
        &self,
        name: &str,
        body: &[u8],
        params: &Map<String, Value>,
    ) -> Result<(String, Vec<String>)> {
        let template = parse_composable(name, body)?;
        let create = flag(params, "create");
        let warning = self.templates.update(|set| {
            if create && set.composable.contains_key(name) {
                return Err(EngineError::IllegalArgument(format!("index template [{name}] already exists")));
            }
            let warning = check_composable(set, name, &template)?;
            set.composable.insert(name.to_string(), template);
            Ok(warning)
        })?;
        Ok((acknowledged(), warning.into_iter().collect()))
    }

    /// `GET /_index_template[/{name}]` (`flat_settings`).
    pub fn get_index_templates(&self, name: Option<&str>, params: &Map<String, Value>) -> Result<String> {
        let set = self.templates.snapshot();
        let flat_settings = flag(params, "flat_settings");
        let list: Vec<Value> = picked(&set.composable, name, "index template")?
            .into_iter()
            .map(|(n, t)| json!({ "name": n, "index_template": render_composable(t, flat_settings) }))
            .collect();
        Ok(json!({ "index_templates": list }).to_string())
    }

    /// `HEAD /_index_template/{name}`.
    pub fn index_template_exists(&self, name: &str) -> bool {
        !names_matching(&self.templates.snapshot().composable, Some(name)).is_empty()
    }

    /// `DELETE /_index_template/{name}` (`*` wildcards).
    pub fn delete_index_template(&self, name: &str) -> Result<String> {
        self.templates.update(|set| {
            let doomed: Vec<String> =
                names_matching(&set.composable, Some(name)).into_iter().map(|(n, _)| n.clone()).collect();
            if doomed.is_empty() && !is_match_all(name) {
                return Err(EngineError::IndexTemplateMissing(name.to_string()));
            }
            for n in doomed {
                set.composable.remove(&n);
            }
            Ok(())
        })?;
        Ok(acknowledged())
    }

    /// `PUT /_component_template/{name}` (`create`).
    pub fn put_component_template(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let component = parse_component(body)?;
        validate_name_and_patterns(name, &[])?;
        let create = flag(params, "create");
        self.templates.update(|set| {
            if create && set.component.contains_key(name) {
                return Err(EngineError::IllegalArgument(format!("component template [{name}] already exists")));
            }
            set.component.insert(name.to_string(), component);
            Ok(())
        })?;
        Ok(acknowledged())
    }

    /// `GET /_component_template[/{name}]` (`flat_settings`).
    pub fn get_component_templates(&self, name: Option<&str>, params: &Map<String, Value>) -> Result<String> {
        let set = self.templates.snapshot();
        let flat_settings = flag(params, "flat_settings");
        let list: Vec<Value> = picked(&set.component, name, "component template")?
            .into_iter()
            .map(|(n, c)| json!({ "name": n, "component_template": render_component(c, flat_settings) }))
            .collect();
        Ok(json!({ "component_templates": list }).to_string())
    }

    /// `HEAD /_component_template/{name}`.
    pub fn component_template_exists(&self, name: &str) -> bool {
        !names_matching(&self.templates.snapshot().component, Some(name)).is_empty()
    }

    /// `DELETE /_component_template/{name}`: refused while index templates use it.
    pub fn delete_component_template(&self, name: &str) -> Result<String> {
        self.templates.update(|set| {
            let doomed: Vec<String> =
                names_matching(&set.component, Some(name)).into_iter().map(|(n, _)| n.clone()).collect();
            let users: Vec<String> = set
                .composable
                .iter()
                .filter(|(_, t)| t.composed_of.iter().any(|c| doomed.contains(c)))
                .map(|(n, _)| n.clone())
                .collect();
            if !users.is_empty() {
                let used: Vec<String> = doomed
                    .iter()
                    .filter(|c| set.composable.values().any(|t| t.composed_of.contains(c)))
                    .cloned()
                    .collect();
                return Err(EngineError::IllegalArgument(format!(
                    "component templates {} cannot be removed as they are still in use by index templates {}",
                    java_list(&used),
                    java_list(&users)
                )));
            }
            if doomed.is_empty() && !is_match_all(name) {
                return Err(EngineError::IndexTemplateMissing(name.to_string()));
            }
            for n in doomed {
                set.component.remove(&n);
            }
            Ok(())
        })?;
        Ok(acknowledged())
    }
}
