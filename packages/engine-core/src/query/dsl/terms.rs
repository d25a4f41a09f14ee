//! `terms`: `{"field": [v1, v2], "boost": b}`.

use serde_json::Value;

use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

pub fn parse(body: &Value) -> Result<QueryAst> {
    let obj = body
        .as_object()
        .ok_or_else(|| EngineError::Parsing("[terms] query malformed, no start_object after query name".into()))?;
    let mut boost = None;
    let mut found: Option<(String, Vec<Value>)> = None;
    for (key, value) in obj {
        match (key.as_str(), value) {
            ("boost", Value::Number(n)) => boost = n.as_f64().map(|b| b as f32),
            ("_name", Value::String(_)) => {}
            (field, Value::Array(values)) => {
                if found.is_some() {
                    return Err(EngineError::Parsing("[terms] query does not support multiple fields".into()));
                }
                if let Some(bad) = values.iter().find(|v| !(v.is_string() || v.is_number() || v.is_boolean())) {
                    return Err(EngineError::Parsing(format!("[terms] query does not support value [{bad}]")));
                }
                found = Some((field.to_string(), values.clone()));
            }
            (field, _) => {
                return Err(EngineError::Parsing(format!("[terms] query does not support [{field}]")));
            }
        }
    }
    let (field, values) =
        found.ok_or_else(|| EngineError::Parsing("[terms] query requires a field with an array of values".into()))?;
    Ok(QueryAst::Terms { field, values }.boosted(boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_values_and_boost() {
        let q = parse(&json!({"tag": ["a", "b"]})).unwrap();
        assert_eq!(q, QueryAst::Terms { field: "tag".into(), values: vec![json!("a"), json!("b")] });
        assert!(matches!(parse(&json!({"tag": ["a"], "boost": 2})).unwrap(), QueryAst::Boost { .. }));
    }

    #[test]
    fn rejects_lookup_form_and_unknown_keys() {
        assert!(parse(&json!({"tag": {"index": "x"}})).is_err());
        assert!(parse(&json!({"a": ["x"], "b": ["y"]})).is_err());
        assert!(parse(&json!({})).is_err());
    }
}
