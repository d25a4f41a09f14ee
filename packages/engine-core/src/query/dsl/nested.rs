//! `nested`: `{"path": "comments", "query": {...}, "score_mode": "avg"}`. The inner query
//! names the objects' fields by their full path (`comments.author`), as in ES.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, parse_query};
use crate::error::{EngineError, Result};
use crate::query::ast::NestedScoreMode as ScoreMode;
use crate::query::ast::{NestedAst, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NestedOptions {
    path: Option<String>,
    query: Option<Value>,
    score_mode: Option<String>,
    ignore_unmapped: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: NestedOptions = from_value("nested", body)?;
    // ES checks these in the builder's constructor: an illegal_argument_exception, not a parse error.
    let path = opts.path.ok_or_else(|| EngineError::IllegalArgument("[nested] requires 'path' field".into()))?;
    let query = opts.query.ok_or_else(|| EngineError::IllegalArgument("[nested] requires 'query' field".into()))?;
    let score_mode = match opts.score_mode.as_deref() {
        None => ScoreMode::Avg,
        Some(name) => ScoreMode::parse(name)
            .ok_or_else(|| EngineError::IllegalArgument(format!("No score mode for child query [{name}] found")))?,
    };
    let ast = NestedAst {
        path,
        query: parse_query(&query)?,
        score_mode,
        ignore_unmapped: opts.ignore_unmapped.unwrap_or(false),
    };
    Ok(QueryAst::Nested(Box::new(ast)).boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_path_query_and_score_mode() {
        let ast = parse(&json!({"path": "c", "query": {"match_all": {}}, "score_mode": "max"})).unwrap();
        let QueryAst::Nested(n) = ast else { panic!("not nested") };
        assert_eq!((n.path.as_str(), n.score_mode, n.ignore_unmapped), ("c", ScoreMode::Max, false));
        assert!(parse(&json!({"query": {"match_all": {}}})).unwrap_err().to_string().contains("requires 'path'"));
        assert!(parse(&json!({"path": "c"})).unwrap_err().to_string().contains("requires 'query'"));
        assert!(parse(&json!({"path": "c", "query": {"match_all": {}}, "score_mode": "x"})).is_err());
        // inner_hits is not served: refused, never ignored.
        assert!(parse(&json!({"path": "c", "query": {"match_all": {}}, "inner_hits": {}})).is_err());
    }
}
