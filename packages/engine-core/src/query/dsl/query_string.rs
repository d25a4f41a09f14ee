//! `query_string` and `simple_query_string`: the options envelope. The syntax lives in
//! `query_string_parser` (Lucene classic subset) and `simple_query_parser` (Lucene simple).

use serde::Deserialize;
use serde_json::Value;

use super::combined_fields::field_and_boost;
use super::from_value;
use super::match_bool_prefix::{parse_msm, parse_operator};
use super::query_string_parser::QsParser;
use super::simple_query_parser::{parse_flags, SimpleParser, ALL};
use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::{Operator, QueryAst};
use crate::query::ast::{QsNode, QueryStringAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryStringOptions {
    query: String,
    default_field: Option<String>,
    fields: Option<Vec<String>>,
    default_operator: Option<String>,
    analyze_wildcard: Option<bool>,
    allow_leading_wildcard: Option<bool>,
    lenient: Option<bool>,
    minimum_should_match: Option<Value>,
    tie_breaker: Option<f32>,
    #[serde(rename = "type")]
    kind: Option<String>,
    // No synonyms exist here, so the flag cannot change anything.
    #[serde(rename = "auto_generate_synonyms_phrase_query")]
    _auto_generate_synonyms_phrase_query: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SimpleOptions {
    query: String,
    fields: Option<Vec<String>>,
    default_operator: Option<String>,
    flags: Option<Value>,
    analyze_wildcard: Option<bool>,
    lenient: Option<bool>,
    minimum_should_match: Option<Value>,
    // No synonyms exist here, so the flag cannot change anything.
    #[serde(rename = "auto_generate_synonyms_phrase_query")]
    _auto_generate_synonyms_phrase_query: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

fn fields_of(kind: &str, fields: Option<&[String]>) -> Result<Vec<(String, f32)>> {
    match fields {
        None | Some([]) => Ok(vec![("*".to_string(), 1.0)]),
        Some(list) => list.iter().map(|f| field_and_boost(kind, f)).collect(),
    }
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    const KIND: &str = "query_string";
    let opts: QueryStringOptions = from_value(KIND, body)?;
    if opts.default_field.is_some() && opts.fields.is_some() {
        return Err(EngineError::Parsing(
            "[query_string] cannot use [fields] parameter in conjunction with [default_field]".into(),
        ));
    }
    if opts.allow_leading_wildcard == Some(false) {
        return Err(EngineError::Parsing("[query_string] allow_leading_wildcard [false] is not supported".into()));
    }
    let tie_breaker = match opts.kind.as_deref().unwrap_or("best_fields") {
        "best_fields" => opts.tie_breaker.unwrap_or(0.0),
        "most_fields" => 1.0,
        other => return Err(EngineError::Parsing(format!("[query_string] type [{other}] is not supported"))),
    };
    let and = parse_operator(KIND, opts.default_operator.as_deref())? == Operator::And;
    let tree = QsParser::parse(&opts.query, and).map_err(|e| {
        EngineError::shard(ShardCause::QueryShard, format!("Failed to parse query [{}]: {e}", opts.query))
    })?;
    let fields = match &opts.default_field {
        Some(f) => fields_of(KIND, Some(std::slice::from_ref(f)))?,
        None => fields_of(KIND, opts.fields.as_deref())?,
    };
    Ok(build(
        tree,
        fields,
        and,
        tie_breaker,
        opts.analyze_wildcard,
        opts.lenient.or_else(|| all_fields(opts.default_field.as_ref(), opts.fields.as_deref()).then_some(true)),
        parse_msm(KIND, opts.minimum_should_match.as_ref())?,
    )
    .boosted(opts.boost))
}

pub fn parse_simple(body: &Value) -> Result<QueryAst> {
    const KIND: &str = "simple_query_string";
    let opts: SimpleOptions = from_value(KIND, body)?;
    let flags = match &opts.flags {
        None => ALL,
        Some(Value::String(s)) => parse_flags(s).map_err(EngineError::IllegalArgument)?,
        Some(Value::Number(n)) if n.as_i64() == Some(-1) => ALL,
        Some(Value::Number(n)) => n
            .as_u64()
            .map(|n| n as u32 & ALL)
            .ok_or_else(|| EngineError::Parsing(format!("[{KIND}] bad flags [{n}]")))?,
        Some(other) => return Err(EngineError::Parsing(format!("[{KIND}] bad flags [{other}]"))),
    };
    let and = parse_operator(KIND, opts.default_operator.as_deref())? == Operator::And;
    let tree = SimpleParser::parse(&opts.query, flags, and);
    let fields = fields_of(KIND, opts.fields.as_deref())?;
    // Across fields simple_query_string sums (a dis_max with tie breaker 1).
    Ok(build(
        tree,
        fields,
        and,
        1.0,
        opts.analyze_wildcard,
        opts.lenient.or_else(|| all_fields(None, opts.fields.as_deref()).then_some(true)),
        parse_msm(KIND, opts.minimum_should_match.as_ref())?,
    )
    .boosted(opts.boost))
}

/// Whether a query searches every field (no field named, or `*`): ES then defaults `lenient`
/// to true, so a value that does not fit a field's type (text against a number, also in an
/// explicit `field:value`) matches nothing there instead of failing the search.
fn all_fields(default_field: Option<&String>, fields: Option<&[String]>) -> bool {
    match (default_field, fields) {
        (Some(f), _) => f == "*",
        (None, None) => true,
        (None, Some(list)) => list.is_empty() || list.iter().all(|f| f == "*"),
    }
}

fn build(
    tree: Option<QsNode>,
    default_fields: Vec<(String, f32)>,
    and_operator: bool,
    tie_breaker: f32,
    analyze_wildcard: Option<bool>,
    lenient: Option<bool>,
    minimum_should_match: Option<crate::query::ast::MinimumShouldMatch>,
) -> QueryAst {
    let Some(tree) = tree else { return QueryAst::MatchNone };
    QueryAst::QueryString(Box::new(QueryStringAst {
        tree,
        default_fields,
        and_operator,
        tie_breaker,
        analyze_wildcard: analyze_wildcard.unwrap_or(false),
        lenient: lenient.unwrap_or(false),
        minimum_should_match,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_and_errors() {
        assert!(matches!(
            parse(&json!({"query": "a AND b", "fields": ["title^2"]})).unwrap(),
            QueryAst::QueryString(_)
        ));
        let err = parse(&json!({"query": "a AND"})).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400));
        assert!(parse(&json!({"query": "a", "fuzzy_rewrite": "x"})).is_err());
        assert!(matches!(parse_simple(&json!({"query": "(("})).unwrap(), QueryAst::MatchNone));
        assert!(parse_simple(&json!({"query": "a", "flags": "AND|BOGUS"})).is_err());
        assert!(parse_simple(&json!({"query": "a", "flags": "OR|PREFIX"})).is_ok());
    }
}
