//! `multi_match`: the query on each of `fields` (`"title^2"` boosts a field), combined by
//! `type` as ES does:
//! - `best_fields` (default): a `match` per field, the best field's score (`dis_max` with
//!   `tie_breaker`);
//! - `most_fields`: a `match` per field, scores added (bool `should`);
//! - `phrase` / `phrase_prefix`: a `match_phrase(_prefix)` per field, best field's score;
//! - `bool_prefix`: a `match_bool_prefix` per field, scores added;
//! - `cross_fields`: term-centric, the fields of one analyzer searched as one (resolved at
//!   lowering, where the fields' types are known: `lower/text.rs`).

use serde::Deserialize;
use serde_json::{json, Value};

use super::combined_fields::field_and_boost;
use super::from_value;
use super::match_bool_prefix::{parse_msm, parse_operator, query_text};
use super::{match_bool_prefix, match_phrase, match_phrase_prefix, match_query};
use crate::error::{EngineError, Result};
use crate::query::ast::{BoolAst, CrossFieldsAst, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MultiMatchOptions {
    query: Value,
    fields: Vec<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    tie_breaker: Option<f32>,
    operator: Option<String>,
    minimum_should_match: Option<Value>,
    boost: Option<f32>,
    analyzer: Option<String>,
    fuzziness: Option<Value>,
    prefix_length: Option<i64>,
    max_expansions: Option<i64>,
    fuzzy_transpositions: Option<bool>,
    slop: Option<u32>,
    /// Refused: the deprecated high/low frequency split is not implemented.
    cutoff_frequency: Option<Value>,
    zero_terms_query: Option<String>,
    /// Only the standard analyzer exists here: there are no synonyms to make phrases of.
    #[serde(rename = "auto_generate_synonyms_phrase_query")]
    _auto_generate_synonyms_phrase_query: Option<bool>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

const KIND: &str = "multi_match";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Type {
    BestFields,
    MostFields,
    Phrase,
    PhrasePrefix,
    BoolPrefix,
    CrossFields,
}

fn parse_type(name: Option<&str>) -> Result<Type> {
    Ok(match name.map(str::to_ascii_lowercase).as_deref() {
        None | Some("best_fields" | "boolean") => Type::BestFields,
        Some("most_fields") => Type::MostFields,
        Some("phrase") => Type::Phrase,
        Some("phrase_prefix") => Type::PhrasePrefix,
        Some("bool_prefix") => Type::BoolPrefix,
        Some("cross_fields") => Type::CrossFields,
        Some(other) => {
            return Err(EngineError::Parse(format!("failed to parse [{KIND}] query type [{other}]. unknown type.")))
        }
    })
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: MultiMatchOptions = from_value(KIND, body)?;
    if opts.fields.is_empty() {
        return Err(EngineError::Parsing(format!("[{KIND}] requires [fields] (index defaults are not supported)")));
    }
    // A pattern needs the mapping to expand (`field_patterns.rs`, which the search calls on
    // this refusal); searching it as a field name would silently match nothing.
    if let Some(pattern) = opts.fields.iter().find(|f| f.contains('*')) {
        return Err(super::field_patterns::refusal(pattern));
    }
    let kind = parse_type(opts.kind.as_deref())?;
    // Only `bool_prefix` hands an analyzer on (to match_bool_prefix, which checks the name).
    if let Some(analyzer) = opts.analyzer.as_deref().filter(|a| *a != "standard" && kind != Type::BoolPrefix) {
        return Err(EngineError::Parsing(format!("[{KIND}] analyzer [{analyzer}] is not supported")));
    }
    if opts.fuzziness.is_some() && matches!(kind, Type::Phrase | Type::PhrasePrefix | Type::CrossFields) {
        let name = opts.kind.as_deref().unwrap_or_default();
        return Err(EngineError::IllegalArgument(format!("Fuzziness not allowed for type [{name}]")));
    }
    if kind == Type::BoolPrefix {
        for (given, name) in [(opts.slop.is_some(), "slop"), (opts.cutoff_frequency.is_some(), "cutoff_frequency")] {
            if given {
                return Err(EngineError::Parsing(format!("[{name}] not allowed for type [bool_prefix]")));
            }
        }
    }
    if opts.cutoff_frequency.is_some() {
        return Err(EngineError::Parsing(format!("[{KIND}] cutoff_frequency is not supported")));
    }
    let zero_terms_all = match_query::zero_terms_all(KIND, opts.zero_terms_query.as_deref())?;
    if zero_terms_all && !matches!(kind, Type::BestFields | Type::MostFields) {
        return Err(EngineError::Parsing(format!(
            "[{KIND}] zero_terms_query [all] is only supported with best_fields and most_fields"
        )));
    }
    let fields = opts.fields.iter().map(|f| field_and_boost(KIND, f)).collect::<Result<Vec<_>>>()?;
    let tie_breaker = opts.tie_breaker.unwrap_or(0.0);
    if kind == Type::CrossFields {
        let cross = CrossFieldsAst {
            fields,
            text: query_text(KIND, &opts.query)?,
            operator: parse_operator(KIND, opts.operator.as_deref())?,
            minimum_should_match: parse_msm(KIND, opts.minimum_should_match.as_ref())?,
            tie_breaker,
        };
        return Ok(QueryAst::CrossFields(Box::new(cross)).boosted(opts.boost));
    }
    let per_field = fields
        .iter()
        .map(|(field, boost)| {
            let query = per_field_query(kind, field, &opts)?;
            Ok(query.boosted(Some(*boost)))
        })
        .collect::<Result<Vec<_>>>()?;
    let combined = match kind {
        Type::MostFields | Type::BoolPrefix => QueryAst::Bool(BoolAst { should: per_field, ..Default::default() }),
        _ => QueryAst::DisMax { queries: per_field, tie_breaker },
    };
    Ok(combined.boosted(opts.boost))
}

/// The single-field query each type runs on one field, with the options that apply to it.
fn per_field_query(kind: Type, field: &str, opts: &MultiMatchOptions) -> Result<QueryAst> {
    let mut options = json!({ "query": opts.query });
    let mut copy = |name: &str, value: Option<Value>| {
        if let Some(v) = value {
            options[name] = v;
        }
    };
    match kind {
        Type::BestFields | Type::MostFields | Type::BoolPrefix => {
            copy("operator", opts.operator.clone().map(Value::String));
            copy("minimum_should_match", opts.minimum_should_match.clone());
        }
        Type::Phrase | Type::PhrasePrefix => copy("slop", opts.slop.map(|s| json!(s))),
        Type::CrossFields => unreachable!("resolved at lowering"),
    }
    if matches!(kind, Type::BestFields | Type::MostFields | Type::BoolPrefix) {
        copy("fuzziness", opts.fuzziness.clone());
        copy("prefix_length", opts.prefix_length.map(|n| json!(n)));
        copy("max_expansions", opts.max_expansions.map(|n| json!(n)));
        copy("fuzzy_transpositions", opts.fuzzy_transpositions.map(Value::Bool));
    }
    match kind {
        Type::BestFields | Type::MostFields => {
            copy("zero_terms_query", opts.zero_terms_query.clone().map(Value::String));
            match_query::parse(&json!({ field: options }))
        }
        Type::Phrase => match_phrase::parse(&json!({ field: options })),
        Type::PhrasePrefix => {
            copy("max_expansions", opts.max_expansions.map(|n| json!(n)));
            match_phrase_prefix::parse(&json!({ field: options }))
        }
        Type::BoolPrefix => {
            copy("analyzer", opts.analyzer.clone().map(Value::String));
            match_bool_prefix::parse(&json!({ field: options }))
        }
        Type::CrossFields => unreachable!("resolved at lowering"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_fields_is_a_dis_max_of_matches() {
        let ast = parse(&json!({"query": "fox", "fields": ["title^2", "status"]})).unwrap();
        let QueryAst::DisMax { queries, tie_breaker } = ast else { panic!("not dis_max") };
        assert_eq!((queries.len(), tie_breaker), (2, 0.0));
        assert!(matches!(&queries[0], QueryAst::Boost { boost, .. } if *boost == 2.0));
    }

    #[test]
    fn each_type_builds_its_per_field_query() {
        let of = |kind: &str| parse(&json!({"query": "quick fo", "fields": ["title"], "type": kind})).unwrap();
        assert!(matches!(of("most_fields"), QueryAst::Bool(_)));
        assert!(
            matches!(of("phrase"), QueryAst::DisMax { queries, .. } if matches!(queries[0], QueryAst::MatchPhrase { .. }))
        );
        let prefix = of("phrase_prefix");
        assert!(
            matches!(prefix, QueryAst::DisMax { queries, .. } if matches!(queries[0], QueryAst::MatchPhrasePrefix { .. }))
        );
        assert!(
            matches!(of("bool_prefix"), QueryAst::Bool(b) if matches!(b.should[0], QueryAst::MatchBoolPrefix { .. }))
        );
        assert!(matches!(of("cross_fields"), QueryAst::CrossFields(_)));
        let slop = parse(&json!({"query": "a b", "fields": ["t"], "type": "phrase", "slop": 2})).unwrap();
        assert!(
            matches!(slop, QueryAst::DisMax { queries, .. } if matches!(queries[0], QueryAst::MatchPhrase { slop: 2, .. }))
        );
    }

    #[test]
    fn refusals_name_what_es_names() {
        let err = parse(&json!({"query": "x", "fields": ["a"], "type": "fastest"})).unwrap_err();
        assert_eq!(err.es_type_and_status().0, "parse_exception");
        let err = parse(&json!({"query": "x", "fields": ["a"], "type": "phrase", "fuzziness": 1})).unwrap_err();
        assert_eq!(err.to_string(), "Fuzziness not allowed for type [phrase]");
        assert!(parse(&json!({"query": "x", "fields": []})).is_err());
        assert!(parse(&json!({"query": "x", "fields": ["ti*"]})).is_err());
    }
}
