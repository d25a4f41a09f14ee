//! Stop word lists ES names with `_lang_`. Only English's (Lucene's `ENGLISH_STOP_WORDS_SET`, the
//! `stop` filter's default) and `_none_` are built in; other languages are refused, not ignored.

use serde_json::Value;

use crate::error::{EngineError, Result};

pub const ENGLISH: [&str; 33] = [
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of",
    "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
];

/// A `stopwords` parameter: a list of words, a `_lang_` name, or a list holding `_lang_` names.
pub fn parse(value: Option<&Value>, default: &[&str]) -> Result<Vec<String>> {
    let Some(value) = value else { return Ok(default.iter().map(|w| w.to_string()).collect()) };
    let items: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => return Err(EngineError::IllegalArgument("[stopwords] must be a string or an array of strings".into())),
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            "_english_" => out.extend(ENGLISH.iter().map(|w| w.to_string())),
            "_none_" => {}
            lang if lang.starts_with('_') && lang.ends_with('_') && lang.len() > 2 => {
                return Err(EngineError::IllegalArgument(format!("stop words list [{lang}] is not supported")))
            }
            word => out.push(word.to_string()),
        }
    }
    Ok(out)
}
