//! `term`: `{"field": value}` or `{"field": {"value": v, "boost": b}}`.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TermOptions {
    value: Value,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("term", body)?;
    let (value, boost) = match spec {
        Value::Object(_) => {
            let opts: TermOptions = from_value("term", spec)?;
            (opts.value, opts.boost)
        }
        Value::Array(_) | Value::Null => {
            return Err(EngineError::Parsing("[term] query does not support array of values".to_string()))
        }
        scalar => (scalar.clone(), None),
    };
    if !(value.is_string() || value.is_number() || value.is_boolean()) {
        return Err(EngineError::Parsing(format!("[term] query does not support value [{value}]")));
    }
    Ok(QueryAst::Term { field: field.clone(), value }.boosted(boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let short = parse(&json!({"status": "ok"})).unwrap();
        assert_eq!(short, QueryAst::Term { field: "status".into(), value: json!("ok") });
        let long = parse(&json!({"n": {"value": 3}})).unwrap();
        assert_eq!(long, QueryAst::Term { field: "n".into(), value: json!(3) });
    }

    #[test]
    fn unknown_options_and_two_fields_fail() {
        assert!(parse(&json!({"n": {"value": 3, "fuzz": 1}})).is_err());
        assert!(parse(&json!({"a": 1, "b": 2})).is_err());
        assert!(parse(&json!({"a": [1]})).is_err());
    }
}
