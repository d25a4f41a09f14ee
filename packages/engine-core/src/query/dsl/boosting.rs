//! `boosting`: `positive`'s matches, scored down by `negative_boost` where `negative` also
//! matches (the query itself: `query/tantivy/boosting.rs`).

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, parse_query};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoostingOptions {
    positive: Option<Value>,
    negative: Option<Value>,
    negative_boost: Option<f32>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: BoostingOptions = from_value("boosting", body)?;
    let required = |what: &str| EngineError::Parsing(format!("[boosting] query requires '{what}' query to be set'"));
    let positive = parse_query(opts.positive.as_ref().ok_or_else(|| required("positive"))?)?;
    let negative = parse_query(opts.negative.as_ref().ok_or_else(|| required("negative"))?)?;
    let negative_boost = opts.negative_boost.filter(|b| *b >= 0.0).ok_or_else(|| {
        EngineError::Parsing("[boosting] query requires 'negative_boost' to be set to be a positive value'".into())
    })?;
    Ok(QueryAst::Boosting { positive: Box::new(positive), negative: Box::new(negative), negative_boost }
        .boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_and_requires_all_parts() {
        let ast =
            parse(&json!({"positive": {"match_all": {}}, "negative": {"term": {"k": "x"}}, "negative_boost": 0.5}))
                .unwrap();
        assert!(matches!(ast, QueryAst::Boosting { negative_boost, .. } if negative_boost == 0.5));
        assert!(parse(&json!({"positive": {"match_all": {}}, "negative_boost": 0.5})).is_err());
        assert!(parse(&json!({"positive": {"match_all": {}}, "negative": {"match_all": {}}})).is_err());
    }
}
