//! `dense_vector.index_options`: accepted and echoed the way ES 8 prints them, with its
//! defaults filled in. None of them changes how we search: at the index sizes this engine
//! serves, the exact scan (see `query::lower::knn`) answers faster than building and walking an HNSW
//! graph would, and it is exact, so graph (`m`, `ef_construction`) and quantization
//! (`int8`/`int4`/`bbq`, `confidence_interval`) settings are recorded, not applied.

use serde_json::{json, Map, Value};

use super::space::ElementType;
use crate::error::{EngineError, Result};

/// Lucene's HNSW defaults, which ES prints when the mapping leaves them out.
const DEFAULT_M: u64 = 16;
const DEFAULT_EF_CONSTRUCTION: u64 = 100;

fn err(reason: String) -> EngineError {
    EngineError::MapperParsing(format!("Failed to parse mapping: {reason}"))
}

/// ES 8.14+'s default for an indexed float field: scalar-quantized HNSW.
pub fn default_for(element: ElementType) -> Option<Value> {
    (element == ElementType::Float)
        .then(|| json!({"type": "int8_hnsw", "m": DEFAULT_M, "ef_construction": DEFAULT_EF_CONSTRUCTION}))
}

/// Validates `index_options` and returns it as ES prints it back.
pub fn parse(field: &str, raw: &Value, element: ElementType) -> Result<Value> {
    let obj = raw.as_object().ok_or_else(|| err(format!("[index_options] on field [{field}] must be an object")))?;
    let kind = match obj.get("type") {
        None => return Err(err("[index_options] requires field [type] to be configured".into())),
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(err(format!("Unknown vector index options type [{other}] for field [{field}]"))),
    };
    // (graph parameters, confidence interval: None = not accepted, Some(always printed))
    let (graph, confidence, quantized) = match kind {
        "hnsw" => (true, None, false),
        "int8_hnsw" => (true, Some(false), true),
        "int4_hnsw" => (true, Some(true), true),
        "bbq_hnsw" => (true, None, true),
        "flat" => (false, None, false),
        "int8_flat" => (false, Some(false), true),
        "int4_flat" => (false, Some(true), true),
        "bbq_flat" => (false, None, true),
        _ => return Err(err(format!("Unknown vector index options type [{kind}] for field [{field}]"))),
    };
    if quantized && element != ElementType::Float {
        return Err(err(format!("[element_type] cannot be [{}] when using index type [{kind}]", element.es_name())));
    }
    let mut out = Map::new();
    out.insert("type".into(), json!(kind));
    if graph {
        out.insert("m".into(), json!(DEFAULT_M));
        out.insert("ef_construction".into(), json!(DEFAULT_EF_CONSTRUCTION));
    }
    if confidence == Some(true) {
        // int4 defaults to dynamic quantiles, which ES prints as a confidence interval of 0.
        out.insert("confidence_interval".into(), json!(0.0));
    }
    for (key, value) in obj {
        let accepted = match key.as_str() {
            "type" => continue,
            "m" | "ef_construction" => graph && value.is_u64(),
            "confidence_interval" => confidence.is_some() && value.is_number(),
            _ => false,
        };
        if !accepted {
            return Err(err(format!(
                "Mapping definition for [{field}] has unsupported parameters:  [{key} : {value}]"
            )));
        }
        out.insert(key.clone(), value.clone());
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_in_es_defaults() {
        let hnsw = parse("v", &json!({"type": "hnsw", "m": 32}), ElementType::Float).unwrap();
        assert_eq!(hnsw, json!({"type": "hnsw", "m": 32, "ef_construction": 100}));
        let flat = parse("v", &json!({"type": "flat"}), ElementType::Byte).unwrap();
        assert_eq!(flat, json!({"type": "flat"}));
        let int4 = parse("v", &json!({"type": "int4_hnsw"}), ElementType::Float).unwrap();
        assert_eq!(int4["confidence_interval"], 0.0);
    }

    #[test]
    fn refuses_what_es_refuses() {
        let bad = |v: Value, e: ElementType| parse("v", &v, e).unwrap_err().to_string();
        assert!(bad(json!({"m": 3}), ElementType::Float).contains("requires field [type]"));
        assert!(bad(json!({"type": "ivf"}), ElementType::Float).contains("Unknown vector index options type [ivf]"));
        assert!(bad(json!({"type": "int8_hnsw"}), ElementType::Byte).contains("cannot be [byte]"));
        assert!(bad(json!({"type": "flat", "m": 3}), ElementType::Float).contains("unsupported parameters:  [m : 3]"));
    }
}
