//! `constant_score`: the filter's matches, each scoring `boost` (default 1).

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, parse_query};
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConstantScoreOptions {
    filter: Value,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: ConstantScoreOptions = from_value("constant_score", body)?;
    let filter = parse_query(&opts.filter)?;
    Ok(QueryAst::ConstantScore { filter: Box::new(filter), boost: opts.boost.unwrap_or(1.0) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wraps_the_filter() {
        let ast = parse(&json!({"filter": {"match_all": {}}, "boost": 2})).unwrap();
        assert_eq!(ast, QueryAst::ConstantScore { filter: Box::new(QueryAst::MatchAll), boost: 2.0 });
        assert!(parse(&json!({"query": {"match_all": {}}})).is_err());
    }
}
