//! Elasticsearch 8's `dense_vector` mapping: `dims` (optional: the first document sets it),
//! `element_type` (float, byte), `index` (default true), `similarity` (default cosine when
//! indexed), `index_options` (see `index_options`), `meta`; and the field as `GET _mapping`
//! prints it, with ES's defaults filled in.

use serde_json::{json, Map, Value};

use super::index_options;
use super::space::{ElementType, SpaceType};
use super::spec::{DenseVectorOptions, VectorField, VectorSpec};
use crate::error::{EngineError, Result};
use std::collections::BTreeMap;

pub const DENSE_VECTOR_TYPE: &str = "dense_vector";

/// ES 8.11+'s `DenseVectorFieldMapper.MAX_DIMS_COUNT`.
const MAX_DIMS: i64 = 4096;

fn err(reason: String) -> EngineError {
    EngineError::MapperParsing(format!("Failed to parse mapping: {reason}"))
}

fn only_when_indexed(param: &str) -> EngineError {
    err(format!("Field [{param}] can only be specified for a field of type [{DENSE_VECTOR_TYPE}] when it is indexed"))
}

/// A JSON value as Java's `toString` shows it in messages: strings without quotes.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub fn parse_spec(name: &str, def: &Map<String, Value>) -> Result<VectorSpec> {
    let mut dims = None;
    let mut element = None;
    let mut index = None;
    // Outer `Some`: configured; inner `None`: configured as null.
    let mut similarity: Option<Option<SpaceType>> = None;
    let mut raw_options = None;
    let mut meta = None;
    for (param, value) in def {
        match param.as_str() {
            "type" => {}
            "dims" => {
                let d = value.as_i64().ok_or_else(|| {
                    err(format!("Property [dims] on field [{name}] must be an integer but got [{}]", plain(value)))
                })?;
                if !(1..=MAX_DIMS).contains(&d) {
                    return Err(err(format!(
                        "The number of dimensions should be in the range [1, {MAX_DIMS}] but was [{d}]"
                    )));
                }
                dims = Some(d as usize);
            }
            "element_type" => {
                element = Some(match value.as_str() {
                    Some("float") => ElementType::Float,
                    Some("byte") => ElementType::Byte,
                    Some("bit") => return Err(err(format!("element_type [bit] is not supported on field [{name}]"))),
                    _ => {
                        return Err(err(format!(
                            "invalid element_type [{}]; available types are [float, byte, bit]",
                            plain(value)
                        )))
                    }
                })
            }
            "index" => {
                index = Some(match value {
                    Value::Bool(b) => *b,
                    Value::String(s) if s == "true" || s == "false" => s == "true",
                    _ => return Err(err(format!("Failed to parse value [{}] as only [true] or [false] are allowed.", plain(value)))),
                })
            }
            "similarity" => {
                similarity = Some(match value {
                    Value::Null => None,
                    _ => Some(value.as_str().and_then(SpaceType::from_es_name).ok_or_else(|| {
                        err(format!(
                            "Unknown value [{}] for field [similarity] - accepted values are [l2_norm, cosine, dot_product, max_inner_product]",
                            plain(value)
                        ))
                    })?),
                })
            }
            "index_options" => raw_options = Some(value),
            "meta" => meta = Some(value.clone()),
            _ => {
                return Err(err(format!("unknown parameter [{param}] on mapper [{name}] of type [{DENSE_VECTOR_TYPE}]")))
            }
        }
    }
    let element_configured = element.is_some();
    let element = element.unwrap_or(ElementType::Float);
    let index = index.unwrap_or(true);
    let space = match (index, similarity) {
        (true, None) => SpaceType::Cosine,
        (true, Some(Some(s))) => s,
        (true, Some(None)) => {
            return Err(err("Field [index] requires field [similarity] to be configured and not null".into()))
        }
        (false, Some(Some(_))) => return Err(only_when_indexed("similarity")),
        // Unused: an unindexed field is never scanned.
        (false, _) => SpaceType::L2,
    };
    let index_options = match (index, raw_options) {
        (false, Some(Value::Null) | None) => None,
        (false, Some(_)) => return Err(only_when_indexed("index_options")),
        (true, Some(Value::Null) | None) => index_options::default_for(element),
        (true, Some(raw)) => Some(index_options::parse(name, raw, element)?),
    };
    Ok(VectorSpec {
        name: name.to_string(),
        dimension: dims,
        space,
        element,
        dense: Some(DenseVectorOptions { index, element_configured, index_options, meta }),
    })
}

/// The field as `GET _mapping` shows it; `None` for `knn_vector` fields (echoed as given).
pub fn mapping_json(vf: &VectorField) -> Option<Value> {
    let dense = vf.dense.as_ref()?;
    let mut out = Map::new();
    out.insert("type".into(), json!(DENSE_VECTOR_TYPE));
    if dense.element_configured {
        out.insert("element_type".into(), json!(vf.element.es_name()));
    }
    if let Some(dims) = vf.dimension() {
        out.insert("dims".into(), json!(dims));
    }
    out.insert("index".into(), json!(dense.index));
    if dense.index {
        out.insert("similarity".into(), json!(vf.space.es_name()));
    }
    if let Some(options) = &dense.index_options {
        out.insert("index_options".into(), options.clone());
    }
    if let Some(meta) = &dense.meta {
        out.insert("meta".into(), meta.clone());
    }
    Some(Value::Object(out))
}

/// Rewrites every `dense_vector` definition of `mappings` (as stored: as the client sent it)
/// the way ES prints it back, including `dims` learnt from the first document.
pub fn render_mappings(mappings: &mut Value, vectors: &BTreeMap<String, VectorField>) {
    if let Some(props) = mappings.get_mut("properties") {
        render_properties(props, "", vectors);
    }
}

fn render_properties(props: &mut Value, prefix: &str, vectors: &BTreeMap<String, VectorField>) {
    let Some(props) = props.as_object_mut() else { return };
    for (name, def) in props.iter_mut() {
        let full = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        if def.get("type").and_then(Value::as_str) == Some(DENSE_VECTOR_TYPE) {
            if let Some(printed) = vectors.get(&full).and_then(mapping_json) {
                *def = printed;
            }
        } else if let Some(children) = def.get_mut("properties") {
            render_properties(children, &full, vectors);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(def: Value) -> Result<VectorSpec> {
        parse_spec("vec", def.as_object().unwrap())
    }

    #[test]
    fn defaults_follow_es_8() {
        let s = spec(json!({"type": "dense_vector"})).unwrap();
        assert_eq!((s.dimension, s.space, s.element), (None, SpaceType::Cosine, ElementType::Float));
        let dense = s.dense.unwrap();
        assert!(dense.index);
        assert_eq!(dense.index_options.unwrap()["type"], "int8_hnsw");
        let bytes =
            spec(json!({"type": "dense_vector", "dims": 3, "element_type": "byte", "similarity": "dot_product"}))
                .unwrap();
        assert_eq!((bytes.dimension, bytes.space), (Some(3), SpaceType::DotProduct));
        assert_eq!(bytes.dense.unwrap().index_options, None, "byte fields have no default index_options");
        let unindexed = spec(json!({"type": "dense_vector", "dims": 3, "index": false})).unwrap();
        assert!(!unindexed.dense.unwrap().index);
    }

    #[test]
    fn refuses_what_es_refuses() {
        let bad = |def: Value| spec(def).unwrap_err().to_string();
        assert!(bad(json!({"type": "dense_vector", "dims": 0})).contains("range [1, 4096] but was [0]"));
        assert!(bad(json!({"type": "dense_vector", "dims": "x"})).contains("must be an integer but got [x]"));
        assert!(bad(json!({"type": "dense_vector", "similarity": "l1"}))
            .contains("Unknown value [l1] for field [similarity]"));
        assert!(bad(json!({"type": "dense_vector", "element_type": "int"})).contains("invalid element_type [int]"));
        assert!(bad(json!({"type": "dense_vector", "index": false, "similarity": "cosine"}))
            .contains("can only be specified for a field of type [dense_vector] when it is indexed"));
        assert!(bad(json!({"type": "dense_vector", "dimension": 3}))
            .contains("unknown parameter [dimension] on mapper [vec] of type [dense_vector]"));
    }
}
