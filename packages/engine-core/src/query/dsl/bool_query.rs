//! `bool`: must / filter / should / must_not (one clause or an array), minimum_should_match.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, parse_query};
use crate::error::{EngineError, Result};
use crate::query::ast::{BoolAst, MinimumShouldMatch, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoolOptions {
    must: Option<Value>,
    filter: Option<Value>,
    should: Option<Value>,
    must_not: Option<Value>,
    minimum_should_match: Option<Value>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

fn clauses(value: Option<Value>) -> Result<Vec<QueryAst>> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items.iter().map(parse_query).collect(),
        Some(one) => Ok(vec![parse_query(&one)?]),
    }
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: BoolOptions = from_value("bool", body)?;
    let minimum_should_match = opts
        .minimum_should_match
        .as_ref()
        .map(MinimumShouldMatch::parse)
        .transpose()
        .map_err(|e| EngineError::Parsing(format!("[bool] {e}")))?;
    let ast = BoolAst {
        must: clauses(opts.must)?,
        filter: clauses(opts.filter)?,
        should: clauses(opts.should)?,
        must_not: clauses(opts.must_not)?,
        minimum_should_match,
    };
    Ok(QueryAst::Bool(ast).boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn single_clause_and_arrays() {
        let q = parse(&json!({
            "must": {"match_all": {}},
            "filter": [{"term": {"a": 1}}, {"range": {"n": {"gte": 1}}}],
            "should": [{"term": {"b": "x"}}],
            "must_not": {"term": {"c": true}},
            "minimum_should_match": 1
        }))
        .unwrap();
        let QueryAst::Bool(b) = q else { panic!() };
        assert_eq!((b.must.len(), b.filter.len(), b.should.len(), b.must_not.len()), (1, 2, 1, 1));
        assert_eq!(b.minimum_should_match, Some(MinimumShouldMatch::Count(1)));
    }

    #[test]
    fn nested_errors_propagate() {
        let err = parse(&json!({"must": [{"nope": {}}]})).unwrap_err();
        assert_eq!(err.to_string(), "unknown query [nope]");
        assert!(parse(&json!({"shoulda": []})).is_err());
    }
}
