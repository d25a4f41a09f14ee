//! `properties` parsed into field specs: each field's type and parameters checked as ES's
//! mapper checks them (its errors are `mapper_parsing_exception`s), multi-fields and objects
//! flattened to dotted names, nested objects collected with their scopes.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tantivy::schema::Field;

use super::params::mapper_err;
use super::{FieldMapping, FieldType, NestedPath};
use crate::date::{parse_format_list, DateFormat, DEFAULT_FORMATS};
use crate::error::{EngineError, Result};
use crate::store::dynamic::Dynamic;

/// A field definition before it is given a tantivy field.
pub(crate) struct FieldSpec {
    pub(crate) name: String,
    source_path: String,
    pub(crate) field_type: FieldType,
    date_formats: Vec<DateFormat>,
    ignore_above: Option<usize>,
    nested: Option<usize>,
    similarity: Option<String>,
    ip: crate::ip::IpParams,
    pub(crate) params: super::params::FieldParams,
}

/// What parsing `properties` collects: the fields and the nested object paths.
#[derive(Default)]
pub(crate) struct Parsed {
    pub(crate) specs: Vec<FieldSpec>,
    pub(crate) nested: Vec<NestedPath>,
    /// `dynamic` set on objects, by path.
    pub(crate) object_dynamic: BTreeMap<String, Dynamic>,
    /// `completion` fields (`completion/field.rs`).
    pub(crate) completions: Vec<crate::completion::field::CompletionSpec>,
    /// Field aliases (`type: alias`): name -> the path of the field it stands for.
    pub(crate) aliases: BTreeMap<String, String>,
}

impl FieldSpec {
    pub(crate) fn params(&self) -> &super::params::FieldParams {
        &self.params
    }

    pub(crate) fn into_field(self, field: Field) -> FieldMapping {
        FieldMapping {
            name: self.name,
            source_path: self.source_path,
            field_type: self.field_type,
            date_formats: self.date_formats,
            ignore_above: self.ignore_above,
            field,
            nested: self.nested,
            similarity: self.similarity,
            ip: self.ip,
            params: self.params,
        }
    }
}

pub(crate) fn parse_properties(value: &Value, prefix: &str, scope: Option<usize>, out: &mut Parsed) -> Result<()> {
    let props =
        value.as_object().ok_or_else(|| mapper_err("Failed to parse mapping: [properties] must be an object"))?;
    for (name, def) in props {
        if name.is_empty() {
            return Err(EngineError::MapperParsingCaused {
                reason: "Failed to parse mapping: name cannot be empty string".into(),
                cause_type: "illegal_argument_exception",
                cause_reason: "name cannot be empty string".into(),
            });
        }
        let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        let def = def.as_object().ok_or_else(|| {
            mapper_err(&format!("Failed to parse mapping: Expected map for property [fields] on field [{full}]"))
        })?;
        // Inside a nested object a value is read from that object, not from the root document.
        let source_path = match scope {
            Some(at) => full[out.nested[at].path.len() + 1..].to_string(),
            None => full.clone(),
        };
        parse_field(&full, &source_path, def, scope, out, true)?;
    }
    Ok(())
}

fn parse_field(
    name: &str,
    source_path: &str,
    def: &Map<String, Value>,
    scope: Option<usize>,
    out: &mut Parsed,
    allow_subfields: bool,
) -> Result<()> {
    let type_name = match def.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(_) => return Err(mapper_err(&format!("Failed to parse mapping: type for [{name}] must be a string"))),
        None if def.contains_key("properties") => "object",
        None => "object",
    };
    // Vector fields are parsed by `knn::parse_vector_specs`; as a multi-field they are refused below.
    if (type_name == crate::knn::KNN_VECTOR_TYPE || type_name == crate::knn::DENSE_VECTOR_TYPE) && allow_subfields {
        if scope.is_some() {
            return Err(mapper_err(&format!(
                "Failed to parse mapping: [{type_name}] field [{name}] inside a [nested] object is not supported"
            )));
        }
        return Ok(());
    }
    if type_name == "object" {
        if let Some(dynamic) = def.get("dynamic") {
            out.object_dynamic.insert(name.to_string(), Dynamic::parse(dynamic)?);
        }
        if let Some(props) = def.get("properties") {
            parse_properties(props, name, scope, out)?;
        }
        return Ok(());
    }
    if type_name == "alias" {
        return parse_alias(name, def, scope, out);
    }
    if type_name == "nested" && allow_subfields {
        return parse_nested(name, def, scope, out);
    }
    if type_name == "completion" {
        return parse_completion(name, source_path, def, scope, out, allow_subfields);
    }
    let field_type = FieldType::parse(type_name).ok_or_else(|| {
        mapper_err(&format!("Failed to parse mapping: No handler for type [{type_name}] declared on field [{name}]"))
    })?;
    let mut spec = FieldSpec {
        name: name.to_string(),
        source_path: source_path.to_string(),
        field_type,
        date_formats: DEFAULT_FORMATS.to_vec(),
        ignore_above: None,
        nested: scope,
        similarity: None,
        ip: crate::ip::IpParams::default(),
        params: Default::default(),
    };
    // ES keeps no doc values for binary fields unless asked.
    spec.params.doc_values = field_type != FieldType::Binary;
    let mut subfields = Vec::new();
    for (param, value) in def {
        match (param.as_str(), field_type) {
            ("type", _) => {}
            ("format", FieldType::Date | FieldType::Range(crate::range_field::RangeKind::Date)) => {
                let text =
                    value.as_str().ok_or_else(|| mapper_err("Failed to parse mapping: [format] must be a string"))?;
                spec.date_formats = parse_format_list(text).map_err(|e| {
                    mapper_err(&format!("Failed to parse mapping: Error parsing [format] on field [{name}]: {e}"))
                })?;
            }
            ("ignore_above", FieldType::Keyword) => {
                spec.ignore_above = value.as_u64().map(|v| v as usize);
            }
            // Checked against the index's similarities when the index is created.
            ("similarity", FieldType::Text | FieldType::Keyword) => {
                let name = value
                    .as_str()
                    .ok_or_else(|| mapper_err("Failed to parse mapping: [similarity] must be a string"))?;
                spec.similarity = Some(name.to_string());
            }
            ("ignore_malformed" | "null_value", FieldType::Ip) => spec.ip.set(name, param, value)?,
            ("fields", _) if allow_subfields => {
                let subs = value
                    .as_object()
                    .ok_or_else(|| mapper_err("Failed to parse mapping: [fields] must be an object"))?;
                for (sub_name, sub_def) in subs {
                    let sub_def = sub_def.as_object().ok_or_else(|| {
                        mapper_err("Failed to parse mapping: multi-field definitions must be objects")
                    })?;
                    subfields.push((format!("{name}.{sub_name}"), sub_def.clone()));
                }
            }
            // Accepted with ES defaults only: we always index and keep doc values.
            ("index" | "norms", _) => {}
            ("ignore_z_value", FieldType::GeoPoint) if value == true => {}
            _ if spec.params.take(name, field_type, param, value)? => {}
            _ => {
                return Err(mapper_err(&format!(
                    "Failed to parse mapping: unknown parameter [{param}] on mapper [{name}] of type [{type_name}]"
                )))
            }
        }
    }
    spec.params.finish(name, field_type)?;
    out.specs.push(spec);
    for (sub_name, mut sub_def) in subfields {
        if sub_def.get("type").and_then(Value::as_str) == Some("completion") {
            // A completion multi-field reads its parent's values as that type gives them.
            sub_def.insert("__parent_type".into(), Value::String(type_name.to_string()));
        }
        parse_field(&sub_name, source_path, &sub_def, scope, out, false)?;
    }
    Ok(())
}

/// A `completion` field (or multi-field) and its own multi-fields.
fn parse_completion(
    name: &str,
    source_path: &str,
    def: &Map<String, Value>,
    scope: Option<usize>,
    out: &mut Parsed,
    allow_subfields: bool,
) -> Result<()> {
    if scope.is_some() {
        return Err(mapper_err(&format!(
            "Failed to parse mapping: [completion] field [{name}] inside a [nested] object is not supported"
        )));
    }
    let mut def = def.clone();
    let parent = def.remove("__parent_type");
    let parent_type = parent.as_ref().and_then(Value::as_str).or((!allow_subfields).then_some("completion"));
    let (spec, subfields) = crate::completion::field::parse_spec(name, source_path, &def, parent_type)?;
    out.completions.push(spec);
    for (sub_name, sub_def) in subfields {
        parse_field(&sub_name, source_path, &sub_def, scope, out, false)?;
    }
    Ok(())
}

/// A field alias: `{"type": "alias", "path": "<field>"}`; the target is checked once every
/// field is known (`Mapping::check_aliases`).
fn parse_alias(name: &str, def: &Map<String, Value>, scope: Option<usize>, out: &mut Parsed) -> Result<()> {
    let mut path = None;
    for (param, value) in def {
        match (param.as_str(), value) {
            ("type", _) => {}
            ("path", Value::String(p)) => path = Some(p.clone()),
            _ => {
                return Err(mapper_err(&format!(
                    "Failed to parse mapping: unknown parameter [{param}] on mapper [{name}] of type [alias]"
                )))
            }
        }
    }
    let path = path.ok_or_else(|| {
        mapper_err(&format!("Failed to parse mapping: The [path] property must be specified for field [{name}]."))
    })?;
    if scope.is_some() {
        return Err(mapper_err(&format!(
            "Failed to parse mapping: field alias [{name}] inside a [nested] object is not supported"
        )));
    }
    out.aliases.insert(name.to_string(), path);
    Ok(())
}

/// A `nested` object: its fields are indexed on documents of their own, one per object.
/// ES's `include_in_parent`/`include_in_root` copies are not supported and say so.
fn parse_nested(name: &str, def: &Map<String, Value>, scope: Option<usize>, out: &mut Parsed) -> Result<()> {
    for (param, value) in def {
        match param.as_str() {
            "type" | "properties" => {}
            "dynamic" => {}
            "include_in_parent" | "include_in_root" if value == false => {}
            _ => {
                return Err(mapper_err(&format!(
                    "Failed to parse mapping: unknown parameter [{param}] on mapper [{name}] of type [nested]"
                )))
            }
        }
    }
    out.nested.push(NestedPath { path: name.to_string(), parent: scope });
    let at = out.nested.len() - 1;
    if let Some(props) = def.get("properties") {
        parse_properties(props, name, Some(at), out)?;
    }
    Ok(())
}
