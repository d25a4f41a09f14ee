//! `regexp`: a regular expression over whole terms (Lucene's syntax and tantivy's agree for
//! the common subset: classes, `.`, `*`, `+`, `?`, `{n,m}`, `|`, groups). `flags` other than
//! the default `ALL` are rejected.

use serde::Deserialize;
use serde_json::Value;

use super::field_value::{field_options, scalar_text};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegexpOptions {
    value: Value,
    flags: Option<String>,
    case_insensitive: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, opts) = field_options::<RegexpOptions>("regexp", body)?;
    if let Some(flags) = opts.flags.as_deref().filter(|f| *f != "ALL") {
        return Err(EngineError::Parsing(format!("[regexp] flags [{flags}] are not supported")));
    }
    let pattern = scalar_text("regexp", &opts.value)?;
    if opts.case_insensitive == Some(true) {
        return Ok(super::term::case_insensitive_pattern(&field, &pattern).boosted(opts.boost));
    }
    Ok(QueryAst::Regexp { field, pattern }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_and_rejects_flags() {
        let want = QueryAst::Regexp { field: "host".into(), pattern: "host-0[1-3]".into() };
        assert_eq!(parse(&json!({"host": {"value": "host-0[1-3]"}})).unwrap(), want);
        assert!(parse(&json!({"host": {"value": "a", "flags": "INTERSECTION"}})).is_err());
    }
}
