//! `match_phrase_prefix`: like `match_phrase`, but the last term is a prefix expanded to at
//! most `max_expansions` (default 50, as ES) indexed terms.

use serde::Deserialize;
use serde_json::Value;

use super::field_value::scalar_text;
use super::{from_value, single_field};
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchPhrasePrefixOptions {
    query: Value,
    max_expansions: Option<u32>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("match_phrase_prefix", body)?;
    let opts = match spec {
        Value::Object(_) => from_value::<MatchPhrasePrefixOptions>("match_phrase_prefix", spec)?,
        scalar => MatchPhrasePrefixOptions { query: scalar.clone(), max_expansions: None, boost: None, _name: None },
    };
    let text = scalar_text("match_phrase_prefix", &opts.query)?;
    let max_expansions = opts.max_expansions.unwrap_or(50);
    Ok(QueryAst::MatchPhrasePrefix { field: field.clone(), text, max_expansions }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_to_fifty_expansions() {
        let ast = parse(&json!({"title": "quick br"})).unwrap();
        assert_eq!(
            ast,
            QueryAst::MatchPhrasePrefix { field: "title".into(), text: "quick br".into(), max_expansions: 50 }
        );
        assert!(parse(&json!({"title": {"query": "a", "slop": 1}})).is_err());
    }
}
