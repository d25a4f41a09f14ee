//! `intervals`: `{"<field>": {"<rule>": {...}, "boost"?, "_name"?}}`, the rules `match`,
//! `any_of`, `all_of`, `prefix`, `wildcard` and `fuzzy`, each with an optional `filter` of
//! another rule (`containing`, `contained_by`, `not_containing`, `not_contained_by`,
//! `overlapping`, `not_overlapping`, `before`, `after`), as ES 7.10 parses them.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::fuzziness::parse_fuzziness;
use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::{Fuzziness, QueryAst};
use crate::query::intervals_ast::{IntervalsExpansion, IntervalsFilter, IntervalsRelation as Relation, IntervalsRule};

const RULES: &str = "[match, any_of, all_of, prefix, wildcard, fuzzy]";

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("intervals", body)?;
    let obj = spec
        .as_object()
        .ok_or_else(|| EngineError::Parsing(format!("Expected [START_OBJECT] but got [{}]", token(spec))))?;
    let mut rule: Option<(&str, IntervalsRule)> = None;
    let mut boost = None;
    for (key, value) in obj {
        match key.as_str() {
            "boost" => boost = Some(value.as_f64().ok_or_else(|| bad("intervals", key))? as f32),
            "_name" => {}
            name => {
                if let Some((first, _)) = rule {
                    return Err(EngineError::Parsing(format!(
                        "Only one interval rule can be specified, found [{first}] and [{name}]"
                    )));
                }
                rule = Some((name, parse_rule(name, value)?));
            }
        }
    }
    let (_, rule) =
        rule.ok_or_else(|| EngineError::Parsing("Missing intervals from interval query definition".into()))?;
    Ok(QueryAst::Intervals { field: field.clone(), rule: Box::new(rule) }.boosted(boost))
}

fn token(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "START_OBJECT",
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
    }
}

fn bad(kind: &str, key: &str) -> EngineError {
    EngineError::XContentParse(format!("[{kind}] failed to parse field [{key}]"))
}

/// A `max_gaps` of -1 (ES's default) means no limit.
fn gaps(value: Option<i64>) -> Option<u32> {
    value.and_then(|g| u32::try_from(g).ok())
}

/// Only the analyzer the engine indexes text with; another would change what matches.
fn check_analyzer(kind: &str, analyzer: Option<&str>) -> Result<()> {
    match analyzer {
        None | Some("standard") => Ok(()),
        Some(other) => Err(EngineError::Parsing(format!("[{kind}] analyzer [{other}] is not supported"))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchRule {
    query: String,
    max_gaps: Option<i64>,
    ordered: Option<bool>,
    analyzer: Option<String>,
    filter: Option<Value>,
    use_field: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Combination {
    intervals: Vec<Value>,
    max_gaps: Option<i64>,
    ordered: Option<bool>,
    filter: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Disjunction {
    intervals: Vec<Value>,
    filter: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PrefixRule {
    prefix: String,
    analyzer: Option<String>,
    use_field: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WildcardRule {
    pattern: String,
    analyzer: Option<String>,
    use_field: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FuzzyRule {
    term: String,
    prefix_length: Option<i64>,
    transpositions: Option<bool>,
    fuzziness: Option<Value>,
    analyzer: Option<String>,
    use_field: Option<String>,
}

/// One `{"<rule>": {...}}` object, as found in `any_of`/`all_of` lists and filters.
fn parse_wrapped(value: &Value) -> Result<IntervalsRule> {
    let obj = value
        .as_object()
        .filter(|o| o.len() == 1)
        .ok_or_else(|| EngineError::Parsing(format!("Expected a single interval rule object, one of {RULES}")))?;
    let (name, body) = obj.iter().next().expect("one entry");
    parse_rule(name, body)
}

fn parse_rule(name: &str, body: &Value) -> Result<IntervalsRule> {
    match name {
        "match" => {
            let rule: MatchRule = from_value("match", body)?;
            check_analyzer("match", rule.analyzer.as_deref())?;
            Ok(IntervalsRule::Match {
                query: rule.query,
                max_gaps: gaps(rule.max_gaps),
                ordered: rule.ordered.unwrap_or(false),
                use_field: rule.use_field,
                filter: parse_filter(rule.filter.as_ref())?,
            })
        }
        "all_of" => {
            let rule: Combination = from_value("all_of", body)?;
            Ok(IntervalsRule::AllOf {
                rules: rules(&rule.intervals)?,
                max_gaps: gaps(rule.max_gaps),
                ordered: rule.ordered.unwrap_or(false),
                filter: parse_filter(rule.filter.as_ref())?,
            })
        }
        "any_of" => {
            let rule: Disjunction = from_value("any_of", body)?;
            Ok(IntervalsRule::AnyOf { rules: rules(&rule.intervals)?, filter: parse_filter(rule.filter.as_ref())? })
        }
        "prefix" => {
            let rule: PrefixRule = from_value("prefix", body)?;
            check_analyzer("prefix", rule.analyzer.as_deref())?;
            Ok(IntervalsRule::Expanded {
                expansion: IntervalsExpansion::Prefix(rule.prefix),
                use_field: rule.use_field,
            })
        }
        "wildcard" => {
            let rule: WildcardRule = from_value("wildcard", body)?;
            check_analyzer("wildcard", rule.analyzer.as_deref())?;
            Ok(IntervalsRule::Expanded {
                expansion: IntervalsExpansion::Wildcard(rule.pattern),
                use_field: rule.use_field,
            })
        }
        "fuzzy" => {
            let rule: FuzzyRule = from_value("fuzzy", body)?;
            check_analyzer("fuzzy", rule.analyzer.as_deref())?;
            let fuzziness = match &rule.fuzziness {
                Some(v) => parse_fuzziness(v)?,
                None => Fuzziness::Auto { low: 3, high: 6 },
            };
            let prefix_length = usize::try_from(rule.prefix_length.unwrap_or(0))
                .map_err(|_| EngineError::IllegalArgument("[fuzzy] prefix_length must not be negative".into()))?;
            Ok(IntervalsRule::Expanded {
                expansion: IntervalsExpansion::Fuzzy {
                    term: rule.term,
                    fuzziness,
                    prefix_length,
                    transpositions: rule.transpositions.unwrap_or(true),
                },
                use_field: rule.use_field,
            })
        }
        other => Err(EngineError::Parsing(format!("Unknown interval type [{other}], expecting one of {RULES}"))),
    }
}

fn rules(list: &[Value]) -> Result<Vec<IntervalsRule>> {
    list.iter().map(parse_wrapped).collect()
}

fn parse_filter(value: Option<&Value>) -> Result<Option<Box<IntervalsFilter>>> {
    let Some(value) = value else { return Ok(None) };
    let obj: &Map<String, Value> =
        value.as_object().ok_or_else(|| EngineError::Parsing("Expected [START_OBJECT] under [filter]".into()))?;
    let mut entries = obj.iter();
    let (name, body) = entries.next().ok_or_else(|| EngineError::Parsing("Expected a filter in [filter]".into()))?;
    if let Some((next, _)) = entries.next() {
        return Err(EngineError::Parsing(format!("Only one filter can be specified, found [{name}] and [{next}]")));
    }
    let relation = match name.as_str() {
        "containing" => Relation::Containing,
        "contained_by" => Relation::ContainedBy,
        "not_containing" => Relation::NotContaining,
        "not_contained_by" => Relation::NotContainedBy,
        "overlapping" => Relation::Overlapping,
        "not_overlapping" => Relation::NotOverlapping,
        "before" => Relation::Before,
        "after" => Relation::After,
        "script" => {
            return Err(EngineError::Parsing("[intervals] a [script] filter is not supported".into()));
        }
        other => return Err(EngineError::Parsing(format!("Unknown filter type [{other}]"))),
    };
    Ok(Some(Box::new(IntervalsFilter { relation, rule: parse_wrapped(body)? })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(q: Value) -> IntervalsRule {
        match parse(&q).unwrap() {
            QueryAst::Intervals { rule, .. } => *rule,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn match_defaults_and_filters() {
        let r = rule(json!({"text": {"match": {"query": "a b", "filter": {"before": {"match": {"query": "c"}}}}}}));
        let IntervalsRule::Match { max_gaps, ordered, filter, .. } = r else { panic!() };
        assert_eq!((max_gaps, ordered), (None, false));
        assert_eq!(filter.unwrap().relation, Relation::Before);
    }

    #[test]
    fn combinations_nest() {
        let r = rule(json!({"text": {"all_of": {"ordered": true, "max_gaps": 0, "intervals": [
            {"any_of": {"intervals": [{"match": {"query": "a"}}, {"prefix": {"prefix": "b"}}]}},
            {"fuzzy": {"term": "cald"}}
        ]}}}));
        let IntervalsRule::AllOf { rules, max_gaps: Some(0), ordered: true, .. } = r else { panic!() };
        assert!(matches!(rules[0], IntervalsRule::AnyOf { .. }));
    }

    #[test]
    fn errors_as_es_reports_them() {
        let err = parse(&json!({"text": {"nope": {}}})).unwrap_err();
        assert!(err.to_string().starts_with("Unknown interval type [nope]"), "{err}");
        let err = parse(&json!({"text": {"boost": 2}})).unwrap_err();
        assert_eq!(err.to_string(), "Missing intervals from interval query definition");
        assert!(parse(&json!({"text": {"match": {"query": "a", "slop": 1}}})).is_err());
    }
}
