//! `match_bool_prefix`: the analysed terms as a bool query (should, or must with
//! `operator: and`), the last term as a prefix. Short form `{"field": "text"}`.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::{MinimumShouldMatch, Operator, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    query: Value,
    operator: Option<String>,
    minimum_should_match: Option<Value>,
    analyzer: Option<String>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub(crate) fn parse_operator(kind: &str, op: Option<&str>) -> Result<Operator> {
    match op.map(str::to_ascii_lowercase).as_deref() {
        None | Some("or") => Ok(Operator::Or),
        Some("and") => Ok(Operator::And),
        Some(other) => Err(EngineError::Parsing(format!("[{kind}] unknown operator [{other}]"))),
    }
}

pub(crate) fn parse_msm(kind: &str, v: Option<&Value>) -> Result<Option<MinimumShouldMatch>> {
    v.map(MinimumShouldMatch::parse).transpose().map_err(|e| EngineError::Parsing(format!("[{kind}] {e}")))
}

pub(crate) fn query_text(kind: &str, v: &Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(EngineError::Parsing(format!("[{kind}] unknown token [{other}] after [query]"))),
    }
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    const KIND: &str = "match_bool_prefix";
    let (field, spec) = single_field(KIND, body)?;
    let opts: Options = match spec {
        Value::Object(_) => from_value(KIND, spec)?,
        scalar => from_value(KIND, &serde_json::json!({ "query": scalar }))?,
    };
    // Only the standard analyzer exists here; another one would silently change the terms.
    if let Some(analyzer) = opts.analyzer.as_deref().filter(|a| *a != "standard") {
        return Err(EngineError::Parsing(format!("[{KIND}] analyzer [{analyzer}] is not supported")));
    }
    Ok(QueryAst::MatchBoolPrefix {
        field: field.clone(),
        text: query_text(KIND, &opts.query)?,
        operator: parse_operator(KIND, opts.operator.as_deref())?,
        minimum_should_match: parse_msm(KIND, opts.minimum_should_match.as_ref())?,
    }
    .boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let ast = parse(&json!({"title": "quick br"})).unwrap();
        assert!(matches!(ast, QueryAst::MatchBoolPrefix { operator: Operator::Or, .. }));
        let ast = parse(&json!({"title": {"query": "a b", "operator": "and", "minimum_should_match": 1}})).unwrap();
        assert!(matches!(ast, QueryAst::MatchBoolPrefix { operator: Operator::And, .. }));
        assert!(parse(&json!({"title": {"query": "a", "fuzziness": 1}})).is_err());
        assert!(parse(&json!({"title": {"query": "a", "analyzer": "whitespace"}})).is_err());
    }
}
