//! `match_bool_prefix`: the analysed terms as a bool query (should, or must with
//! `operator: and`), the last term as a prefix. Short form `{"field": "text"}`.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::{MinimumShouldMatch, Operator, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    query: Value,
    operator: Option<String>,
    minimum_should_match: Option<Value>,
    analyzer: Option<String>,
    boost: Option<f32>,
    fuzziness: Option<Value>,
    prefix_length: Option<i64>,
    max_expansions: Option<i64>,
    fuzzy_transpositions: Option<bool>,
    fuzzy_rewrite: Option<String>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

/// `fuzzy_rewrite`: whether fuzzy terms score a constant (`constant_score`), or by the blended
/// top terms (`top_terms_blended_freqs_N`, the default, which caps the expansions at N).
fn fuzzy_rewrite(kind: &str, value: Option<&str>) -> Result<(bool, Option<i64>)> {
    match value {
        None => Ok((false, None)),
        Some("constant_score" | "constant_score_boolean") => Ok((true, None)),
        Some(other) => match other.strip_prefix("top_terms_blended_freqs_").and_then(|n| n.parse().ok()) {
            Some(n) => Ok((false, Some(n))),
            None => Err(EngineError::Parsing(format!("[{kind}] fuzzy_rewrite [{other}] is not supported"))),
        },
    }
}

pub(crate) fn parse_operator(kind: &str, op: Option<&str>) -> Result<Operator> {
    match op.map(str::to_ascii_lowercase).as_deref() {
        None | Some("or") => Ok(Operator::Or),
        Some("and") => Ok(Operator::And),
        Some(other) => Err(EngineError::Parsing(format!("[{kind}] unknown operator [{other}]"))),
    }
}

pub(crate) fn parse_msm(kind: &str, v: Option<&Value>) -> Result<Option<MinimumShouldMatch>> {
    v.map(MinimumShouldMatch::parse).transpose().map_err(|e| EngineError::Parsing(format!("[{kind}] {e}")))
}

pub(crate) fn query_text(kind: &str, v: &Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(EngineError::Parsing(format!("[{kind}] unknown token [{other}] after [query]"))),
    }
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    const KIND: &str = "match_bool_prefix";
    let (field, spec) = single_field(KIND, body)?;
    let opts: Options = match spec {
        Value::Object(_) => from_value(KIND, spec)?,
        scalar => from_value(KIND, &serde_json::json!({ "query": scalar }))?,
    };
    // A built-in analyzer replaces the field's; `standard` keeps the field's own (as before). Any
    // other name (an index's custom analyzer) is refused rather than silently ignored.
    let analyzer = opts.analyzer.clone().filter(|a| a != "standard");
    if let Some(analyzer) = analyzer.as_deref().filter(|a| crate::analyzers::builtin(a).is_none()) {
        return Err(EngineError::Parsing(format!("[{KIND}] analyzer [{analyzer}] is not supported")));
    }
    let (fuzzy_constant, top_terms) = fuzzy_rewrite(KIND, opts.fuzzy_rewrite.as_deref())?;
    let fuzzy = super::fuzziness::fuzzy_expansion(
        KIND,
        opts.fuzziness.as_ref(),
        opts.prefix_length,
        top_terms.or(opts.max_expansions),
        opts.fuzzy_transpositions,
    )?;
    Ok(QueryAst::MatchBoolPrefix {
        field: field.clone(),
        text: query_text(KIND, &opts.query)?,
        operator: parse_operator(KIND, opts.operator.as_deref())?,
        minimum_should_match: parse_msm(KIND, opts.minimum_should_match.as_ref())?,
        fuzzy,
        fuzzy_constant,
        analyzer,
    }
    .boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let ast = parse(&json!({"title": "quick br"})).unwrap();
        assert!(matches!(ast, QueryAst::MatchBoolPrefix { operator: Operator::Or, .. }));
        let ast = parse(&json!({"title": {"query": "a b", "operator": "and", "minimum_should_match": 1}})).unwrap();
        assert!(matches!(ast, QueryAst::MatchBoolPrefix { operator: Operator::And, .. }));
        let fuzzy =
            parse(&json!({"title": {"query": "a b", "fuzziness": 1, "fuzzy_rewrite": "constant_score"}})).unwrap();
        assert!(matches!(fuzzy, QueryAst::MatchBoolPrefix { fuzzy: Some(_), fuzzy_constant: true, .. }));
        assert!(parse(&json!({"title": {"query": "a", "fuzzy_rewrite": "scoring_boolean"}})).is_err());
    }

    #[test]
    fn a_built_in_analyzer_replaces_the_fields_and_another_name_is_refused() {
        let ast = parse(&json!({"title": {"query": "BROWN dog", "analyzer": "whitespace"}})).unwrap();
        assert!(matches!(ast, QueryAst::MatchBoolPrefix { analyzer: Some(ref a), .. } if a == "whitespace"));
        let standard = parse(&json!({"title": {"query": "a", "analyzer": "standard"}})).unwrap();
        assert!(matches!(standard, QueryAst::MatchBoolPrefix { analyzer: None, .. }));
        assert!(parse(&json!({"title": {"query": "a", "analyzer": "my_custom"}})).is_err());
    }
}
