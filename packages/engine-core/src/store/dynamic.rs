//! Dynamic mapping with ES's rules: a field a document brings that the mapping lacks is mapped
//! from its JSON value (string -> `text` with a `keyword` subfield of `ignore_above: 256`, or a
//! `date` when it parses with `dynamic_date_formats`, or a number with `numeric_detection`;
//! integer -> `long`; other number -> `float`; boolean -> `boolean`; object -> its fields),
//! after the first matching `dynamic_templates` entry. `dynamic: false` leaves such fields in
//! `_source` only; `strict` refuses the document. Nulls and empty arrays map nothing.
//!
//! The check runs on every document written, so the common case (every field mapped) walks the
//! document's keys once with one map lookup each and allocates only for inner objects.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::date::{parse_date_str, parse_format_list};
use crate::error::{EngineError, Result};
use crate::wildcard::glob;

/// Every mapped path (fields, multi-fields, vectors, nested objects) in a table made for the
/// per-document check: a cheap 64-bit hash, then one string comparison. A `BTreeMap` lookup
/// per key made the check cost a third of building the document (363 ns for 7 keys).
#[derive(Debug, Clone, Default)]
pub struct KnownPaths {
    /// Sorted by hash.
    entries: Vec<(u64, Box<str>)>,
}

fn path_hash(s: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = s.len() as u64;
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().expect("8 bytes"))).wrapping_mul(K);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    h
}

impl KnownPaths {
    pub fn new<'a>(paths: impl Iterator<Item = &'a str>) -> KnownPaths {
        let mut entries: Vec<(u64, Box<str>)> = paths.map(|p| (path_hash(p), p.into())).collect();
        entries.sort();
        KnownPaths { entries }
    }

    pub fn contains(&self, path: &str) -> bool {
        let h = path_hash(path);
        let start = self.entries.partition_point(|(e, _)| *e < h);
        self.entries[start..].iter().take_while(|(e, _)| *e == h).any(|(_, p)| p.as_ref() == path)
    }
}

/// ES's `dynamic` setting, on the root or on an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dynamic {
    True,
    False,
    Strict,
}

impl Dynamic {
    pub fn parse(value: &Value) -> Result<Dynamic> {
        match value {
            Value::Bool(true) => Ok(Dynamic::True),
            Value::Bool(false) => Ok(Dynamic::False),
            Value::String(s) if s == "true" => Ok(Dynamic::True),
            Value::String(s) if s == "false" => Ok(Dynamic::False),
            Value::String(s) if s == "strict" => Ok(Dynamic::Strict),
            other => Err(EngineError::MapperParsing(format!(
                "Failed to parse mapping: Could not convert [dynamic] to boolean: [{other}]"
            ))),
        }
    }
}

/// One `dynamic_templates` entry.
#[derive(Debug, Clone)]
struct Template {
    matches: Option<String>,
    unmatch: Option<String>,
    path_match: Option<String>,
    path_unmatch: Option<String>,
    mapping_type: Option<String>,
    mapping: Value,
}

/// The root mapping's dynamic options, and `dynamic` set on objects (by path).
#[derive(Debug, Clone)]
pub struct DynamicRules {
    pub dynamic: Dynamic,
    pub date_detection: bool,
    pub numeric_detection: bool,
    /// `dynamic_date_formats`, each as written (it is the mapped field's `format`).
    date_formats: Vec<String>,
    templates: Vec<Template>,
    pub objects: BTreeMap<String, Dynamic>,
}

/// ES's defaults (`RootObjectMapper`): the second also reads epoch milliseconds.
const DEFAULT_DATE_FORMATS: [&str; 2] = ["strict_date_optional_time", "yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis"];

impl Default for DynamicRules {
    fn default() -> Self {
        DynamicRules {
            dynamic: Dynamic::True,
            date_detection: true,
            numeric_detection: false,
            date_formats: DEFAULT_DATE_FORMATS.iter().map(|s| s.to_string()).collect(),
            templates: Vec::new(),
            objects: BTreeMap::new(),
        }
    }
}

fn bad(key: &str, value: &Value) -> EngineError {
    EngineError::MapperParsing(format!("Failed to parse mapping: invalid [{key}] value [{value}]"))
}

impl DynamicRules {
    /// Takes one root mapping option; false when `key` is not a dynamic option.
    pub fn apply_root_option(&mut self, key: &str, value: &Value) -> Result<bool> {
        match key {
            "dynamic" => self.dynamic = Dynamic::parse(value)?,
            "date_detection" => self.date_detection = value.as_bool().ok_or_else(|| bad(key, value))?,
            "numeric_detection" => self.numeric_detection = value.as_bool().ok_or_else(|| bad(key, value))?,
            "dynamic_date_formats" => {
                let list = value.as_array().ok_or_else(|| bad(key, value))?;
                let mut formats = Vec::new();
                for f in list {
                    let spec = f.as_str().ok_or_else(|| bad(key, value))?;
                    parse_format_list(spec).map_err(|e| {
                        EngineError::MapperParsing(format!("Failed to parse mapping: Invalid format: [{spec}]: {e}"))
                    })?;
                    formats.push(spec.to_string());
                }
                self.date_formats = formats;
            }
            "dynamic_templates" => self.templates = parse_templates(value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn dynamic_at(&self, object_path: &str, inherited: Dynamic) -> Dynamic {
        self.objects.get(object_path).copied().unwrap_or(inherited)
    }
}

fn parse_templates(value: &Value) -> Result<Vec<Template>> {
    let list = value.as_array().ok_or_else(|| bad("dynamic_templates", value))?;
    let mut out = Vec::new();
    for entry in list {
        let (name, def) = entry
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.iter().next())
            .ok_or_else(|| bad("dynamic_templates", entry))?;
        let def = def.as_object().ok_or_else(|| bad("dynamic_templates", entry))?;
        let text = |k: &str| def.get(k).and_then(Value::as_str).map(str::to_string);
        let mut template = Template {
            matches: text("match"),
            unmatch: text("unmatch"),
            path_match: text("path_match"),
            path_unmatch: text("path_unmatch"),
            mapping_type: text("match_mapping_type"),
            mapping: Value::Null,
        };
        for (key, v) in def {
            match key.as_str() {
                "match" | "unmatch" | "path_match" | "path_unmatch" | "match_mapping_type" if v.is_string() => {}
                "mapping" if v.is_object() => template.mapping = v.clone(),
                _ => {
                    return Err(EngineError::MapperParsing(format!(
                        "Failed to parse mapping: Illegal dynamic template parameter: [{key}]"
                    )))
                }
            }
        }
        if template.mapping.is_null() {
            return Err(EngineError::MapperParsing(format!(
                "Failed to parse mapping: template [{name}] must have either mapping or runtime set"
            )));
        }
        out.push(template);
    }
    Ok(out)
}

/// Adds the fields of `update` (a `{"properties": ...}` fragment) that `base` lacks: when two
/// documents of one bulk map a new field differently, the first one's mapping wins, as it would
/// had they been written one at a time.
pub fn merge_first(base: &mut Value, update: &Value) {
    let (Some(base_props), Some(update_props)) = (
        base.as_object_mut().and_then(|b| b.get_mut("properties")).and_then(Value::as_object_mut),
        update.get("properties").and_then(Value::as_object),
    ) else {
        return;
    };
    for (key, def) in update_props {
        match base_props.get_mut(key) {
            None => {
                base_props.insert(key.clone(), def.clone());
            }
            Some(existing) if existing.get("properties").is_some() && def.get("properties").is_some() => {
                merge_first(existing, def)
            }
            Some(_) => {}
        }
    }
}

/// The mapping fragment (`{"properties": {...}}`) for the fields of `source` that a mapping
/// with these `known` paths and dynamic `rules` lacks, `None` when there are none; ES's 400
/// when a `strict` object would gain one.
pub fn unmapped_fields(known: &KnownPaths, rules: &DynamicRules, source: &Value) -> Result<Option<Value>> {
    let Some(obj) = source.as_object() else { return Ok(None) };
    let mut props = Map::new();
    walk(known, rules, obj, "", rules.dynamic, &mut props)?;
    Ok((!props.is_empty()).then(|| json!({ "properties": props })))
}

fn walk(
    known: &KnownPaths,
    rules: &DynamicRules,
    obj: &Map<String, Value>,
    prefix: &str,
    dynamic: Dynamic,
    out: &mut Map<String, Value>,
) -> Result<()> {
    for (key, value) in obj {
        let path: Cow<str> = if prefix.is_empty() { Cow::Borrowed(key) } else { Cow::Owned(format!("{prefix}.{key}")) };
        if known.contains(&path) {
            continue;
        }
        if let Some(reason) = refused_field_name(key, prefix.is_empty()) {
            return Err(EngineError::DocumentParsing(reason));
        }
        visit(known, rules, key, &path, value, dynamic, out)?;
    }
    Ok(())
}

/// Metadata fields a document may not set in its body (ES 8's `MetadataFieldMapper`s, less
/// `_doc_count`, which a document may carry).
const METADATA_FIELDS: [&str; 12] = [
    "_id",
    "_index",
    "_source",
    "_routing",
    "_seq_no",
    "_primary_term",
    "_version",
    "_ignored",
    "_field_names",
    "_nested_path",
    "_tier",
    "_data_stream_timestamp",
];

/// ES 8's refusal of a field name in a document's body (a `document_parsing_exception`), if any:
/// an empty name, a metadata field at the top level, a name starting with a dot, a dotted name
/// with an empty or blank segment (`a..b`).
fn refused_field_name(key: &str, top_level: bool) -> Option<String> {
    if key.is_empty() {
        return Some("field name cannot be an empty string".into());
    }
    if top_level && METADATA_FIELDS.contains(&key) {
        return Some(format!(
            "Field [{key}] is a metadata field and cannot be added inside a document. Use the index API request parameters."
        ));
    }
    if key.starts_with('.') {
        return Some(format!("field name starting or ending with a [.] makes object resolution ambiguous: [{key}]"));
    }
    // Only a dotted name is split into objects (a lone " " is an ordinary name).
    let inner = key.strip_suffix('.').unwrap_or(key);
    if inner.contains('.') && inner.split('.').any(|segment| segment.trim().is_empty()) {
        return Some(format!("object field cannot contain only whitespace: ['{key}']"));
    }
    None
}

/// One unmapped value at `path` (`key` its last segments as written, possibly dotted).
fn visit(
    known: &KnownPaths,
    rules: &DynamicRules,
    key: &str,
    path: &str,
    value: &Value,
    dynamic: Dynamic,
    out: &mut Map<String, Value>,
) -> Result<()> {
    match value {
        Value::Null => Ok(()),
        Value::Array(items) => {
            for item in items.iter().filter(|v| !v.is_null()) {
                visit(known, rules, key, path, item, dynamic, out)?;
                if !item.is_object() {
                    break;
                }
            }
            Ok(())
        }
        Value::Object(child) => {
            let inner = rules.dynamic_at(path, dynamic);
            let mut props = Map::new();
            walk(known, rules, child, path, inner, &mut props)?;
            if !props.is_empty() {
                let at = slot(out, key);
                let existing = at.as_object_mut().and_then(|o| o.get_mut("properties")).and_then(Value::as_object_mut);
                match existing {
                    Some(existing) => existing.extend(props),
                    None => *at = json!({ "properties": props }),
                }
            }
            Ok(())
        }
        scalar => match dynamic {
            Dynamic::False => Ok(()),
            Dynamic::Strict => {
                let (parent, leaf) = match path.rsplit_once('.') {
                    Some((parent, leaf)) => (parent, leaf),
                    None => ("_doc", path),
                };
                Err(EngineError::StrictDynamicMapping(format!(
                    "mapping set to strict, dynamic introduction of [{leaf}] within [{parent}] is not allowed"
                )))
            }
            Dynamic::True => {
                let def = infer(rules, key, path, scalar);
                let at = slot(out, key);
                if at.is_null() {
                    *at = def;
                }
                Ok(())
            }
        },
    }
}

/// The place for `key` in `out`, a dotted key becoming nested objects (`a.b` -> `a.properties.b`).
fn slot<'a>(out: &'a mut Map<String, Value>, key: &str) -> &'a mut Value {
    match key.split_once('.') {
        None => out.entry(key.to_string()).or_insert(Value::Null),
        Some((head, rest)) => {
            let object = out.entry(head.to_string()).or_insert_with(|| json!({ "properties": {} }));
            let props = object
                .as_object_mut()
                .map(|o| o.entry("properties").or_insert_with(|| json!({})))
                .and_then(Value::as_object_mut)
                .expect("an object mapping");
            slot(props, rest)
        }
    }
}

/// ES's mapping for a new scalar: the first matching template, else the detected type's.
fn infer(rules: &DynamicRules, key: &str, path: &str, value: &Value) -> Value {
    let (detected, default) = detect(rules, value);
    let name = key.rsplit('.').next().unwrap_or(key);
    for t in &rules.templates {
        let ok = t.matches.as_deref().is_none_or(|p| glob(p, name))
            && t.unmatch.as_deref().is_none_or(|p| !glob(p, name))
            && t.path_match.as_deref().is_none_or(|p| glob(p, path))
            && t.path_unmatch.as_deref().is_none_or(|p| !glob(p, path))
            && t.mapping_type.as_deref().is_none_or(|m| m == "*" || m == detected);
        if ok {
            let text = t.mapping.to_string().replace("{name}", name).replace("{dynamic_type}", detected);
            return serde_json::from_str(&text).unwrap_or_else(|_| t.mapping.clone());
        }
    }
    default
}

/// The value's dynamic type name (as `match_mapping_type` names it) and its default mapping.
fn detect(rules: &DynamicRules, value: &Value) -> (&'static str, Value) {
    match value {
        Value::Bool(_) => ("boolean", json!({"type": "boolean"})),
        Value::Number(n) if n.is_i64() || n.is_u64() => ("long", json!({"type": "long"})),
        Value::Number(_) => ("double", json!({"type": "float"})),
        Value::String(s) => {
            if rules.date_detection {
                for spec in &rules.date_formats {
                    let parses = parse_format_list(spec).is_ok_and(|f| parse_date_str(s, &f).is_ok());
                    if parses && looks_like_a_date(s) {
                        let def = if spec == DEFAULT_DATE_FORMATS[0] {
                            json!({"type": "date"})
                        } else {
                            json!({"type": "date", "format": spec})
                        };
                        return ("date", def);
                    }
                }
            }
            if rules.numeric_detection {
                if s.trim().parse::<i64>().is_ok() {
                    return ("long", json!({"type": "long"}));
                }
                if s.trim().parse::<f64>().is_ok_and(f64::is_finite) {
                    return ("double", json!({"type": "float"}));
                }
            }
            ("string", json!({"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}}))
        }
        _ => ("object", json!({"type": "object"})),
    }
}

/// ES detects dates only in strings with a separator: a bare number such as "42" or "2024"
/// stays a string even though a year-only date would parse.
fn looks_like_a_date(s: &str) -> bool {
    s.bytes().any(|b| !b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::mapping::Mapping;

    fn mapping(json: Value) -> Mapping {
        Mapping::from_mappings_json(&json).unwrap()
    }

    #[test]
    fn maps_new_fields_with_es_rules() {
        let m = mapping(json!({"properties": {"tag": {"type": "keyword"}}}));
        let doc = json!({"tag": "a", "city": "New York", "n": 3, "r": 0.5, "ok": true, "d": "2020-05-01",
            "s": "2020/05/01", "code": "42", "user": {"name": "ann"}, "a.b": "x", "gone": null, "none": []});
        let got = unmapped_fields(&m.known, &m.dynamic, &doc).unwrap().unwrap();
        let p = &got["properties"];
        assert_eq!(p["city"]["fields"]["keyword"]["ignore_above"], 256);
        assert_eq!(
            (p["n"]["type"].clone(), p["r"]["type"].clone(), p["ok"]["type"].clone()),
            (json!("long"), json!("float"), json!("boolean"))
        );
        assert_eq!(p["d"], json!({"type": "date"}));
        assert_eq!(p["s"]["format"], "yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis");
        assert_eq!(p["code"]["type"], "text");
        assert_eq!(p["user"]["properties"]["name"]["type"], "text");
        assert_eq!(p["a"]["properties"]["b"]["type"], "text");
        assert!(p.get("gone").is_none() && p.get("none").is_none() && p.get("tag").is_none());
        assert!(unmapped_fields(&m.known, &m.dynamic, &json!({"tag": "b"})).unwrap().is_none());
    }

    #[test]
    fn strict_false_templates_and_detection_options() {
        let strict = mapping(json!({"dynamic": "strict", "properties": {"a": {"type": "keyword"}}}));
        let err = unmapped_fields(&strict.known, &strict.dynamic, &json!({"a": "x", "b": "y"})).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("strict_dynamic_mapping_exception", 400));
        let off = mapping(json!({"dynamic": false}));
        assert!(unmapped_fields(&off.known, &off.dynamic, &json!({"free": "text"})).unwrap().is_none());
        let t = mapping(json!({"dynamic_templates": [{"s": {"match": "s_*", "mapping": {"type": "keyword"}}}],
            "numeric_detection": true, "date_detection": false}));
        let got = unmapped_fields(&t.known, &t.dynamic, &json!({"s_name": "x", "code": "42", "d": "2020-05-01"}))
            .unwrap()
            .unwrap();
        assert_eq!(got["properties"]["s_name"], json!({"type": "keyword"}));
        assert_eq!(got["properties"]["code"]["type"], "long");
        assert_eq!(got["properties"]["d"]["type"], "text");
    }
}
