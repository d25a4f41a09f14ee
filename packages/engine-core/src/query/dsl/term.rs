//! `term`: `{"field": value}` or `{"field": {"value": v, "boost": b}}`.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TermOptions {
    value: Value,
    case_insensitive: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("term", body)?;
    let (value, boost, case_insensitive) = match spec {
        Value::Object(_) => {
            let opts: TermOptions = from_value("term", spec)?;
            (opts.value, opts.boost, opts.case_insensitive.unwrap_or(false))
        }
        Value::Array(_) | Value::Null => {
            return Err(EngineError::Parsing("[term] query does not support array of values".to_string()))
        }
        scalar => (scalar.clone(), None, false),
    };
    if !(value.is_string() || value.is_number() || value.is_boolean()) {
        return Err(EngineError::Parsing(format!("[term] query does not support value [{value}]")));
    }
    if case_insensitive {
        let text = super::field_value::scalar_text("term", &value)?;
        return Ok(case_insensitive_pattern(field, &regex_escape(&text)).boosted(boost));
    }
    Ok(QueryAst::Term { field: field.clone(), value }.boosted(boost))
}

/// `case_insensitive` term-level queries: ES matches them with a case-folding automaton over
/// the terms (a constant score, like every multi-term query), which is what a regular
/// expression with the `i` flag is here (`lower_regex`).
pub(crate) fn case_insensitive_pattern(field: &str, regex: &str) -> QueryAst {
    QueryAst::Regexp { field: field.to_string(), pattern: format!("(?i:{regex})") }
}

/// `text` as a regular expression matching exactly it.
pub(crate) fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let short = parse(&json!({"status": "ok"})).unwrap();
        assert_eq!(short, QueryAst::Term { field: "status".into(), value: json!("ok") });
        let long = parse(&json!({"n": {"value": 3}})).unwrap();
        assert_eq!(long, QueryAst::Term { field: "n".into(), value: json!(3) });
    }

    #[test]
    fn case_insensitive_becomes_a_folding_pattern() {
        let q = parse(&json!({"status": {"value": "WaRN.x", "case_insensitive": true}})).unwrap();
        assert_eq!(q, QueryAst::Regexp { field: "status".into(), pattern: "(?i:WaRN\\.x)".into() });
        let plain = parse(&json!({"status": {"value": "WARN", "case_insensitive": false}})).unwrap();
        assert_eq!(plain, QueryAst::Term { field: "status".into(), value: json!("WARN") });
    }

    #[test]
    fn unknown_options_and_two_fields_fail() {
        assert!(parse(&json!({"n": {"value": 3, "fuzz": 1}})).is_err());
        assert!(parse(&json!({"a": 1, "b": 2})).is_err());
        assert!(parse(&json!({"a": [1]})).is_err());
    }
}
