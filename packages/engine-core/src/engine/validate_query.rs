//! `GET|POST [/{index}]/_validate/query`: whether a query (the body's `query`, or `q` with its
//! companions) parses and can run against each index, as ES answers it: `valid`, the shard
//! counts and failures, and with `explain` the error or each index's query in Lucene's syntax.

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::store::versioning::param_text;

use super::resolve::ResolveOptions;
use super::{uri_query, Engine};

/// ES's text for an error in the request itself (`ParsingException[...]`).
fn detailed(e: &EngineError) -> String {
    let (kind, _) = e.es_type_and_status();
    let class: String = kind
        .trim_end_matches("_exception")
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
        })
        .collect();
    format!("{class}Exception[{e}]")
}

/// A query in Lucene's `toString` syntax, for the query shapes this engine can print.
fn lucene_text(query: &QueryAst) -> Option<String> {
    Some(match query {
        QueryAst::MatchAll => "*:*".to_string(),
        QueryAst::MatchNone => "MatchNoDocsQuery(\"\")".to_string(),
        QueryAst::Term { field, value } => format!("{field}:{}", param_text(value)),
        _ => return None,
    })
}

impl Engine {
    pub fn validate_query(&self, index: Option<&str>, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let mut explain = false;
        for key in ["explain", "rewrite", "all_shards"] {
            if let Some(v) = params.remove(key) {
                let on = match param_text(&v).as_str() {
                    "true" | "" => true,
                    "false" => false,
                    other => {
                        return Err(EngineError::IllegalArgument(format!(
                            "Failed to parse value [{other}] as only [true] or [false] are allowed."
                        )))
                    }
                };
                if key == "explain" {
                    explain = on;
                }
                // `rewrite` and `all_shards` change only how the explanation is printed (one
                // shard here): without an explanation they change nothing.
                if key != "explain" && on && !explain {
                    continue;
                }
            }
        }
        let rewritten = uri_query::for_search(body, &params)?;
        for key in rewritten.params.keys() {
            if !matches!(key.as_str(), "q" | "df" | "default_operator" | "analyzer" | "analyze_wildcard" | "lenient") {
                return Err(EngineError::IllegalArgument(format!(
                    "request [_validate/query] contains unrecognized parameter: [{key}]"
                )));
            }
        }
        let invalid = |e: EngineError| {
            let mut out = json!({ "valid": false });
            if explain {
                out["error"] = json!(detailed(&e));
            }
            Ok(out.to_string())
        };
        let query = match parse_body(&rewritten.body) {
            Ok(q) => q,
            Err(e) => return invalid(e),
        };
        let targets = self.resolve(index.filter(|i| !i.is_empty()).unwrap_or("_all"), options)?;
        let mut valid = true;
        let mut explanations = Vec::new();
        for target in &targets {
            let handle = self.get(&target.index)?;
            let checked = crate::search::lower_query(handle.as_ref(), &query);
            match checked {
                Ok(_) => {
                    if explain {
                        let text = lucene_text(&query).ok_or_else(|| {
                            EngineError::IllegalArgument(
                                "[explain] of this query shape is not supported by _validate/query".into(),
                            )
                        })?;
                        explanations.push(json!({"index": target.index, "valid": true, "explanation": text}));
                    }
                }
                Err(e) => {
                    valid = false;
                    if explain {
                        explanations.push(json!({"index": target.index, "valid": false, "error": detailed(&e)}));
                    }
                }
            }
        }
        let n = targets.len();
        let mut out = json!({
            "_shards": {"total": n, "successful": n, "failed": 0},
            "valid": valid,
        });
        if explain {
            out["explanations"] = Value::Array(explanations);
        }
        Ok(out.to_string())
    }
}

/// The body's `query` (match_all when absent); any other key is ES's parsing error.
fn parse_body(body: &[u8]) -> Result<QueryAst> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(QueryAst::MatchAll);
    }
    let value: Value = crate::strict_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))?;
    let obj = value.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
    let mut query = QueryAst::MatchAll;
    for (key, v) in obj {
        match key.as_str() {
            "query" => query = crate::query::dsl::parse_query(v)?,
            other => return Err(EngineError::Parsing(format!("request does not support [{other}]"))),
        }
    }
    Ok(query)
}
