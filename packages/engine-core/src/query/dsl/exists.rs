//! `exists`: documents with at least one indexed value in the field.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExistsOptions {
    field: String,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: ExistsOptions = from_value("exists", body)?;
    Ok(QueryAst::Exists { field: opts.field }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn needs_a_field() {
        assert_eq!(parse(&json!({"field": "price"})).unwrap(), QueryAst::Exists { field: "price".into() });
        assert!(parse(&json!({})).is_err());
        assert!(parse(&json!({"field": "a", "x": 1})).is_err());
    }
}
