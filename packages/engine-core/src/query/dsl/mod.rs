//! Elasticsearch query DSL -> `QueryAst`. One file per query type, each with its own serde
//! structs (`deny_unknown_fields`, so an unsupported option fails loudly) and tests.

mod bool_query;
pub mod boosting;
mod combined_fields;
mod constant_score;
mod dis_max;
mod exists;
pub mod field_patterns;
mod field_value;
mod function_score;
pub(crate) mod fuzziness;
mod fuzzy;
pub mod geo;
mod ids;
mod intervals;
pub(crate) mod knn;
pub(crate) mod knn_top_level;
mod match_all;
mod match_bool_prefix;
mod match_phrase;
mod match_phrase_prefix;
mod match_query;
pub mod more_like_this;
mod multi_match;
mod nested;
mod pinned;
mod prefix;
mod query_string;
mod query_string_parser;
mod range;
mod regexp;
pub mod score_function;
mod script;
mod simple_query_parser;
mod term;
mod terms;
mod terms_set;
pub mod wildcard;

use std::cell::Cell;

use serde_json::Value;

use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::limits::{nested_depth_error, MAX_NESTED_DEPTH};

thread_local! {
    /// How many `parse_query` calls are on this thread's stack (compound queries recurse).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Holds one level of query nesting; released on drop, so errors and unwinding keep it right.
struct DepthGuard;

impl DepthGuard {
    fn enter() -> Result<DepthGuard> {
        DEPTH.with(|d| {
            let depth = d.get() + 1;
            if depth > MAX_NESTED_DEPTH {
                return Err(nested_depth_error());
            }
            d.set(depth);
            Ok(DepthGuard)
        })
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Parses one query object `{"<type>": {...}}`, refusing nesting deeper than ES allows
/// before the recursion can get anywhere near the stack's end.
pub fn parse_query(value: &Value) -> Result<QueryAst> {
    let _depth = DepthGuard::enter()?;
    let ast = parse_query_at_depth(value)?;
    Ok(match query_name(value) {
        Some(name) => QueryAst::Named { name, query: Box::new(ast) },
        None => ast,
    })
}

/// A query's `_name` (each type's options accept it, so it is valid where found): beside a
/// compound query's options, or beside a field-level query's field options.
fn query_name(value: &Value) -> Option<String> {
    let (_, body) = value.as_object()?.iter().next()?;
    let body = body.as_object()?;
    let named = |obj: &serde_json::Map<String, Value>| obj.get("_name").and_then(Value::as_str).map(str::to_string);
    named(body).or_else(|| match body.values().next() {
        Some(Value::Object(options)) if body.len() == 1 => named(options),
        _ => None,
    })
}

fn parse_query_at_depth(value: &Value) -> Result<QueryAst> {
    let obj = value.as_object().ok_or_else(|| {
        EngineError::Parsing(format!("query malformed, must start with start_object but found [{}]", token_name(value)))
    })?;
    let mut entries = obj.iter();
    let (kind, body) =
        entries.next().ok_or_else(|| EngineError::Parsing("query malformed, empty clause found".to_string()))?;
    if let Some((next, _)) = entries.next() {
        return Err(EngineError::Parsing(format!(
            "[{kind}] malformed query, expected [END_OBJECT] but found [FIELD_NAME] ([{next}])"
        )));
    }
    match kind.as_str() {
        "match_all" => match_all::parse(body),
        "match_none" => match_all::parse_none(body),
        "term" => term::parse(body),
        "terms" => terms::parse(body),
        "range" => range::parse(body),
        "match" => match_query::parse(body),
        "bool" => bool_query::parse(body),
        "match_phrase" => match_phrase::parse(body),
        "match_phrase_prefix" => match_phrase_prefix::parse(body),
        "multi_match" => multi_match::parse(body),
        "prefix" => prefix::parse(body),
        "wildcard" => wildcard::parse(body),
        "regexp" => regexp::parse(body),
        "fuzzy" => fuzzy::parse(body),
        "exists" => exists::parse(body),
        "ids" => ids::parse(body),
        "constant_score" => constant_score::parse(body),
        "dis_max" => dis_max::parse(body),
        "boosting" => boosting::parse(body),
        "knn" => crate::query::dsl::knn::parse_knn(body),
        "function_score" => function_score::parse(body),
        "pinned" => pinned::parse(body),
        "match_bool_prefix" => match_bool_prefix::parse(body),
        "combined_fields" => combined_fields::parse(body),
        "query_string" => query_string::parse(body),
        "simple_query_string" => query_string::parse_simple(body),
        "more_like_this" => more_like_this::parse(body),
        "nested" => nested::parse(body),
        "terms_set" => terms_set::parse(body),
        "intervals" => intervals::parse(body),
        "script" => script::parse(body),
        "geo_distance" => crate::query::dsl::geo::parse_geo_distance(body),
        "geo_bounding_box" => crate::query::dsl::geo::parse_geo_bounding_box(body),
        other => Err(EngineError::Parsing(format!("unknown query [{other}]{}", did_you_mean(other)))),
    }
}

/// The query names the parser knows, for ES's "did you mean" hint.
const QUERY_NAMES: [&str; 34] = [
    "match_all",
    "match_none",
    "term",
    "terms",
    "range",
    "match",
    "bool",
    "match_phrase",
    "match_phrase_prefix",
    "multi_match",
    "prefix",
    "wildcard",
    "regexp",
    "fuzzy",
    "exists",
    "ids",
    "constant_score",
    "dis_max",
    "boosting",
    "knn",
    "function_score",
    "pinned",
    "match_bool_prefix",
    "combined_fields",
    "query_string",
    "simple_query_string",
    "more_like_this",
    "nested",
    "terms_set",
    "script",
    "geo_distance",
    "geo_bounding_box",
    "span_term",
    "geo_shape",
];

/// ES's hint after an unknown name: the known names more than 0.7 similar to it (Lucene's
/// Levenshtein similarity, `1 - edits / longer length`), most similar first.
fn did_you_mean(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut close: Vec<(f32, &str)> = QUERY_NAMES
        .iter()
        .filter_map(|known| {
            let other: Vec<char> = known.chars().collect();
            let mut prev: Vec<usize> = (0..=other.len()).collect();
            for (i, a) in chars.iter().enumerate() {
                let mut row = vec![i + 1];
                for (j, b) in other.iter().enumerate() {
                    row.push((prev[j] + usize::from(a != b)).min(prev[j + 1] + 1).min(row[j] + 1));
                }
                prev = row;
            }
            let similarity = 1.0 - prev[other.len()] as f32 / chars.len().max(other.len()).max(1) as f32;
            (similarity > 0.7).then_some((similarity, *known))
        })
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    match close.as_slice() {
        [] => String::new(),
        [(_, one)] => format!(" did you mean [{one}]?"),
        many => {
            format!(" did you mean any of {:?}?", many.iter().map(|(_, n)| *n).collect::<Vec<_>>()).replace('"', "")
        }
    }
}

/// Deserialises a query's options, turning serde errors into ES `parsing_exception`s.
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(kind: &str, value: &Value) -> Result<T> {
    serde_json::from_value(value.clone()).map_err(|e| EngineError::Parsing(format!("[{kind}] {e}")))
}

/// The single `{field: options}` entry of a field-level query such as `term` or `range`.
pub(crate) fn single_field<'a>(kind: &str, body: &'a Value) -> Result<(&'a String, &'a Value)> {
    let obj = body
        .as_object()
        .ok_or_else(|| EngineError::Parsing(format!("[{kind}] query malformed, no start_object after query name")))?;
    let mut entries = obj.iter();
    let first = entries
        .next()
        .ok_or_else(|| EngineError::Parsing(format!("[{kind}] query doesn't support empty field name")))?;
    if let Some((second, _)) = entries.next() {
        return Err(EngineError::Parsing(format!(
            "[{kind}] query doesn't support multiple fields, found [{}] and [{second}]",
            first.0
        )));
    }
    Ok(first)
}

fn token_name(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
        Value::Object(_) => "START_OBJECT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_query_type_is_a_parsing_exception() {
        let err = parse_query(&json!({"fuzzy_wuzzy": {}})).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("parsing_exception", 400));
        assert_eq!(err.to_string(), "unknown query [fuzzy_wuzzy]");
    }

    #[test]
    fn two_query_types_in_one_object_are_rejected() {
        let err = parse_query(&json!({"match_all": {}, "term": {"a": 1}})).unwrap_err();
        assert!(err.to_string().contains("malformed query"), "{err}");
    }
}
