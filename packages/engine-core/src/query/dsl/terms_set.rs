//! `terms_set`: `{"field": {"terms": [..], "minimum_should_match_field": "f"}}`, or with
//! `minimum_should_match_script` (a script of `params.num_terms` and its own params, such as
//! `Math.min(params.num_terms, 2)`; scripts reading document values are refused) or ES 8.10's
//! plain `minimum_should_match`.

use serde::Deserialize;
use serde_json::Value;

use super::field_value::scalar_text;
use super::{from_value, single_field};
use crate::error::{EngineError, Result};
use crate::query::ast::{QueryAst, TermsSetAst, TermsSetRequired};
use crate::script::Script;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    terms: Vec<Value>,
    minimum_should_match_field: Option<String>,
    minimum_should_match_script: Option<Value>,
    minimum_should_match: Option<Value>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    const KIND: &str = "terms_set";
    let (field, spec) = single_field(KIND, body)?;
    let opts: Options = from_value(KIND, spec)?;
    for value in &opts.terms {
        scalar_text(KIND, value)?;
    }
    let given = [
        opts.minimum_should_match_field.is_some(),
        opts.minimum_should_match_script.is_some(),
        opts.minimum_should_match.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(EngineError::Parsing(format!(
            "[{KIND}] requires exactly one of [minimum_should_match_field], [minimum_should_match_script] or [minimum_should_match]"
        )));
    }
    let required = if let Some(field) = opts.minimum_should_match_field {
        TermsSetRequired::Field(field)
    } else if let Some(script) = &opts.minimum_should_match_script {
        let script = Script::from_json(script)?;
        if let Some(field) = script.doc_fields().first() {
            // The minimum is computed once for the query, not per document.
            return Err(crate::script::unsupported(format!(
                "doc['{field}'] in [minimum_should_match_script]; use [minimum_should_match_field]"
            )));
        }
        TermsSetRequired::Script(script)
    } else {
        let n = opts
            .minimum_should_match
            .as_ref()
            .and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok())));
        TermsSetRequired::Count(n.ok_or_else(|| {
            EngineError::Parsing(format!("[{KIND}] [minimum_should_match] must be a non-negative integer"))
        })? as usize)
    };
    Ok(QueryAst::TermsSet(Box::new(TermsSetAst { field: field.clone(), values: opts.terms, required }))
        .boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_each_way_of_giving_the_minimum() {
        let field = parse(&json!({"tags": {"terms": ["a", "b"], "minimum_should_match_field": "n"}})).unwrap();
        assert!(matches!(field, QueryAst::TermsSet(t) if t.required == TermsSetRequired::Field("n".into())));
        let script = parse(&json!({"tags": {"terms": ["a"], "minimum_should_match_script": {"source": "2"}}})).unwrap();
        assert!(matches!(script, QueryAst::TermsSet(t) if matches!(t.required, TermsSetRequired::Script(_))));
        let plain = parse(&json!({"tags": {"terms": ["a"], "minimum_should_match": 1}})).unwrap();
        assert!(matches!(plain, QueryAst::TermsSet(t) if t.required == TermsSetRequired::Count(1)));
    }

    #[test]
    fn refuses_none_or_several_minimums_and_document_scripts() {
        assert!(parse(&json!({"tags": {"terms": ["a"]}})).is_err());
        let both = json!({"tags": {"terms": ["a"], "minimum_should_match": 1, "minimum_should_match_field": "n"}});
        assert!(parse(&both).is_err());
        let doc = json!({"tags": {"terms": ["a"], "minimum_should_match_script": {"source": "doc['n'].value"}}});
        assert!(parse(&doc).is_err());
    }
}
