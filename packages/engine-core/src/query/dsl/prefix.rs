//! `prefix`: terms starting with the (not analyzed) value; constant score like ES's default
//! `constant_score` rewrite.

use serde::Deserialize;
use serde_json::Value;

use super::field_value::{field_options, scalar_text};
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PrefixOptions {
    value: Value,
    case_insensitive: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, opts) = field_options::<PrefixOptions>("prefix", body)?;
    let value = scalar_text("prefix", &opts.value)?;
    if opts.case_insensitive == Some(true) {
        let pattern = format!("{}.*", super::term::regex_escape(&value));
        return Ok(super::term::case_insensitive_pattern(&field, &pattern).boosted(opts.boost));
    }
    Ok(QueryAst::Prefix { field, value }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let want = QueryAst::Prefix { field: "host".into(), value: "host-0".into() };
        assert_eq!(parse(&json!({"host": "host-0"})).unwrap(), want);
        assert_eq!(parse(&json!({"host": {"value": "host-0"}})).unwrap(), want);
        assert!(parse(&json!({"host": {"value": "h", "rewrite": "x"}})).is_err());
    }
}
