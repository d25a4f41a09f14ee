//! `match`: `{"field": "text"}` or `{"field": {"query": .., "operator": "and", ...}}`, with
//! `fuzziness` (and `prefix_length`, `max_expansions`, `fuzzy_transpositions`) and
//! `zero_terms_query`.

use serde::Deserialize;
use serde_json::Value;

use super::fuzziness::fuzzy_expansion;
use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::{MinimumShouldMatch, Operator, QueryAst};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct MatchOptions {
    query: Value,
    operator: Option<String>,
    minimum_should_match: Option<Value>,
    boost: Option<f32>,
    analyzer: Option<String>,
    fuzziness: Option<Value>,
    prefix_length: Option<i64>,
    max_expansions: Option<i64>,
    fuzzy_transpositions: Option<bool>,
    zero_terms_query: Option<String>,
    /// Only the standard analyzer exists here: there are no synonyms to make phrases of.
    #[serde(rename = "auto_generate_synonyms_phrase_query")]
    _auto_generate_synonyms_phrase_query: Option<bool>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("match", body)?;
    let opts = match spec {
        Value::Object(_) => from_value::<MatchOptions>("match", spec)?,
        scalar => MatchOptions { query: scalar.clone(), ..MatchOptions::default() },
    };
    let text = match &opts.query {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => return Err(EngineError::Parsing(format!("[match] unknown token [{other}] after [query]"))),
    };
    let operator = match opts.operator.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("or") => Operator::Or,
        Some("and") => Operator::And,
        Some(other) => return Err(EngineError::Parsing(format!("[match] unknown operator [{other}]"))),
    };
    if let Some(analyzer) = opts.analyzer.as_deref().filter(|a| *a != "standard") {
        return Err(EngineError::Parsing(format!("[match] analyzer [{analyzer}] is not supported")));
    }
    let minimum_should_match = opts
        .minimum_should_match
        .as_ref()
        .map(MinimumShouldMatch::parse)
        .transpose()
        .map_err(|e| EngineError::Parsing(format!("[match] {e}")))?;
    let fuzzy = fuzzy_expansion(
        "match",
        opts.fuzziness.as_ref(),
        opts.prefix_length,
        opts.max_expansions,
        opts.fuzzy_transpositions,
    )?;
    let zero_terms_all = zero_terms_all("match", opts.zero_terms_query.as_deref())?;
    Ok(QueryAst::Match { field: field.clone(), text, operator, minimum_should_match, fuzzy, zero_terms_all }
        .boosted(opts.boost))
}

/// `zero_terms_query`: `none` (the default) or `all`.
pub(crate) fn zero_terms_all(kind: &str, value: Option<&str>) -> Result<bool> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("none") => Ok(false),
        Some("all") => Ok(true),
        Some(other) => Err(EngineError::Parsing(format!("[{kind}] unsupported zero_terms_query value [{other}]"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::ast::{Fuzziness, FuzzyExpansion};
    use serde_json::json;

    #[test]
    fn short_form_defaults_to_or() {
        let q = parse(&json!({"title": "quick fox"})).unwrap();
        assert_eq!(
            q,
            QueryAst::Match {
                field: "title".into(),
                text: "quick fox".into(),
                operator: Operator::Or,
                minimum_should_match: None,
                fuzzy: None,
                zero_terms_all: false,
            }
        );
    }

    #[test]
    fn long_form_with_operator_msm_fuzziness_and_zero_terms() {
        let q = parse(&json!({"title": {"query": "a b c", "operator": "AND", "minimum_should_match": "50%"}})).unwrap();
        let QueryAst::Match { operator, minimum_should_match, .. } = q else { panic!() };
        assert_eq!(operator, Operator::And);
        assert_eq!(minimum_should_match, Some(MinimumShouldMatch::Percent(50)));
        let q = parse(
            &json!({"title": {"query": "x", "fuzziness": "AUTO", "prefix_length": 1, "zero_terms_query": "all"}}),
        )
        .unwrap();
        let QueryAst::Match { fuzzy, zero_terms_all, .. } = q else { panic!() };
        let want = FuzzyExpansion {
            fuzziness: Fuzziness::Auto { low: 3, high: 6 },
            prefix_length: 1,
            max_expansions: 50,
            transpositions: true,
        };
        assert_eq!((fuzzy, zero_terms_all), (Some(want), true));
    }

    #[test]
    fn unknown_or_bad_options_fail() {
        assert!(parse(&json!({"title": {"query": "x", "fuzziness": "lots"}})).is_err());
        assert!(parse(&json!({"title": {"query": "x", "operator": "xor"}})).is_err());
        assert!(parse(&json!({"title": {"query": "x", "cutoff_frequency": 0.1}})).is_err());
        assert!(parse(&json!({"title": {"query": "x", "zero_terms_query": "some"}})).is_err());
    }
}
