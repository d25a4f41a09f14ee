//! `dis_max`: a document's score is its best clause's score plus `tie_breaker` times the
//! others'; it matches when any clause matches.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, parse_query};
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DisMaxOptions {
    queries: Vec<Value>,
    tie_breaker: Option<f32>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: DisMaxOptions = from_value("dis_max", body)?;
    let queries = opts.queries.iter().map(parse_query).collect::<Result<Vec<_>>>()?;
    Ok(QueryAst::DisMax { queries, tie_breaker: opts.tie_breaker.unwrap_or(0.0) }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_clauses() {
        let ast = parse(&json!({"queries": [{"match_all": {}}], "tie_breaker": 0.3})).unwrap();
        assert_eq!(ast, QueryAst::DisMax { queries: vec![QueryAst::MatchAll], tie_breaker: 0.3 });
        assert!(parse(&json!({"queries": [{"nope": {}}]})).is_err());
    }
}
