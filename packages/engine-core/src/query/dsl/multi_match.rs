//! `multi_match`: one `match` per field (`"title^2"` boosts a field), combined as
//! `best_fields` (dis_max with `tie_breaker`, the default) or `most_fields` (sum, as bool
//! should). Other types are rejected.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{from_value, match_query};
use crate::error::{EngineError, Result};
use crate::query::ast::{BoolAst, QueryAst};

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
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: MultiMatchOptions = from_value("multi_match", body)?;
    if opts.fields.is_empty() {
        return Err(EngineError::Parsing("[multi_match] requires [fields] (index defaults are not supported)".into()));
    }
    let per_field = opts
        .fields
        .iter()
        .map(|spec| {
            let (field, boost) = match spec.split_once('^') {
                Some((f, b)) => (
                    f,
                    Some(
                        b.parse::<f32>()
                            .map_err(|_| EngineError::Parsing(format!("[multi_match] bad field boost in [{spec}]")))?,
                    ),
                ),
                None => (spec.as_str(), None),
            };
            let mut options = json!({ "query": opts.query });
            if let Some(op) = &opts.operator {
                options["operator"] = json!(op);
            }
            if let Some(msm) = &opts.minimum_should_match {
                options["minimum_should_match"] = msm.clone();
            }
            Ok(match_query::parse(&json!({ field: options }))?.boosted(boost))
        })
        .collect::<Result<Vec<_>>>()?;
    let combined = match opts.kind.as_deref().unwrap_or("best_fields") {
        "best_fields" => QueryAst::DisMax { queries: per_field, tie_breaker: opts.tie_breaker.unwrap_or(0.0) },
        "most_fields" => QueryAst::Bool(BoolAst { should: per_field, ..Default::default() }),
        other => return Err(EngineError::Parsing(format!("[multi_match] type [{other}] is not supported"))),
    };
    Ok(combined.boosted(opts.boost))
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
    fn most_fields_sums_and_unknown_types_fail() {
        let ast = parse(&json!({"query": "fox", "fields": ["title"], "type": "most_fields"})).unwrap();
        assert!(matches!(ast, QueryAst::Bool(_)));
        assert!(parse(&json!({"query": "x", "fields": ["a"], "type": "cross_fields"})).is_err());
        assert!(parse(&json!({"query": "x", "fields": []})).is_err());
    }
}
