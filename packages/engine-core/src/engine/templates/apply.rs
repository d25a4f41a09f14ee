//! What an index is created from once templates apply, as ES's index creation resolves it:
//! the highest-priority composable template matching the name (with its components), or, when
//! none matches, every matching legacy template by `order`; the request's own settings,
//! mappings and aliases win over all of them.

use serde_json::{Map, Value};

use super::patterns::{is_match_all, matches};
use super::{ComposableTemplate, LegacyTemplate, Template, TemplateSet};
use crate::engine::aliases::AliasDef;

/// The settings, mappings and aliases a new index gets, and the warnings ES sends with it.
#[derive(Debug, Default)]
pub(crate) struct Resolved {
    /// Flat, `index.`-prefixed.
    pub settings: Map<String, Value>,
    /// `Null` when nothing gives any.
    pub mappings: Value,
    /// In precedence order, each name once.
    pub aliases: Vec<(String, AliasDef)>,
    pub warnings: Vec<String>,
}

/// The composable template a new index named `index` takes, if any.
pub(crate) fn find_composable<'a>(
    set: &'a TemplateSet,
    index: &str,
    hidden: bool,
) -> Option<(&'a String, &'a ComposableTemplate)> {
    set.composable
        .iter()
        .filter(|(_, t)| {
            t.index_patterns.iter().any(|p| matches(p, index))
                && !(hidden && t.index_patterns.iter().any(|p| is_match_all(p)))
        })
        .max_by_key(|(_, t)| t.priority_or_zero())
}

/// The legacy templates a new index named `index` takes, highest `order` first.
fn find_legacy<'a>(set: &'a TemplateSet, index: &str, hidden: Option<bool>) -> Vec<(&'a String, &'a LegacyTemplate)> {
    let mut found: Vec<(&String, &LegacyTemplate)> = set
        .legacy
        .iter()
        .filter(|(_, t)| {
            let global = t.index_patterns.iter().any(|p| is_match_all(p));
            t.index_patterns.iter().any(|p| matches(p, index)) && !(hidden == Some(true) && global)
        })
        .collect();
    found.sort_by_key(|t| std::cmp::Reverse(t.1.order));
    if hidden.is_none() {
        // An index a template makes hidden takes no global template, as in ES.
        let hides = found.iter().find_map(|(_, t)| t.template.settings.as_ref()?.get("index.hidden").cloned());
        if hides.is_some_and(|h| h == "true") {
            found.retain(|(_, t)| !t.index_patterns.iter().any(|p| is_match_all(p)));
        }
    }
    found
}

/// A component's or index template's settings in the order they apply.
pub(super) fn composed_settings(set: &TemplateSet, t: &ComposableTemplate) -> Map<String, Value> {
    let mut out = Map::new();
    for part in composed_parts(set, t) {
        if let Some(settings) = &part.settings {
            out.extend(settings.clone());
        }
    }
    out
}

/// The components of `t` (in `composed_of` order), then `t`'s own template.
fn composed_parts<'a>(set: &'a TemplateSet, t: &'a ComposableTemplate) -> Vec<&'a Template> {
    let mut parts: Vec<&Template> =
        t.composed_of.iter().filter_map(|c| set.component.get(c)).map(|c| &c.template).collect();
    parts.extend(t.template.as_ref());
    parts
}

/// `{"a.b": {...}}` in `properties` as `{"a": {"properties": {"b": {...}}}}`, at every level.
fn expand_dots(mappings: &mut Value) {
    let Some(props) = mappings.get_mut("properties").and_then(Value::as_object_mut) else { return };
    let fields: Vec<(String, Value)> = std::mem::take(props).into_iter().collect();
    for (name, mut def) in fields {
        expand_dots(&mut def);
        let mut parts: Vec<&str> = name.split('.').collect();
        let leaf = parts.pop().unwrap_or_default().to_string();
        let mut at = &mut *props;
        for part in parts {
            let object = at
                .entry(part.to_string())
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .expect("an object mapping");
            at = object
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .expect("properties");
        }
        match at.get_mut(&leaf) {
            Some(existing) => merge_fields(existing, def),
            None => {
                at.insert(leaf, def);
            }
        }
    }
}

/// Whether a field definition is an object (merged field by field) rather than a leaf.
fn is_object(def: &Value) -> bool {
    match def.get("type").and_then(Value::as_str) {
        None => def.is_object(),
        Some(t) => t == "object" || t == "nested",
    }
}

/// `overlay` over `base`, as composable templates merge mappings: objects merge (their
/// parameters and properties), a leaf field replaces the earlier definition whole.
fn merge_fields(base: &mut Value, overlay: Value) {
    if !(is_object(base) && is_object(&overlay)) {
        *base = overlay;
        return;
    }
    let (Some(base), Value::Object(overlay)) = (base.as_object_mut(), overlay) else { return };
    for (key, value) in overlay {
        if key == "properties" {
            let props = base.entry("properties").or_insert_with(|| Value::Object(Map::new()));
            if let (Some(props), Value::Object(more)) = (props.as_object_mut(), value) {
                for (field, def) in more {
                    match props.get_mut(&field) {
                        Some(existing) => merge_fields(existing, def),
                        None => {
                            props.insert(field, def);
                        }
                    }
                }
            }
        } else {
            base.insert(key, value);
        }
    }
}

/// Mappings in precedence order, lowest first, as composable templates merge them.
fn merge_composed(layers: Vec<Value>) -> Value {
    let mut out = Value::Null;
    for mut layer in layers.into_iter().filter(|l| l.as_object().is_some_and(|o| !o.is_empty())) {
        expand_dots(&mut layer);
        if out.is_null() {
            out = layer;
        } else {
            merge_fields(&mut out, layer);
        }
    }
    out
}

/// `defaults` under `target` (legacy templates): what `target` lacks is added, objects merge,
/// and `target` keeps its own values (ES's `mergeDefaults`).
fn merge_defaults(target: &mut Value, defaults: &Value) {
    let (Some(target), Some(defaults)) = (target.as_object_mut(), defaults.as_object()) else { return };
    for (key, value) in defaults {
        match target.get_mut(key) {
            Some(existing) if existing.is_object() && value.is_object() => merge_defaults(existing, value),
            Some(_) => {}
            None => {
                target.insert(key.clone(), value.clone());
            }
        }
    }
}

fn push_aliases(
    out: &mut Vec<(String, AliasDef)>,
    index: &str,
    aliases: Option<&std::collections::BTreeMap<String, AliasDef>>,
) {
    for (name, def) in aliases.into_iter().flatten() {
        let name = name.replace("{index}", index);
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, def.clone()));
        }
    }
}

/// The template `name` resolved alone (for the simulate APIs): its composed settings, mappings
/// and aliases.
pub(super) fn resolve_composable(set: &TemplateSet, t: &ComposableTemplate, index: &str) -> Template {
    let parts = composed_parts(set, t);
    let mappings = merge_composed(parts.iter().filter_map(|p| p.mappings.clone()).collect());
    let mut aliases = Vec::new();
    for part in parts.iter().rev() {
        push_aliases(&mut aliases, index, part.aliases.as_ref());
    }
    Template {
        settings: Some(composed_settings(set, t)),
        mappings: (!mappings.is_null()).then_some(mappings),
        aliases: Some(aliases.into_iter().collect()),
    }
}

/// What a new index named `index` is created from: the request's `settings` (flattened,
/// `index.`-prefixed), `mappings` and `aliases` over the templates that match it.
pub(crate) fn resolve(
    set: &TemplateSet,
    index: &str,
    settings: Map<String, Value>,
    mappings: Value,
    aliases: Vec<(String, AliasDef)>,
) -> Resolved {
    let hidden = settings.get("index.hidden").map(|h| h == true || h == "true");
    let mut out = Resolved { aliases, ..Resolved::default() };
    if let Some((_, t)) = find_composable(set, index, hidden == Some(true)) {
        out.settings = composed_settings(set, t);
        out.settings.extend(settings);
        let parts = composed_parts(set, t);
        let mut layers: Vec<Value> = parts.iter().filter_map(|p| p.mappings.clone()).collect();
        if layers.is_empty() {
            out.mappings = mappings;
        } else {
            layers.push(mappings);
            out.mappings = merge_composed(layers);
        }
        for part in parts.iter().rev() {
            push_aliases(&mut out.aliases, index, part.aliases.as_ref());
        }
        return out;
    }
    let legacy = find_legacy(set, index, hidden);
    if legacy.len() > 1 {
        let mut names: Vec<&str> = legacy.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        out.warnings.push(format!(
            "index [{index}] matches multiple legacy templates [{}], composable templates will only match a single template",
            names.join(", ")
        ));
    }
    for (_, t) in legacy.iter().rev() {
        out.settings.extend(t.template.settings.clone().unwrap_or_default());
    }
    out.settings.extend(settings);
    out.mappings = mappings;
    let with_mappings: Vec<&Value> = legacy.iter().filter_map(|(_, t)| t.template.mappings.as_ref()).collect();
    if !with_mappings.is_empty() {
        if !out.mappings.is_object() {
            out.mappings = Value::Object(Map::new());
        }
        expand_dots(&mut out.mappings);
        for m in with_mappings {
            let mut m = m.clone();
            expand_dots(&mut m);
            merge_defaults(&mut out.mappings, &m);
        }
    }
    for (_, t) in &legacy {
        push_aliases(&mut out.aliases, index, t.template.aliases.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn composed_mappings_merge_objects_and_replace_leaves() {
        let merged = merge_composed(vec![
            json!({"properties": {"object1.red": {"type": "keyword"}, "object2.red": {"type": "keyword"}}}),
            json!({"properties": {"object2.red": {"type": "text"}, "object1.blue": {"type": "text"}}}),
            json!({"properties": {"nested": {"type": "nested", "include_in_root": true}}}),
            json!({"properties": {"nested": {"type": "nested", "include_in_root": false, "include_in_parent": true}}}),
        ]);
        assert_eq!(merged["properties"]["object1"]["properties"]["red"], json!({"type": "keyword"}));
        assert_eq!(merged["properties"]["object1"]["properties"]["blue"], json!({"type": "text"}));
        assert_eq!(merged["properties"]["object2"]["properties"]["red"], json!({"type": "text"}));
        assert_eq!(merged["properties"]["nested"]["include_in_root"], json!(false));
        assert_eq!(merged["properties"]["nested"]["include_in_parent"], json!(true));
    }

    #[test]
    fn legacy_templates_apply_by_order_under_the_request() {
        let mut set = TemplateSet::default();
        let legacy = |order: i64, shards: &str, field: &str| LegacyTemplate {
            order,
            version: None,
            index_patterns: vec!["t*".into()],
            template: Template {
                settings: Some(serde_json::from_value(json!({"index.number_of_shards": shards})).unwrap()),
                mappings: Some(json!({"properties": {field: {"type": "keyword"}}})),
                aliases: Some([(format!("{{index}}-{order}"), AliasDef::default())].into_iter().collect()),
            },
        };
        set.legacy.insert("low".into(), legacy(0, "1", "a"));
        set.legacy.insert("high".into(), legacy(1, "3", "b"));
        let r = resolve(&set, "test", Map::new(), Value::Null, vec![]);
        assert_eq!(r.settings["index.number_of_shards"], "3");
        assert!(r.mappings["properties"]["a"].is_object() && r.mappings["properties"]["b"].is_object());
        assert_eq!(r.aliases.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), vec!["test-1", "test-0"]);
        assert_eq!(r.warnings.len(), 1);
        let mine: Map<String, Value> = serde_json::from_value(json!({"index.number_of_shards": 2})).unwrap();
        assert_eq!(resolve(&set, "test", mine, Value::Null, vec![]).settings["index.number_of_shards"], 2);
        assert!(resolve(&set, "other", Map::new(), Value::Null, vec![]).settings.is_empty());
    }
}
