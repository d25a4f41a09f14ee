//! URI search: `q` (Lucene query syntax) and its companions `df`, `default_operator`,
//! `analyzer`, `analyze_wildcard` and `lenient` on `_search` and `_count`, turned into the
//! `query_string` query ES builds from them. On `_search` the URL query replaces the body's;
//! `_count` refuses both at once (ES leaves `q` unconsumed, hence its "unrecognized parameter").
//! Without `q` the companions are left in place for the endpoint to refuse, as ES does.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::error::{json_syntax_error, EngineError, Result};
use crate::store::versioning::param_text;

const COMPANIONS: [&str; 5] = ["df", "default_operator", "analyzer", "analyze_wildcard", "lenient"];

/// The request body with the URL's query in it, and the parameters left for the endpoint.
pub(crate) struct Rewritten<'a> {
    pub body: Cow<'a, [u8]>,
    pub params: Cow<'a, Map<String, Value>>,
}

fn query_string(params: &Map<String, Value>) -> Result<Value> {
    let text = |k: &str| params.get(k).map(param_text);
    let mut qs = Map::new();
    qs.insert("query".into(), json!(text("q").unwrap_or_default()));
    if let Some(df) = text("df") {
        qs.insert("default_field".into(), json!(df));
    }
    if let Some(op) = text("default_operator") {
        qs.insert("default_operator".into(), json!(op));
    }
    for flag in ["analyze_wildcard", "lenient"] {
        if let Some(v) = text(flag) {
            let b = match v.as_str() {
                "true" | "" => true,
                "false" => false,
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "Failed to parse value [{other}] as only [true] or [false] are allowed."
                    )))
                }
            };
            qs.insert(flag.into(), json!(b));
        }
    }
    // Our only analyzer is ES's `standard`, the default of every text field here.
    if let Some(analyzer) = text("analyzer").filter(|a| a != "standard") {
        return Err(EngineError::IllegalArgument(format!("analyzer [{analyzer}] has not been configured in mappings")));
    }
    Ok(json!({ "query_string": Value::Object(qs) }))
}

/// `_search`: a `q` replaces the body's `query`.
pub(crate) fn for_search<'a>(body: &'a [u8], params: &'a Map<String, Value>) -> Result<Rewritten<'a>> {
    rewrite(body, params, false)
}

/// `_count`: a `q` is the query; with a body query as well it is refused.
pub(crate) fn for_count<'a>(body: &'a [u8], params: &'a Map<String, Value>) -> Result<Rewritten<'a>> {
    rewrite(body, params, true)
}

fn rewrite<'a>(body: &'a [u8], params: &'a Map<String, Value>, count: bool) -> Result<Rewritten<'a>> {
    if !params.contains_key("q") {
        return Ok(Rewritten { body: Cow::Borrowed(body), params: Cow::Borrowed(params) });
    }
    let mut parsed = if body.iter().all(u8::is_ascii_whitespace) {
        Map::new()
    } else {
        match serde_json::from_slice::<Value>(body).map_err(|e| json_syntax_error(&e))? {
            Value::Object(map) => map,
            _ => return Err(EngineError::Parsing("request body must be an object".into())),
        }
    };
    if count && parsed.contains_key("query") {
        return Ok(Rewritten { body: Cow::Borrowed(body), params: Cow::Borrowed(params) });
    }
    parsed.insert("query".into(), query_string(params)?);
    let rest: Map<String, Value> = params
        .iter()
        .filter(|(k, _)| *k != "q" && !COMPANIONS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let body = serde_json::to_vec(&Value::Object(parsed)).map_err(|e| EngineError::Internal(e.to_string()))?;
    Ok(Rewritten { body: Cow::Owned(body), params: Cow::Owned(rest) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
        pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
    }

    #[test]
    fn q_becomes_a_query_string_query() {
        let p = params(&[("q", "quick fox"), ("df", "title"), ("default_operator", "AND"), ("size", "5")]);
        let r = for_search(br#"{"query":{"match_all":{}}}"#, &p).unwrap();
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(
            body["query"]["query_string"],
            json!({"query": "quick fox", "default_field": "title", "default_operator": "AND"})
        );
        assert_eq!(r.params.keys().collect::<Vec<_>>(), vec!["size"]);
    }

    #[test]
    fn count_keeps_q_when_the_body_has_a_query_and_companions_need_q() {
        let p = params(&[("q", "x")]);
        assert!(for_count(br#"{"query":{"match_all":{}}}"#, &p).unwrap().params.contains_key("q"));
        let p = params(&[("df", "title")]);
        assert!(for_search(b"", &p).unwrap().params.contains_key("df"));
        assert!(for_search(b"", &params(&[("q", "x"), ("analyzer", "whitespace")])).is_err());
    }
}
