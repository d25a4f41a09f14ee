//! Index time: each vector in `_source` is checked against its field (dimension, and for ES
//! `dense_vector` ES's element and magnitude rules) and stored as little-endian f32 bytes in
//! the field's bytes fast field.

use serde_json::Value;
use tantivy::TantivyDocument;

use super::dense_vector::DENSE_VECTOR_TYPE;
use super::field::KNN_VECTOR_TYPE;
use super::space::ElementType;
use super::spec::VectorField;
use super::vector_checks::{element_error, magnitude_error, normalize, preview};
use crate::error::{EngineError, Result};
use crate::json_source::lookup;
use std::collections::BTreeMap;

/// The dims a `dense_vector` without `dims` may learn from its first document (ES's range).
const MAX_INFERRED_DIMS: usize = 4096;

/// Adds every mapped vector of `source` to `doc`; a missing or null vector is no vector.
pub fn add_vectors(
    doc: &mut TantivyDocument,
    vectors: &BTreeMap<String, VectorField>,
    source: &Value,
    id: &str,
) -> Result<()> {
    for vf in vectors.values() {
        let bytes = match lookup(source, &vf.name) {
            None | Some(Value::Null) => continue,
            Some(value) if vf.dense.is_some() => encode_dense(vf, value, id)?,
            Some(value) => encode(vf, value, id)?,
        };
        doc.add_bytes(vf.field, &bytes);
    }
    Ok(())
}

fn to_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// OpenSearch `knn_vector`, with the k-NN plugin's messages.
fn encode(vf: &VectorField, value: &Value, id: &str) -> Result<Vec<u8>> {
    let fail = |why: String| {
        EngineError::MapperParsing(format!(
            "failed to parse field [{}] of type [{KNN_VECTOR_TYPE}] in document with id '{id}'. {why}",
            vf.name
        ))
    };
    let dimension = vf.dimension().unwrap_or_default();
    let items = value.as_array().ok_or_else(|| fail(format!("Vector must be an array of numbers, found [{value}]")))?;
    if items.len() != dimension {
        return Err(fail(format!("Vector dimension mismatch. Expected: {dimension}, Given: {}", items.len())));
    }
    let mut values = Vec::with_capacity(items.len());
    for item in items {
        let x = item
            .as_f64()
            .map(|f| f as f32)
            .filter(|f| f.is_finite())
            .ok_or_else(|| fail(format!("KNN vector values must be finite numbers, found [{item}]")))?;
        values.push(x);
    }
    Ok(to_bytes(&values))
}

/// ES `dense_vector`. ES reports these as `document_parsing_exception` "[line:col] failed to
/// parse: ..."; we have no parser position, so the reason starts at "failed to parse".
fn encode_dense(vf: &VectorField, value: &Value, id: &str) -> Result<Vec<u8>> {
    let fail = |why: String| EngineError::DocumentParsing(format!("failed to parse: {why}"));
    let not_a_vector = || {
        EngineError::DocumentParsing(format!(
            "failed to parse field [{}] of type [{DENSE_VECTOR_TYPE}] in document with id '{id}'. Preview of field's value: '{value}'",
            vf.name
        ))
    };
    let items = value.as_array().ok_or_else(not_a_vector)?;
    let mut values = Vec::with_capacity(items.len());
    for item in items {
        values.push(item.as_f64().ok_or_else(not_a_vector)? as f32);
    }
    if vf.dimension().is_none() && !(1..=MAX_INFERRED_DIMS).contains(&values.len()) {
        return Err(fail(format!(
            "The number of dimensions should be in the range [1, {MAX_INFERRED_DIMS}] but was [{}]",
            values.len()
        )));
    }
    // The first document to arrive sets `dims` (ES's dynamic update from null); concurrent
    // writers agree on one value and the others are checked against it.
    let dims = *vf.dims.get_or_init(|| values.len());
    let in_doc = format!("The [{DENSE_VECTOR_TYPE}] field [{}] in doc [document with id '{id}']", vf.name);
    if values.len() > dims {
        return Err(fail(format!("{in_doc} has more dimensions than defined in the mapping [{dims}]")));
    }
    if values.len() < dims {
        return Err(fail(format!(
            "{in_doc} has a different number of dimensions [{}] than defined in the mapping [{dims}]",
            values.len()
        )));
    }
    if let Some(why) = element_error(vf.element, &values) {
        // ES previews the vector for float bound errors only (byte ones fail mid-parse).
        let shown = if vf.element == ElementType::Float { preview(vf.element, &values) } else { String::new() };
        return Err(fail(format!("{why}{shown}")));
    }
    if let Some(why) = magnitude_error(vf, &values) {
        return Err(fail(why));
    }
    normalize(vf, &mut values);
    Ok(to_bytes(&values))
}
