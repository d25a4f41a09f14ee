//! `match`: `{"field": "text"}` or `{"field": {"query": .., "operator": "and", ...}}`.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::{MinimumShouldMatch, Operator, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchOptions {
    query: Value,
    operator: Option<String>,
    minimum_should_match: Option<Value>,
    boost: Option<f32>,
    analyzer: Option<String>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("match", body)?;
    let opts = match spec {
        Value::Object(_) => from_value::<MatchOptions>("match", spec)?,
        scalar => MatchOptions {
            query: scalar.clone(),
            operator: None,
            minimum_should_match: None,
            boost: None,
            analyzer: None,
            _name: None,
        },
    };
    let text = match &opts.query {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => return Err(EngineError::Parsing(format!("[match] unknown token [{other}] after [query]"))),
    };
    let operator = match opts.operator.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("or") => Operator::Or,
        Some("and") => Operator::And,
        Some(other) => return Err(EngineError::Parsing(format!("[match] unknown operator [{other}]"))),
    };
    if let Some(analyzer) = opts.analyzer.as_deref().filter(|a| *a != "standard") {
        return Err(EngineError::Parsing(format!("[match] analyzer [{analyzer}] is not supported")));
    }
    let minimum_should_match = opts
        .minimum_should_match
        .as_ref()
        .map(MinimumShouldMatch::parse)
        .transpose()
        .map_err(|e| EngineError::Parsing(format!("[match] {e}")))?;
    Ok(QueryAst::Match { field: field.clone(), text, operator, minimum_should_match }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_form_defaults_to_or() {
        let q = parse(&json!({"title": "quick fox"})).unwrap();
        assert_eq!(
            q,
            QueryAst::Match {
                field: "title".into(),
                text: "quick fox".into(),
                operator: Operator::Or,
                minimum_should_match: None
            }
        );
    }

    #[test]
    fn long_form_with_operator_and_msm() {
        let q = parse(&json!({"title": {"query": "a b c", "operator": "AND", "minimum_should_match": "50%"}})).unwrap();
        let QueryAst::Match { operator, minimum_should_match, .. } = q else { panic!() };
        assert_eq!(operator, Operator::And);
        assert_eq!(minimum_should_match, Some(MinimumShouldMatch::Percent(50)));
    }

    #[test]
    fn unknown_options_fail() {
        assert!(parse(&json!({"title": {"query": "x", "fuzziness": 2}})).is_err());
        assert!(parse(&json!({"title": {"query": "x", "operator": "xor"}})).is_err());
    }
}
