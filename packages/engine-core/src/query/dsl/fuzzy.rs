//! `fuzzy`: terms within an edit distance of the (not analyzed) value. `fuzziness` is 0, 1,
//! 2 or `AUTO` (ES: 0 edits up to 2 chars, 1 up to 5, else 2); `prefix_length` chars must
//! match exactly; the `max_expansions` closest terms (default 50) are kept and scored as ES's
//! default rewrite for it scores them (`query/tantivy/fuzzy_expansion.rs`).

use serde::Deserialize;
use serde_json::Value;

use super::field_value::{field_options, scalar_text};
use super::fuzziness::DEFAULT_MAX_EXPANSIONS;
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FuzzyOptions {
    value: Value,
    fuzziness: Option<Value>,
    prefix_length: Option<usize>,
    transpositions: Option<bool>,
    max_expansions: Option<i64>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, opts) = field_options::<FuzzyOptions>("fuzzy", body)?;
    let value = scalar_text("fuzzy", &opts.value)?;
    let max_edits = edits(opts.fuzziness.as_ref(), value.chars().count())?;
    let max_expansions = match opts.max_expansions {
        Some(n) if n <= 0 => {
            return Err(EngineError::IllegalArgument("[fuzzy] requires max expansions to be positive.".into()))
        }
        n => n.map_or(DEFAULT_MAX_EXPANSIONS, |n| n as usize),
    };
    Ok(QueryAst::Fuzzy {
        field,
        value,
        max_edits,
        prefix_length: opts.prefix_length.unwrap_or(0),
        transpositions: opts.transpositions.unwrap_or(true),
        max_expansions,
    }
    .boosted(opts.boost))
}

fn edits(fuzziness: Option<&Value>, len: usize) -> Result<u8> {
    let auto = || {
        if len <= 2 {
            0
        } else if len <= 5 {
            1
        } else {
            2
        }
    };
    match fuzziness {
        None => Ok(auto()),
        Some(Value::String(s)) if s.eq_ignore_ascii_case("auto") => Ok(auto()),
        Some(v) => match v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok())) {
            Some(n @ 0..=2) => Ok(n as u8),
            _ => Err(EngineError::Parsing(format!("[fuzzy] fuzziness [{v}] must be 0, 1, 2 or AUTO"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn auto_fuzziness_follows_term_length() {
        let edits_of = |v: Value| match parse(&v).unwrap() {
            QueryAst::Fuzzy { max_edits, .. } => max_edits,
            other => panic!("{other:?}"),
        };
        assert_eq!(edits_of(json!({"title": "ab"})), 0);
        assert_eq!(edits_of(json!({"title": "quikc"})), 1);
        assert_eq!(edits_of(json!({"title": {"value": "serach", "fuzziness": "AUTO"}})), 2);
        assert_eq!(edits_of(json!({"title": {"value": "serach", "fuzziness": 1}})), 1);
        assert!(parse(&json!({"title": {"value": "x", "fuzziness": 3}})).is_err());
    }
}
