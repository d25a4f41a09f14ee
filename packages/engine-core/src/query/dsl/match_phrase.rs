//! `match_phrase`: `{"field": "text"}` or `{"field": {"query": .., "slop": n}}`. The text
//! is analyzed; the terms must appear in order, at most `slop` moves apart.

use serde::Deserialize;
use serde_json::Value;

use super::field_value::scalar_text;
use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchPhraseOptions {
    query: Value,
    slop: Option<u32>,
    boost: Option<f32>,
    analyzer: Option<String>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("match_phrase", body)?;
    let opts = match spec {
        Value::Object(_) => from_value::<MatchPhraseOptions>("match_phrase", spec)?,
        scalar => MatchPhraseOptions { query: scalar.clone(), slop: None, boost: None, analyzer: None, _name: None },
    };
    if let Some(analyzer) = opts.analyzer.as_deref().filter(|a| *a != "standard") {
        return Err(EngineError::Parsing(format!("[match_phrase] analyzer [{analyzer}] is not supported")));
    }
    let text = scalar_text("match_phrase", &opts.query)?;
    Ok(QueryAst::MatchPhrase { field: field.clone(), text, slop: opts.slop.unwrap_or(0) }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let ast = parse(&json!({"title": {"query": "quick fox", "slop": 2}})).unwrap();
        assert_eq!(ast, QueryAst::MatchPhrase { field: "title".into(), text: "quick fox".into(), slop: 2 });
        assert!(matches!(parse(&json!({"title": "a b"})).unwrap(), QueryAst::MatchPhrase { slop: 0, .. }));
        assert!(parse(&json!({"title": {"query": "a", "fuzz": 1}})).is_err());
    }
}
