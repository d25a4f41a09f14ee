//! `wildcard`: `*` (any run) and `?` (one char) over whole terms; the value is not analyzed.

use serde::Deserialize;
use serde_json::Value;

use super::field_value::{field_options, scalar_text};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WildcardOptions {
    value: Option<Value>,
    /// ES accepts the pattern under either name.
    wildcard: Option<Value>,
    case_insensitive: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, opts) = field_options::<WildcardOptions>("wildcard", body)?;
    let raw = opts
        .value
        .or(opts.wildcard)
        .ok_or_else(|| EngineError::Parsing("[wildcard] requires either [value] or [wildcard]".to_string()))?;
    let pattern = scalar_text("wildcard", &raw)?;
    if opts.case_insensitive == Some(true) {
        return Ok(super::term::case_insensitive_pattern(&field, &to_regex(&pattern)).boosted(opts.boost));
    }
    Ok(QueryAst::Wildcard { field, pattern }.boosted(opts.boost))
}

/// The wildcard pattern as an anchored regex over the whole term (regex metacharacters escaped).
pub fn to_regex(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() * 2);
    for c in pattern.chars() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            c if "\\.+()[]{}|^$#&~\"<>@-".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_both_names_and_translates_to_regex() {
        let want = QueryAst::Wildcard { field: "host".into(), pattern: "host-?1*".into() };
        assert_eq!(parse(&json!({"host": {"wildcard": "host-?1*"}})).unwrap(), want);
        assert_eq!(parse(&json!({"host": "host-?1*"})).unwrap(), want);
        assert_eq!(to_regex("host-?1*"), "host\\-.1.*");
        assert!(parse(&json!({"host": {}})).is_err());
    }
}
