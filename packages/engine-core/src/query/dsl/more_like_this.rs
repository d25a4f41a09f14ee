//! `more_like_this` with `like` texts (document items and `unlike` are refused): the options
//! of ES's MoreLikeThisQueryBuilder with their defaults. Term selection needs index statistics,
//! so it happens in `lower/more_like_this.rs` when the query meets a searcher.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use crate::error::{EngineError, Result};
use crate::query::ast::{MinimumShouldMatch, MltAst, QueryAst};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    fields: Option<Vec<String>>,
    like: Option<Value>,
    unlike: Option<Value>,
    max_query_terms: Option<i64>,
    min_term_freq: Option<i64>,
    min_doc_freq: Option<i64>,
    max_doc_freq: Option<i64>,
    min_word_length: Option<i64>,
    max_word_length: Option<i64>,
    stop_words: Option<Vec<String>>,
    analyzer: Option<String>,
    minimum_should_match: Option<Value>,
    boost_terms: Option<f32>,
    include: Option<bool>,
    fail_on_unsupported_field: Option<bool>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

/// The refusal of document items: the engine reads them and runs the search again
/// (`engine/mlt_items.rs`); elsewhere it reaches the client as is.
pub const DOCUMENT_ITEMS: &str = "[more_like_this] document items in [like] are not supported, only texts";

fn perr(msg: &str) -> EngineError {
    EngineError::Parsing(format!("[more_like_this] {msg}"))
}

fn like_texts(like: &Value) -> Result<Vec<String>> {
    let items: Vec<&Value> = match like {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    items
        .into_iter()
        .map(|item| match item {
            Value::String(s) => Ok(s.clone()),
            Value::Object(_) => Err(EngineError::Parsing(DOCUMENT_ITEMS.into())),
            other => Err(perr(&format!("unexpected [like] item [{other}]"))),
        })
        .collect()
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: Options = from_value("more_like_this", body)?;
    let like = opts.like.as_ref().ok_or_else(|| perr("requires 'like' to be specified"))?;
    let like = like_texts(like)?;
    if like.is_empty() {
        return Err(perr("requires 'like' to be specified"));
    }
    if opts.unlike.is_some() {
        return Err(perr("[unlike] is not supported"));
    }
    if opts.include == Some(true) {
        // `include` only matters for document items, which are not supported.
        return Err(perr("[include] is only meaningful with document items, which are not supported"));
    }
    if let Some(analyzer) = opts.analyzer.as_deref().filter(|a| *a != "standard") {
        return Err(perr(&format!("analyzer [{analyzer}] is not supported")));
    }
    if opts.fields.as_ref().is_some_and(|f| f.is_empty()) {
        return Err(perr("requires 'fields' to be non-empty"));
    }
    let max_query_terms = opts.max_query_terms.unwrap_or(25);
    if max_query_terms <= 0 {
        return Err(EngineError::IllegalArgument("requires 'maxQueryTerms' to be greater than 0".into()));
    }
    let non_negative = |v: Option<i64>, default: i64| v.unwrap_or(default).max(0) as u64;
    let minimum_should_match = match &opts.minimum_should_match {
        None => MinimumShouldMatch::Percent(30),
        Some(v) => MinimumShouldMatch::parse(v).map_err(|e| perr(&e))?,
    };
    Ok(QueryAst::MoreLikeThis(Box::new(MltAst {
        fields: opts.fields,
        like,
        min_term_freq: non_negative(opts.min_term_freq, 2) as u32,
        min_doc_freq: non_negative(opts.min_doc_freq, 5),
        max_doc_freq: opts.max_doc_freq.filter(|m| *m >= 0).map_or(u64::MAX, |m| m as u64),
        max_query_terms: max_query_terms as usize,
        min_word_length: non_negative(opts.min_word_length, 0) as usize,
        max_word_length: non_negative(opts.max_word_length, 0) as usize,
        stop_words: opts.stop_words.unwrap_or_default(),
        minimum_should_match,
        boost_terms: opts.boost_terms.filter(|b| *b > 0.0),
        fail_on_unsupported_field: opts.fail_on_unsupported_field.unwrap_or(true),
    }))
    .boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_and_refusals() {
        let QueryAst::MoreLikeThis(m) = parse(&json!({"fields": ["t"], "like": "quick fox"})).unwrap() else {
            panic!()
        };
        assert_eq!((m.min_term_freq, m.min_doc_freq, m.max_query_terms), (2, 5, 25));
        assert_eq!(m.minimum_should_match, MinimumShouldMatch::Percent(30));
        assert!(parse(&json!({"fields": ["t"]})).is_err());
        assert!(parse(&json!({"like": [{"_id": "1"}]})).is_err());
        assert!(parse(&json!({"like": "x", "unlike": "y"})).is_err());
        assert!(parse(&json!({"like": "x", "max_query_terms": 0})).is_err());
    }
}
