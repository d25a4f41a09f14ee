//! Vector mappings: which fields hold vectors (OpenSearch `knn_vector`, ES `dense_vector`),
//! their dimension and similarity, and the tantivy bytes fast field each one is stored in.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};
use tantivy::schema::{SchemaBuilder, FAST};

use super::cache::VectorCache;
use super::dense_vector::{self, DENSE_VECTOR_TYPE};
pub use super::space::{ElementType, SpaceType};
use super::spec::{VectorField, VectorSpec};
use crate::error::{EngineError, Result};

pub const KNN_VECTOR_TYPE: &str = "knn_vector";

/// Lucene's limit for the `lucene` engine (`KnnVectorsFormat.DEFAULT_MAX_DIMENSIONS` raised by
/// OpenSearch to 16,000).
const MAX_DIMENSION: usize = 16_000;

fn mapper_err(reason: String) -> EngineError {
    EngineError::MapperParsing(reason)
}

/// Finds every `knn_vector` and `dense_vector` field under `mappings.properties` (objects included). The generic
/// mapping parser skips these fields and leaves them to this walk.
pub fn parse_vector_specs(mappings: &Value) -> Result<Vec<VectorSpec>> {
    let mut out = Vec::new();
    if let Some(props) = mappings.get("properties") {
        walk(props, "", &mut out)?;
    }
    Ok(out)
}

fn walk(props: &Value, prefix: &str, out: &mut Vec<VectorSpec>) -> Result<()> {
    let Some(props) = props.as_object() else { return Ok(()) };
    for (name, def) in props {
        let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        let Some(def) = def.as_object() else { continue };
        let kind = def.get("type").and_then(Value::as_str);
        if kind == Some(KNN_VECTOR_TYPE) {
            out.push(parse_spec(&full, def)?);
        } else if kind == Some(DENSE_VECTOR_TYPE) {
            out.push(dense_vector::parse_spec(&full, def)?);
        } else if let Some(children) = def.get("properties") {
            walk(children, &full, out)?;
        }
    }
    Ok(())
}

fn parse_spec(name: &str, def: &Map<String, Value>) -> Result<VectorSpec> {
    let mut dimension = None;
    let mut space = SpaceType::L2;
    for (param, value) in def {
        match param.as_str() {
            "type" => {}
            "dimension" => {
                let d = value.as_u64().filter(|d| (1..=MAX_DIMENSION as u64).contains(d)).ok_or_else(|| {
                    mapper_err(format!(
                        "Dimension value must be between 1 and {MAX_DIMENSION} for [{name}], found [{value}]"
                    ))
                })?;
                dimension = Some(d as usize);
            }
            "space_type" => space = parse_space(name, value)?,
            "method" => {
                if let Some(s) = parse_method(name, value)? {
                    space = s;
                }
            }
            "data_type" if value == "float" => {}
            _ => {
                return Err(mapper_err(format!(
                "Failed to parse mapping: unknown parameter [{param}] on mapper [{name}] of type [{KNN_VECTOR_TYPE}]"
            )))
            }
        }
    }
    let dimension = dimension.ok_or_else(|| mapper_err(format!("Dimension value missing for vector: {name}")))?;
    Ok(VectorSpec {
        name: name.to_string(),
        dimension: Some(dimension),
        space,
        element: ElementType::Float,
        dense: None,
    })
}

/// `method: {name: "hnsw", engine, space_type, parameters}`. The engine and graph parameters
/// are accepted for every engine OpenSearch knows: an exact scan answers what any of them would
/// approximate.
fn parse_method(name: &str, method: &Value) -> Result<Option<SpaceType>> {
    let obj = method.as_object().ok_or_else(|| mapper_err(format!("[method] must be an object on [{name}]")))?;
    let mut space = None;
    for (key, value) in obj {
        match key.as_str() {
            "name" if value == "hnsw" => {}
            "name" => return Err(mapper_err(format!("Invalid method name: {value} on [{name}]"))),
            "engine" if matches!(value.as_str(), Some("lucene" | "faiss" | "nmslib")) => {}
            "engine" => return Err(mapper_err(format!("Invalid engine type: {value} on [{name}]"))),
            "space_type" => space = Some(parse_space(name, value)?),
            "parameters" if value.is_object() || value.is_null() => {}
            _ => return Err(mapper_err(format!("Unsupported method parameter [{key}] on [{name}]"))),
        }
    }
    Ok(space)
}

fn parse_space(name: &str, value: &Value) -> Result<SpaceType> {
    match value.as_str() {
        Some("l2") => Ok(SpaceType::L2),
        _ => Err(mapper_err(format!("space_type {value} is not supported on [{name}]: only [l2] is"))),
    }
}

/// Adds one bytes fast field per vector field (named `knn{i}`, so ES names never meet
/// tantivy's path syntax) and returns the fields by ES name.
pub fn add_vector_fields(builder: &mut SchemaBuilder, specs: Vec<VectorSpec>) -> BTreeMap<String, VectorField> {
    specs
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            let tantivy_name = format!("knn{i}");
            let field = builder.add_bytes_field(&tantivy_name, FAST);
            let dims = OnceLock::new();
            if let Some(d) = spec.dimension {
                let _ = dims.set(d);
            }
            let vf = VectorField {
                name: spec.name.clone(),
                dims: Arc::new(dims),
                space: spec.space,
                element: spec.element,
                dense: spec.dense,
                field,
                tantivy_name,
                cache: Arc::new(VectorCache::default()),
            };
            (spec.name, vf)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_vector_fields_with_their_dimension_and_space() {
        let specs = parse_vector_specs(&json!({"properties": {
            "vec": {"type": "knn_vector", "dimension": 3,
                    "method": {"name": "hnsw", "engine": "lucene", "space_type": "l2", "parameters": {"m": 16}}},
            "obj": {"properties": {"v": {"type": "knn_vector", "dimension": 2}}},
            "other": {"type": "keyword"}
        }}))
        .unwrap();
        assert_eq!(specs.len(), 2);
        let want = VectorSpec {
            name: "obj.v".into(),
            dimension: Some(2),
            space: SpaceType::L2,
            element: ElementType::Float,
            dense: None,
        };
        assert_eq!(specs[0], want);
        assert_eq!(specs[1].dimension, Some(3));
    }

    #[test]
    fn rejects_bad_definitions() {
        let bad = |def: Value| parse_vector_specs(&json!({"properties": {"v": def}})).unwrap_err().to_string();
        assert!(bad(json!({"type": "knn_vector"})).contains("Dimension value missing"));
        assert!(bad(json!({"type": "knn_vector", "dimension": 0})).contains("between 1 and"));
        assert!(bad(json!({"type": "knn_vector", "dimension": 2, "space_type": "cosinesimil"})).contains("l2"));
        assert!(bad(json!({"type": "knn_vector", "dimension": 2, "method": {"name": "ivf"}})).contains("method"));
        assert!(bad(json!({"type": "knn_vector", "dimension": 2, "bogus": 1})).contains("unknown parameter [bogus]"));
    }
}
