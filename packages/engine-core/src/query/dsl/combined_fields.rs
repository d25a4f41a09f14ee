//! `combined_fields`: `query` analysed once and searched across `fields` (`"title^2"` boosts)
//! as if they were one field. `operator` and `minimum_should_match` count terms, not fields.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use super::match_bool_prefix::{parse_msm, parse_operator, query_text};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    query: Value,
    fields: Vec<String>,
    operator: Option<String>,
    minimum_should_match: Option<Value>,
    // No synonyms exist here, so the flag cannot change anything.
    #[serde(rename = "auto_generate_synonyms_phrase_query")]
    _auto_generate_synonyms_phrase_query: Option<bool>,
    zero_terms_query: Option<String>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

/// `"name^2.5"` -> ("name", 2.5).
pub(crate) fn field_and_boost(kind: &str, spec: &str) -> Result<(String, f32)> {
    match spec.split_once('^') {
        Some((f, b)) => {
            let boost =
                b.parse::<f32>().map_err(|_| EngineError::Parsing(format!("[{kind}] bad field boost in [{spec}]")))?;
            Ok((f.to_string(), boost))
        }
        None => Ok((spec.to_string(), 1.0)),
    }
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    const KIND: &str = "combined_fields";
    let opts: Options = from_value(KIND, body)?;
    if opts.fields.is_empty() {
        return Err(EngineError::Parsing(format!("[{KIND}] requires [fields] (index defaults are not supported)")));
    }
    if opts.zero_terms_query.as_deref().is_some_and(|z| !z.eq_ignore_ascii_case("none")) {
        return Err(EngineError::Parsing(format!("[{KIND}] zero_terms_query [all] is not supported")));
    }
    let fields = opts.fields.iter().map(|f| field_and_boost(KIND, f)).collect::<Result<Vec<_>>>()?;
    if let Some((f, b)) = fields.iter().find(|(_, b)| *b < 1.0) {
        return Err(EngineError::Parsing(format!("[{KIND}] field [{f}] has boost [{b}], but boosts must be >= 1")));
    }
    Ok(QueryAst::CombinedFields {
        fields,
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
    fn fields_with_boosts() {
        let ast = parse(&json!({"query": "fox", "fields": ["title^2", "body"]})).unwrap();
        let QueryAst::CombinedFields { fields, .. } = ast else { panic!() };
        assert_eq!(fields, vec![("title".to_string(), 2.0), ("body".to_string(), 1.0)]);
        assert!(parse(&json!({"query": "fox", "fields": []})).is_err());
        assert!(parse(&json!({"query": "fox", "fields": ["t^0.5"]})).is_err());
        assert!(parse(&json!({"query": "fox", "fields": ["t"], "type": "x"})).is_err());
    }
}
