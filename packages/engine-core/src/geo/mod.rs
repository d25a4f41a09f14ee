//! The `geo_point` field type: points quantized as Lucene does (`encoding.rs`), parsed from
//! any of ES's forms (`parse.rs`), and the queries, sort and aggregations over them. A field
//! is one multi-valued u64 column of packed encoded (lat, lon): one column read per point.

pub mod aggs;
pub mod distance;
pub mod encoding;
pub mod geohash;
pub mod parse;
pub mod query;
pub mod sort;

use serde_json::Value;
use tantivy::schema::{Field, NumericOptions, SchemaBuilder};
use tantivy::TantivyDocument;

use crate::error::{EngineError, Result};
use crate::store::mapping::FieldMapping;
use parse::{check_range, is_coordinate_array, parse_point};

/// Column-only: every geo query, sort and aggregation scans the column.
pub(crate) fn add_geo_field(builder: &mut SchemaBuilder, tantivy_name: &str) -> Field {
    builder.add_u64_field(tantivy_name, NumericOptions::default().set_fast())
}

/// Adds the point(s) of a document's value: one point, or an array of points.
pub(crate) fn add_points(doc: &mut TantivyDocument, fm: &FieldMapping, value: &Value, id: &str) -> Result<()> {
    match value {
        Value::Null => Ok(()),
        Value::Array(items) if !is_coordinate_array(items) => {
            items.iter().filter(|v| !v.is_null()).try_for_each(|item| add_point(doc, fm, item, id))
        }
        one => add_point(doc, fm, one, id),
    }
}

fn add_point(doc: &mut TantivyDocument, fm: &FieldMapping, value: &Value, id: &str) -> Result<()> {
    let point = parse_point(value).and_then(|p| check_range(&p, &fm.name).map(|_| p));
    match point {
        Ok(p) => {
            doc.add_u64(fm.field, encoding::pack(p.lat, p.lon));
            Ok(())
        }
        Err(cause) => Err(EngineError::DocumentParsing(format!(
            "failed to parse field [{}] of type [geo_point] in document with id '{id}'. Preview of field's value: '{}': {cause}",
            fm.name,
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
