//! `fuzziness` on full-text queries (`match`, `multi_match`) and the options that go with it:
//! `prefix_length`, `max_expansions` and `fuzzy_transpositions`.

use serde_json::Value;

use crate::error::{EngineError, Result};
use crate::query::ast::{Fuzziness, FuzzyExpansion};

/// ES's defaults (`FuzzyQuery.defaultMaxExpansions` is 50, transpositions on).
pub const DEFAULT_MAX_EXPANSIONS: usize = 50;

/// `0`, `1`, `2` (numbers or strings), `AUTO` or `AUTO:low,high`; anything else is refused
/// as ES refuses it.
pub fn parse_fuzziness(value: &Value) -> Result<Fuzziness> {
    let bad = || EngineError::IllegalArgument(format!("failed to parse [{}] as fuzziness", text(value)));
    let text = text(value);
    if let Some(rest) = text.strip_prefix("AUTO").or_else(|| text.strip_prefix("auto")) {
        if rest.is_empty() {
            return Ok(Fuzziness::Auto { low: 3, high: 6 });
        }
        let (low, high) = rest.strip_prefix(':').and_then(|r| r.split_once(',')).ok_or_else(bad)?;
        let low: usize = low.trim().parse().map_err(|_| bad())?;
        let high: usize = high.trim().parse().map_err(|_| bad())?;
        if low > high {
            return Err(bad());
        }
        return Ok(Fuzziness::Auto { low, high });
    }
    match value {
        Value::Number(n) => match n.as_u64() {
            Some(e @ 0..=2) => Ok(Fuzziness::Edits(e as u8)),
            _ => Err(bad()),
        },
        Value::String(s) => match s.trim().parse::<f64>() {
            Ok(f) if f.fract() == 0.0 && (0.0..=2.0).contains(&f) => Ok(Fuzziness::Edits(f as u8)),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The full-text query's fuzzy options, when `fuzziness` is given.
pub fn fuzzy_expansion(
    kind: &str,
    fuzziness: Option<&Value>,
    prefix_length: Option<i64>,
    max_expansions: Option<i64>,
    transpositions: Option<bool>,
) -> Result<Option<FuzzyExpansion>> {
    let Some(fuzziness) = fuzziness else { return Ok(None) };
    let prefix_length = match prefix_length {
        Some(n) if n < 0 => {
            return Err(EngineError::IllegalArgument(format!("[{kind}] requires prefix length to be non-negative.")))
        }
        n => n.unwrap_or(0) as usize,
    };
    let max_expansions = match max_expansions {
        Some(n) if n <= 0 => {
            return Err(EngineError::IllegalArgument(format!("[{kind}] requires max expansions to be positive.")))
        }
        n => n.map_or(DEFAULT_MAX_EXPANSIONS, |n| n as usize),
    };
    Ok(Some(FuzzyExpansion {
        fuzziness: parse_fuzziness(fuzziness)?,
        prefix_length,
        max_expansions,
        transpositions: transpositions.unwrap_or(true),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_es_forms_and_auto_follows_term_length() {
        assert_eq!(parse_fuzziness(&json!(1)).unwrap(), Fuzziness::Edits(1));
        assert_eq!(parse_fuzziness(&json!("2")).unwrap(), Fuzziness::Edits(2));
        let auto = parse_fuzziness(&json!("AUTO")).unwrap();
        assert_eq!([2, 3, 5, 6].map(|len| auto.edits(len)), [0, 1, 1, 2]);
        let custom = parse_fuzziness(&json!("AUTO:3,6")).unwrap();
        assert_eq!(custom, auto);
        let wide = parse_fuzziness(&json!("AUTO:1,2")).unwrap();
        assert_eq!([0, 1, 2].map(|len| wide.edits(len)), [0, 1, 2]);
        for bad in [json!("lots"), json!(3), json!("AUTO:6,3"), json!(true)] {
            assert_eq!(parse_fuzziness(&bad).unwrap_err().es_type_and_status().0, "illegal_argument_exception");
        }
    }
}
