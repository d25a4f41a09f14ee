//! ES `minimum_should_match`: an integer or a percentage (either may be negative: "all but"),
//! or conditions such as `2<75%` or `3<-1 5<50%` ("up to 2 clauses all are required, above
//! that 75%"), resolved against the number of optional clauses as Lucene's
//! `Queries.calculateMinShouldMatch` does.

use std::sync::Arc;

use serde_json::Value;

use crate::error::{EngineError, Result, ShardCause};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MinimumShouldMatch {
    Count(i64),
    Percent(i64),
    /// A spec with `<` conditions, kept as written: ES checks its parts only when they are
    /// reached (a malformed tail never read is no error), so this is resolved the same way.
    Conditional(Arc<str>),
}

impl MinimumShouldMatch {
    pub fn parse(value: &Value) -> std::result::Result<MinimumShouldMatch, String> {
        let invalid = |v: &dyn std::fmt::Display| format!("invalid minimum_should_match [{v}]");
        match value {
            Value::Number(n) => n.as_i64().map(MinimumShouldMatch::Count).ok_or_else(|| invalid(n)),
            Value::String(s) if s.contains('<') => Ok(MinimumShouldMatch::Conditional(Arc::from(s.trim()))),
            Value::String(s) => simple(s.trim()).ok_or_else(|| invalid(&s.trim())),
            other => Err(invalid(other)),
        }
    }

    /// How many of `optional` clauses must match: never more than there are (ES's documented
    /// clamp), never fewer than none. A malformed condition that is reached fails as ES's
    /// `NumberFormatException` does, on the shard.
    pub fn resolve(&self, optional: usize) -> Result<usize> {
        let n = optional as i64;
        let result = match self {
            MinimumShouldMatch::Count(c) => count(n, *c),
            MinimumShouldMatch::Percent(p) => percent(n, *p),
            MinimumShouldMatch::Conditional(spec) => conditional(n, spec)?,
        };
        Ok(result.clamp(0, n) as usize)
    }
}

fn simple(spec: &str) -> Option<MinimumShouldMatch> {
    match spec.strip_suffix('%') {
        Some(p) => p.parse().ok().map(MinimumShouldMatch::Percent),
        None => spec.parse().ok().map(MinimumShouldMatch::Count),
    }
}

fn count(n: i64, c: i64) -> i64 {
    if c < 0 {
        n + c
    } else {
        c
    }
}

/// Lucene multiplies in single precision, `(n * p) * (1 / 100f)`, then truncates.
fn percent(n: i64, p: i64) -> i64 {
    let calc = ((n * p) as f32) * (1.0f32 / 100.0);
    if calc < 0.0 {
        n + calc as i64
    } else {
        calc as i64
    }
}

/// `upper<spec ...`: the first condition whose bound the clause count does not exceed stops
/// the walk with the value so far (all clauses to begin with); each passed condition's spec
/// becomes the value.
fn conditional(n: i64, spec: &str) -> Result<i64> {
    let normalised = normalise_less_than(spec);
    let mut result = n;
    for condition in normalised.split_whitespace() {
        // Java's `split` drops trailing empty parts: `2<<3` has parts `2`, ``, `3`.
        let mut parts: Vec<&str> = condition.split('<').collect();
        while parts.last() == Some(&"") {
            parts.pop();
        }
        let upper: i64 = parse_int(parts.first().copied().unwrap_or_default())?;
        if n <= upper {
            return Ok(result);
        }
        let tail = parts.get(1).copied().ok_or_else(|| bad(condition))?;
        result = match simple(tail) {
            Some(MinimumShouldMatch::Count(c)) => count(n, c).max(0),
            Some(MinimumShouldMatch::Percent(p)) => percent(n, p).max(0),
            _ => return Err(bad(tail)),
        };
    }
    Ok(result)
}

/// `2 < 75%` reads as `2<75%`.
fn normalise_less_than(spec: &str) -> String {
    let mut out = String::with_capacity(spec.len());
    for (i, piece) in spec.split('<').enumerate() {
        if i == 0 {
            out.push_str(piece);
        } else {
            out.truncate(out.trim_end().len());
            out.push('<');
            out.push_str(piece.trim_start());
        }
    }
    out
}

fn parse_int(text: &str) -> Result<i64> {
    text.parse::<i32>().map(i64::from).map_err(|_| bad(text))
}

fn bad(text: &str) -> EngineError {
    EngineError::shard(ShardCause::QueryShard, format!("failed to create query: For input string: \"{text}\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(spec: Value, n: usize) -> usize {
        MinimumShouldMatch::parse(&spec).unwrap().resolve(n).unwrap()
    }

    #[test]
    fn simple_forms_resolve_like_lucene() {
        assert_eq!(resolve(json!(2), 3), 2);
        assert_eq!(resolve(json!("-1"), 3), 2);
        assert_eq!(resolve(json!("75%"), 3), 2);
        assert_eq!(resolve(json!("-25%"), 4), 3);
        assert_eq!(resolve(json!(5), 3), 3);
        assert!(MinimumShouldMatch::parse(&json!("x")).is_err());
    }

    #[test]
    fn conditions_apply_above_their_bound() {
        // Up to 2 clauses all are required; above that 75%.
        assert_eq!(resolve(json!("2<75%"), 2), 2);
        assert_eq!(resolve(json!("2<75%"), 4), 3);
        // Up to 3 all; 4-5 all but one; above 5 half.
        assert_eq!(resolve(json!("3<-1 5<50%"), 3), 3);
        assert_eq!(resolve(json!("3<-1 5<50%"), 5), 4);
        assert_eq!(resolve(json!("3<-1 5<50%"), 6), 3);
        assert_eq!(resolve(json!(" 2 < -1 "), 3), 2);
    }

    #[test]
    fn malformed_conditions_fail_only_when_reached() {
        assert_eq!(resolve(json!("2<<3"), 2), 2);
        let spec = MinimumShouldMatch::parse(&json!("2<<3")).unwrap();
        let err = spec.resolve(3).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400));
        assert!(MinimumShouldMatch::parse(&json!("x<2")).unwrap().resolve(1).is_err());
    }
}
