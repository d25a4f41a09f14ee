//! A hit's `fields` section: `docvalue_fields` read from the columns, `fields` read from
//! `_source` and shown as the mapping types them (dates in their format, numbers as numbers,
//! keywords as strings, values past `ignore_above` left out), as ES's fetch phase does.
//! Names may be patterns (`b*`); unmapped names show nothing.

use serde_json::{Map, Value};
use tantivy::{DocAddress, Searcher};

use crate::date::{parse_date_value, DateFormat};
use crate::error::{EngineError, Result, ShardCause};
use crate::json_source::coerce_f64;
use crate::store::mapping::{FieldMapping, FieldType, Mapping};
use crate::store::value_format::ValueFormat;
use crate::wildcard::glob;

/// `docvalue_fields` / `fields` entry: a field name or pattern and an optional format.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRequest {
    pub pattern: String,
    pub format: Option<String>,
}

struct Requested<'a> {
    field: &'a FieldMapping,
    format: Option<ValueFormat>,
}

pub struct HitFields<'a> {
    mapping: &'a Mapping,
    docvalue: Vec<Requested<'a>>,
    source: Vec<Requested<'a>>,
}

fn expand<'a>(requests: &[FieldRequest], mapping: &'a Mapping, from_columns: bool) -> Result<Vec<Requested<'a>>> {
    let mut out: Vec<Requested<'a>> = Vec::new();
    for request in requests {
        for field in mapping.fields.values().filter(|f| glob(&request.pattern, &f.name) && f.nested.is_none()) {
            if from_columns && field.field_type == FieldType::Text && !field.params.fielddata {
                // A pattern only picks fields that have doc values; a name asks for them.
                if request.pattern.contains('*') {
                    continue;
                }
                return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
                    "Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [{}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.",
                    field.name
                )));
            }
            if out.iter().any(|r| r.field.name == field.name) {
                continue;
            }
            let format =
                request.format.as_deref().map(|f| ValueFormat::parse(f, Some(field.field_type))).transpose()?;
            out.push(Requested { field, format });
        }
    }
    Ok(out)
}

impl<'a> HitFields<'a> {
    /// `None` when neither option asks for anything.
    pub fn prepare(
        docvalue: &[FieldRequest],
        source: &[FieldRequest],
        mapping: &'a Mapping,
        index: &str,
    ) -> Result<Option<Self>> {
        if docvalue.is_empty() && source.is_empty() {
            return Ok(None);
        }
        if !source.is_empty() && !mapping.source_enabled {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!(
                    "Unable to retrieve the requested [fields] since _source is disabled in the mappings for index [{}]",
                    index
                ),
            ));
        }
        Ok(Some(HitFields {
            mapping,
            docvalue: expand(docvalue, mapping, true)?,
            source: expand(source, mapping, false)?,
        }))
    }

    /// The `fields` object of a hit, or `None` when it has no value to show.
    pub fn render(&self, searcher: &Searcher, address: DocAddress, raw_source: &[u8]) -> Option<Value> {
        let mut out = Map::new();
        for r in &self.docvalue {
            let values = column_values(searcher, address, r, self.mapping);
            if !values.is_empty() {
                out.insert(r.field.name.clone(), Value::Array(values));
            }
        }
        if !self.source.is_empty() {
            let source: Value = serde_json::from_slice(raw_source).unwrap_or(Value::Null);
            for r in &self.source {
                let mut raw = Vec::new();
                collect_path(&source, &r.field.source_path, &mut raw);
                let values: Vec<Value> = raw.into_iter().filter_map(|v| typed(v, r)).collect();
                if !values.is_empty() {
                    out.insert(r.field.name.clone(), Value::Array(values));
                }
            }
        }
        (!out.is_empty()).then_some(Value::Object(out))
    }
}

/// The `fields` of a document read by id with `stored_fields`: each named (or matched) field
/// mapped with `store`, its values read from `raw_source` and typed as `fields` types them.
pub fn stored_fields(mapping: &Mapping, names: &[String], raw_source: &[u8]) -> Option<Value> {
    let picked: Vec<Requested> = mapping
        .fields
        .values()
        .filter(|f| f.params.store && f.nested.is_none() && names.iter().any(|n| glob(n, &f.name)))
        .map(|field| Requested { field, format: None })
        .collect();
    if picked.is_empty() {
        return None;
    }
    let source: Value = serde_json::from_slice(raw_source).unwrap_or(Value::Null);
    let mut out = Map::new();
    for r in &picked {
        let mut raw = Vec::new();
        collect_path(&source, &r.field.source_path, &mut raw);
        let values: Vec<Value> = raw.into_iter().filter_map(|v| typed(v, r)).collect();
        if !values.is_empty() {
            out.insert(r.field.name.clone(), Value::Array(values));
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

fn shown_number(v: f64, r: &Requested, integer: bool) -> Value {
    match &r.format {
        Some(format) => Value::String(format.format(v)),
        None if integer => Value::from(v as i64),
        None => Value::from(v),
    }
}

fn shown_date(ms: i64, r: &Requested) -> Value {
    match &r.format {
        Some(format) => Value::String(format.format(ms as f64)),
        None => Value::String(date_in_field_format(ms, &r.field.date_formats)),
    }
}

/// A date as the field's first format prints it (ISO for ES's default).
fn date_in_field_format(ms: i64, formats: &[DateFormat]) -> String {
    match formats.first() {
        Some(DateFormat::Pattern(p)) => p.format(ms),
        Some(DateFormat::EpochMillis) => ms.to_string(),
        Some(DateFormat::EpochSecond) => ms.div_euclid(1000).to_string(),
        _ => crate::date::format_millis(ms),
    }
}

fn column_values(searcher: &Searcher, address: DocAddress, r: &Requested, mapping: &Mapping) -> Vec<Value> {
    let reader = searcher.segment_reader(address.segment_ord);
    let ff = reader.fast_fields();
    let name = mapping.schema.get_field_name(r.field.field);
    let doc = address.doc_id;
    match r.field.field_type {
        // Text with fielddata: its analyzed terms, as ES's uninverted field data shows them.
        FieldType::Keyword | FieldType::Ip | FieldType::Text => {
            let Ok(Some(column)) = ff.str(name) else { return Vec::new() };
            let mut text = String::new();
            let is_ip = r.field.field_type == FieldType::Ip;
            column
                .term_ords(doc)
                .map(|ord| {
                    text.clear();
                    let _ = column.ord_to_str(ord, &mut text);
                    Value::String(if is_ip { crate::ip::display_key(&text) } else { text.clone() })
                })
                .collect()
        }
        FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
            let Ok(Some(column)) = ff.column_opt::<f64>(name) else { return Vec::new() };
            let mut values: Vec<f64> = column.values_for_doc(doc).collect();
            values.sort_by(f64::total_cmp);
            values.into_iter().map(|v| shown_number(v, r, false)).collect()
        }
        FieldType::Boolean => {
            let Ok(Some(column)) = ff.column_opt::<bool>(name) else { return Vec::new() };
            column.values_for_doc(doc).map(Value::Bool).collect()
        }
        FieldType::Binary => {
            use base64::Engine as _;
            let Ok(Some(column)) = ff.bytes(name) else { return Vec::new() };
            let mut bytes = Vec::new();
            column
                .term_ords(doc)
                .filter_map(|ord| {
                    bytes.clear();
                    column.ord_to_bytes(ord, &mut bytes).ok()?;
                    Some(Value::String(base64::engine::general_purpose::STANDARD.encode(&bytes)))
                })
                .collect()
        }
        ty => {
            let Ok(Some(column)) = ff.column_opt::<i64>(name) else { return Vec::new() };
            let mut values: Vec<i64> = column.values_for_doc(doc).collect();
            values.sort_unstable();
            if ty == FieldType::Date {
                values.into_iter().map(|ms| shown_date(ms, r)).collect()
            } else {
                values.into_iter().map(|v| shown_number(v as f64, r, true)).collect()
            }
        }
    }
}

/// The values at a dotted path of `_source` (through objects and arrays).
fn collect_path<'v>(value: &'v Value, path: &str, out: &mut Vec<&'v Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| collect_path(item, path, out)),
        Value::Object(obj) => {
            if let Some(v) = obj.get(path) {
                return flatten(v, out);
            }
            // `a.b` may be an object `a` holding `b`, or a dotted key at any level.
            for at in path.match_indices('.').map(|(i, _)| i) {
                if let Some(child) = obj.get(&path[..at]) {
                    collect_path(child, &path[at + 1..], out);
                }
            }
        }
        _ => {}
    }
}

fn flatten<'v>(value: &'v Value, out: &mut Vec<&'v Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| flatten(item, out)),
        Value::Null => {}
        other => out.push(other),
    }
}

/// A `_source` value as the field's type shows it (`None`: not a value of that type).
fn typed(value: &Value, r: &Requested) -> Option<Value> {
    let field = r.field;
    match field.field_type {
        FieldType::Keyword | FieldType::Text => {
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Object(_) => return None,
                other => other.to_string(),
            };
            if field.ignore_above.is_some_and(|limit| text.chars().count() > limit) {
                return None;
            }
            Some(Value::String(text))
        }
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte => {
            coerce_f64(value).map(|v| shown_number(v.trunc(), r, true))
        }
        FieldType::Double => coerce_f64(value).map(|v| shown_number(v, r, false)),
        FieldType::Float | FieldType::HalfFloat => coerce_f64(value).map(|v| shown_number(v as f32 as f64, r, false)),
        FieldType::ScaledFloat => coerce_f64(value)
            .map(|v| shown_number(crate::number::round_to_scale(v, field.params.scaling_factor), r, false)),
        // The base64 text as given.
        FieldType::Binary => value.as_str().map(|s| Value::String(s.to_string())),
        FieldType::Range(kind) => crate::range_field::shown(kind, value, &field.date_formats),
        FieldType::GeoPoint => crate::geo::parse::geojson(value),
        FieldType::Boolean => match value {
            Value::Bool(b) => Some(Value::Bool(*b)),
            Value::String(s) if s == "true" || s == "false" => Some(Value::Bool(s == "true")),
            _ => None,
        },
        FieldType::Date => parse_date_value(value, &field.date_formats).ok().map(|ms| shown_date(ms, r)),
        FieldType::Ip => value.as_str().and_then(crate::ip::parse_ip).map(|a| Value::String(crate::ip::format_ip(a))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_patterns() {
        assert!(glob("b*", "bytes") && glob("*", "x") && glob("t*.raw", "title.raw"));
        assert!(!glob("b*", "tabs") && !glob("bytes", "bytes2"));
    }
}
