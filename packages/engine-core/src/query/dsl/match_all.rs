//! `match_all` and `match_none`.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchAllOptions {
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: MatchAllOptions = from_value("match_all", body)?;
    Ok(QueryAst::MatchAll.boosted(opts.boost))
}

pub fn parse_none(body: &Value) -> Result<QueryAst> {
    let _: MatchAllOptions = from_value("match_none", body)?;
    Ok(QueryAst::MatchNone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_empty_and_boosted() {
        assert_eq!(parse(&json!({})).unwrap(), QueryAst::MatchAll);
        assert!(matches!(parse(&json!({"boost": 2.0})).unwrap(), QueryAst::Boost { boost, .. } if boost == 2.0));
        assert!(parse(&json!({"nope": 1})).is_err());
    }
}
