//! The `geo_point` field type: points quantized as Lucene does (`encoding.rs`), parsed from
//! any of ES's forms (`parse.rs`), and the queries, sort and aggregations over them. A field
//! is one multi-valued u64 column of packed encoded (lat, lon): one column read per point.
//!
//! Layer: value types, below `store/`. Uses only the leaves (ARCHITECTURE.md).
pub mod distance;
pub mod encoding;
pub mod geohash;
pub mod parse;
pub mod tile;

use serde_json::Value;
use tantivy::schema::{Field, NumericOptions, SchemaBuilder};
use tantivy::TantivyDocument;

use crate::error::{EngineError, Result};
use parse::{check_range, is_coordinate_array, parse_point};

/// Column-only: every geo query, sort and aggregation scans the column.
pub(crate) fn add_geo_field(builder: &mut SchemaBuilder, tantivy_name: &str) -> Field {
    builder.add_u64_field(tantivy_name, NumericOptions::default().set_fast())
}

/// Adds the point(s) of a document's value to the field `field`, named `name` in errors: one
/// point, or an array of points.
pub(crate) fn add_points(doc: &mut TantivyDocument, field: Field, name: &str, value: &Value, id: &str) -> Result<()> {
    match value {
        Value::Null => Ok(()),
        Value::Array(items) if !is_coordinate_array(items) => {
            items.iter().filter(|v| !v.is_null()).try_for_each(|item| add_point(doc, field, name, item, id))
        }
        one => add_point(doc, field, name, one, id),
    }
}

fn add_point(doc: &mut TantivyDocument, field: Field, name: &str, value: &Value, id: &str) -> Result<()> {
    let point = parse_point(value).and_then(|p| check_range(&p, name).map(|_| p));
    match point {
        Ok(p) => {
            doc.add_u64(field, encoding::pack(p.lat, p.lon));
            Ok(())
        }
        Err(cause) => Err(EngineError::DocumentParsing(format!(
            "failed to parse field [{}] of type [geo_point] in document with id '{id}'. Preview of field's value: '{}': {cause}",
            name,
            preview(value)
        ))),
    }
}

fn preview(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tantivy::schema::Value as _;

    use super::encoding::pack;
    use crate::store::document::build_document;
    use crate::store::mapping::{FieldType, Mapping};

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(&json!({"properties": {"pin": {"type": "geo_point"}}})).unwrap()
    }

    #[test]
    fn indexes_every_form_and_arrays_of_points() {
        let m = mapping();
        let field = m.get("pin").unwrap();
        assert_eq!(field.field_type, FieldType::GeoPoint);
        let one = |v| build_document(&m, "1", &json!({ "pin": v }), b"{}").unwrap();
        for form in [json!({"lat": 41.12, "lon": -71.34}), json!("41.12,-71.34"), json!([-71.34, 41.12])] {
            let doc = one(form);
            assert_eq!(doc.get_first(field.field).unwrap().as_u64(), Some(pack(41.12, -71.34)));
        }
        let doc = one(json!([{"lat": 1, "lon": 2}, "3,4", [6, 5], null]));
        let values: Vec<u64> = doc.get_all(field.field).filter_map(|v| v.as_u64()).collect();
        assert_eq!(values, vec![pack(1.0, 2.0), pack(3.0, 4.0), pack(5.0, 6.0)]);
        assert_eq!(one(json!(null)).get_all(field.field).count(), 0);
    }

    #[test]
    fn refuses_bad_points_as_a_parse_error() {
        let m = mapping();
        for bad in [json!({"lat": 91, "lon": 0}), json!([181, 0]), json!("abc,def"), json!({"lat": 1}), json!(true)] {
            let err = build_document(&m, "7", &json!({ "pin": bad }), b"{}").unwrap_err();
            assert_eq!(err.es_type_and_status().0, "document_parsing_exception", "{bad}");
            assert!(err.to_string().contains("failed to parse field [pin] of type [geo_point]"), "{err}");
        }
    }
}
