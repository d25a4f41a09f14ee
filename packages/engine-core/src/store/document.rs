//! Turns one `_source` JSON document into a tantivy document according to the mapping,
//! with ES's coercion rules (numeric strings into numbers, numbers into keywords, floats
//! rounded to f32 for `float` fields) and ES's parse errors for values that do not fit.

use serde_json::Value;
use tantivy::TantivyDocument;

use crate::date::parse_date_value;
use crate::error::{EngineError, Result};
use crate::json_source::{coerce_f64, coerce_i64, lookup, lookup_all};
use crate::store::mapping::{FieldMapping, FieldType, Mapping};

/// Lucene's `IndexWriter.MAX_TERM_LENGTH`: the longest term, in UTF-8 bytes.
const MAX_TERM_BYTES: usize = 32_766;

/// Builds the tantivy document; `source` is the parsed `_source`, `raw` its original bytes.
/// `_version` and `_seq_no` are added by the writer once they are assigned.
pub fn build_document(mapping: &Mapping, id: &str, source: &Value, raw: &[u8]) -> Result<TantivyDocument> {
    if !source.is_object() {
        return Err(EngineError::DocumentParsing("failed to parse, document is empty or not an object".to_string()));
    }
    // ES refuses a value at an alias's path: an alias is read through, never written.
    if let Some(alias) = mapping.aliases.keys().find(|a| lookup(source, a).is_some()) {
        return Err(EngineError::DocumentParsing(format!("Cannot write to a field alias [{alias}].")));
    }
    let mut doc = TantivyDocument::default();
    doc.add_text(mapping.id_field, id);
    if mapping.source_enabled && mapping.source_as_text {
        // `raw` parsed as JSON, so it is UTF-8; checked again rather than trusted.
        let text = std::str::from_utf8(raw)
            .map_err(|_| EngineError::DocumentParsing("failed to parse, document is not valid UTF-8".to_string()))?;
        doc.add_text(mapping.source_field, text);
    } else if mapping.source_enabled {
        doc.add_bytes(mapping.source_field, raw);
    }
    // Fields of `nested` objects live on the objects' own documents (`store::nested_documents`).
    let mut direct = 0;
    for fm in mapping.fields.values().filter(|fm| fm.nested.is_none()) {
        direct += usize::from(add_field(&mut doc, mapping, fm, source, id)?);
    }
    // Fields the mapping lacks are mapped first (the engine applies the update and writes the
    // document again). When every top-level key was a mapped field of its own (a flat document,
    // the common case), there is nothing to look for: the walk costs as much as a third of
    // building the document.
    if direct < source.as_object().map_or(0, |o| o.len()) {
        if let Some(update) = crate::store::dynamic::unmapped_fields(&mapping.known, &mapping.dynamic, source)? {
            return Err(EngineError::MappingUpdate(update));
        }
    }
    crate::knn::add_vectors(&mut doc, &mapping.vectors, source, id)?;
    if !mapping.completions.is_empty() {
        crate::completion::field::add_inputs(&mut doc, &mapping.completions, source)?;
    }
    Ok(doc)
}

/// Adds `fm`'s values found in `object` (the document, or one nested object of it); true when
/// they sat under a key of `object` named exactly as the field (not a multi-field, not dotted).
pub(crate) fn add_field(
    doc: &mut TantivyDocument,
    mapping: &Mapping,
    fm: &FieldMapping,
    object: &Value,
    id: &str,
) -> Result<bool> {
    // The common case first: an undotted field that is a key of the object itself (a dotted one
    // may also have values under its objects, which `lookup_all` gathers with the literal key).
    let direct = object.as_object().and_then(|o| o.get(&fm.source_path));
    if let Some(value) = direct.filter(|_| !fm.source_path.contains('.')) {
        add_values(doc, mapping, fm, std::slice::from_ref(&value), id)?;
        return Ok(fm.name.len() == fm.source_path.len());
    }
    let mut values = Vec::new();
    lookup_all(object, &fm.source_path, &mut values);
    add_values(doc, mapping, fm, &values, id)?;
    Ok(direct.is_some() && fm.name.len() == fm.source_path.len())
}

fn add_values(
    doc: &mut TantivyDocument,
    mapping: &Mapping,
    fm: &FieldMapping,
    values: &[&Value],
    id: &str,
) -> Result<()> {
    if fm.field_type.presence_in_field_names() && values.iter().any(|v| has_value(v)) {
        doc.add_text(mapping.field_names_field, &fm.name);
    }
    let mut ignored = false;
    for value in values {
        if fm.field_type == FieldType::GeoPoint {
            crate::geo::add_points(doc, fm.field, &fm.name, value, id)?;
            continue;
        }
        let items = match value {
            Value::Array(items) => items.as_slice(),
            other => std::slice::from_ref(*other),
        };
        for item in items {
            match add_value(doc, fm, item, id) {
                // `ignore_malformed`: the value is skipped and the field listed in `_ignored`.
                Err(EngineError::DocumentParsing(_)) if ignores_malformed(fm) => ignored = true,
                other => other?,
            }
        }
    }
    if ignored {
        if let Some(field) = mapping.ignored_field {
            doc.add_text(field, &fm.name);
        }
    }
    Ok(())
}

fn ignores_malformed(fm: &FieldMapping) -> bool {
    fm.params.ignore_malformed || fm.ip.ignore_malformed
}

/// ES counts a field as present unless it is null or an array of nulls (`""` exists).
fn has_value(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Array(items) => items.iter().any(|v| !v.is_null()),
        _ => true,
    }
}

fn add_value(doc: &mut TantivyDocument, fm: &FieldMapping, value: &Value, id: &str) -> Result<()> {
    if value.is_null() {
        if let Some(addr) = fm.ip.null_value {
            doc.add_text(fm.field, crate::ip::to_key(addr));
        }
        // `null_value`: indexed in place of the null (checked against the type when mapped).
        if let Some(substitute) = fm.params.null_value.as_ref() {
            return add_value(doc, fm, substitute, id);
        }
        return Ok(());
    }
    let bad = || parse_error(fm, value, id);
    match fm.field_type {
        FieldType::Keyword | FieldType::Text => {
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(bad()),
            };
            if fm.ignore_above.is_some_and(|limit| text.chars().count() > limit) {
                return Ok(());
            }
            // Lucene's limit on one term (a keyword is one term): ES refuses the document.
            if fm.field_type == FieldType::Keyword && text.len() > MAX_TERM_BYTES {
                let prefix: Vec<u8> = text.bytes().take(30).collect();
                return Err(EngineError::IllegalArgument(format!(
                    "Document contains at least one immense term in field=\"{}\" (whose UTF8 encoding is longer than the max length {MAX_TERM_BYTES}), all of which were skipped.  Please correct the analyzer to not produce such terms.  The prefix of the first immense term is: '{prefix:?}...'",
                    fm.name
                )));
            }
            doc.add_text(fm.field, &text);
        }
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte => {
            let n = coerce_i64(value).ok_or_else(bad)?;
            let fits = match fm.field_type {
                FieldType::Integer => i32::try_from(n).is_ok(),
                FieldType::Short => i16::try_from(n).is_ok(),
                FieldType::Byte => i8::try_from(n).is_ok(),
                _ => true,
            };
            if !fits {
                return Err(bad());
            }
            doc.add_i64(fm.field, n);
        }
        FieldType::Double => doc.add_f64(fm.field, coerce_f64(value).ok_or_else(bad)?),
        FieldType::HalfFloat => doc.add_f64(fm.field, crate::number::round_to_half(coerce_f64(value).ok_or_else(bad)?)),
        FieldType::ScaledFloat => {
            let v = coerce_f64(value).ok_or_else(bad)?;
            doc.add_f64(fm.field, crate::number::round_to_scale(v, fm.params.scaling_factor))
        }
        // Base64 in `_source`; decoded only to check it (and for the column, when kept).
        FieldType::Binary => {
            use base64::Engine as _;
            let text = value.as_str().ok_or_else(bad)?;
            let bytes = base64::engine::general_purpose::STANDARD.decode(text).map_err(|_| bad())?;
            if fm.params.doc_values {
                doc.add_bytes(fm.field, &bytes);
            }
        }
        // ES stores `float` as 32-bit: round-trip through f32 so aggregations match it exactly.
        FieldType::Float => doc.add_f64(fm.field, coerce_f64(value).ok_or_else(bad)? as f32 as f64),
        FieldType::Date => {
            let ms = parse_date_value(value, &fm.date_formats).map_err(|_| bad())?;
            doc.add_i64(fm.field, ms);
        }
        FieldType::Boolean => {
            let b = match value {
                Value::Bool(b) => *b,
                Value::String(s) if s == "true" => true,
                Value::String(s) if s == "false" || s.is_empty() => false,
                _ => return Err(bad()),
            };
            doc.add_bool(fm.field, b);
        }
        FieldType::Ip => match value.as_str().and_then(crate::ip::parse_ip) {
            Some(addr) => doc.add_text(fm.field, crate::ip::to_key(addr)),
            None => return Err(bad()),
        },
        FieldType::GeoPoint => unreachable!("geo points are added by `geo::add_points`"),
        FieldType::Range(kind) => {
            let mut intervals = Vec::new();
            crate::range_field::parse_values(kind, value, &fm.date_formats, &mut intervals).map_err(|_| bad())?;
            for (lo, hi) in intervals {
                doc.add_bytes(fm.field, &crate::range_field::encode(lo, hi));
            }
        }
    }
    Ok(())
}

fn parse_error(fm: &FieldMapping, value: &Value, id: &str) -> EngineError {
    let preview = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    EngineError::DocumentParsing(format!(
        "failed to parse field [{}] of type [{}] in document with id '{}'. Preview of field's value: '{}'",
        fm.name,
        fm.field_type.name(),
        id,
        preview
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tantivy::schema::Value as _;

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(&json!({"properties": {
            "n": {"type": "long"}, "f": {"type": "float"}, "k": {"type": "keyword"},
            "user": {"properties": {"age": {"type": "integer"}}}, "d": {"type": "date"}
        }}))
        .unwrap()
    }

    #[test]
    fn coerces_like_elasticsearch() {
        let m = mapping();
        let src = json!({"n": "42", "f": 1.1, "k": 7, "user.age": 3, "d": "2024-01-01"});
        let doc = build_document(&m, "1", &src, b"{}").unwrap();
        assert_eq!(doc.get_first(m.get("n").unwrap().field).unwrap().as_i64(), Some(42));
        assert_eq!(doc.get_first(m.get("f").unwrap().field).unwrap().as_f64(), Some(1.1f32 as f64));
        assert_eq!(doc.get_first(m.get("k").unwrap().field).unwrap().as_str(), Some("7"));
        assert_eq!(doc.get_first(m.get("user.age").unwrap().field).unwrap().as_i64(), Some(3));
        assert_eq!(doc.get_first(m.get("d").unwrap().field).unwrap().as_i64(), Some(1_704_067_200_000));
    }

    #[test]
    fn arrays_of_objects_flatten_into_their_fields() {
        let m = mapping();
        let src = json!({"user": [{"age": 1}, {"age": [2, 3]}, {}], "user.age": 4});
        let doc = build_document(&m, "1", &src, b"{}").unwrap();
        let mut ages: Vec<i64> = doc.get_all(m.get("user.age").unwrap().field).filter_map(|v| v.as_i64()).collect();
        ages.sort_unstable();
        assert_eq!(ages, vec![1, 2, 3, 4]);
        // A value that does not fit is refused wherever it sits.
        assert!(build_document(&m, "1", &json!({"user": [{"age": 1}, {"age": "x"}]}), b"{}").is_err());
    }

    #[test]
    fn nested_objects_and_arrays() {
        let m = mapping();
        let src = json!({"user": {"age": [1, 2]}});
        let doc = build_document(&m, "1", &src, b"{}").unwrap();
        assert_eq!(doc.get_all(m.get("user.age").unwrap().field).count(), 2);
    }

    #[test]
    fn rejects_values_that_do_not_fit_the_mapping() {
        let m = mapping();
        let err = build_document(&m, "7", &json!({"n": "abc"}), b"{}").unwrap_err();
        assert_eq!(err.es_type_and_status(), ("document_parsing_exception", 400));
        assert!(err.to_string().contains("failed to parse field [n] of type [long] in document with id '7'"));
        assert!(build_document(&m, "7", &json!({"user": {"age": 1e12}}), b"{}").is_err());
        assert!(build_document(&m, "7", &json!([1]), b"[1]").is_err());
    }
}
