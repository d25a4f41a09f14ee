//! Index time: each vector in `_source` is checked against its field's dimension and stored as
//! little-endian f32 bytes in the field's bytes fast field.

use serde_json::Value;
use tantivy::TantivyDocument;

use super::field::{VectorField, KNN_VECTOR_TYPE};
use crate::document::lookup;
use crate::error::{EngineError, Result};
use crate::mapping::Mapping;

/// Adds every mapped vector of `source` to `doc`; a missing or null vector is no vector.
pub fn add_vectors(doc: &mut TantivyDocument, mapping: &Mapping, source: &Value, id: &str) -> Result<()> {
    for vf in mapping.vectors.values() {
        match lookup(source, &vf.name) {
            None | Some(Value::Null) => {}
            Some(value) => doc.add_bytes(vf.field, &encode(vf, value, id)?),
        }
    }
    Ok(())
}

fn encode(vf: &VectorField, value: &Value, id: &str) -> Result<Vec<u8>> {
    let fail = |why: String| {
        EngineError::MapperParsing(format!(
            "failed to parse field [{}] of type [{KNN_VECTOR_TYPE}] in document with id '{id}'. {why}",
            vf.name
        ))
    };
    let items = value.as_array().ok_or_else(|| fail(format!("Vector must be an array of numbers, found [{value}]")))?;
    if items.len() != vf.dimension {
        return Err(fail(format!("Vector dimension mismatch. Expected: {}, Given: {}", vf.dimension, items.len())));
    }
    let mut bytes = Vec::with_capacity(items.len() * 4);
    for item in items {
        let x = item
            .as_f64()
            .map(|f| f as f32)
            .filter(|f| f.is_finite())
            .ok_or_else(|| fail(format!("KNN vector values must be finite numbers, found [{item}]")))?;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    Ok(bytes)
}
