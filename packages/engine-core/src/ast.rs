//! Our own query AST: what the ES DSL parsers produce and the tantivy lowering consumes.
//! Values stay JSON until lowering, where the field's mapping decides how to read them.

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub enum QueryAst {
    MatchAll,
    MatchNone,
    Term {
        field: String,
        value: Value,
    },
    Terms {
        field: String,
        values: Vec<Value>,
    },
    Range(RangeAst),
    Match {
        field: String,
        text: String,
        operator: Operator,
        minimum_should_match: Option<MinimumShouldMatch>,
    },
    Bool(BoolAst),
    Boost {
        query: Box<QueryAst>,
        boost: f32,
    },
    MatchPhrase {
        field: String,
        text: String,
        slop: u32,
    },
    MatchPhrasePrefix {
        field: String,
        text: String,
        max_expansions: u32,
    },
    /// Term-level multi-term queries: the value is not analyzed.
    Prefix {
        field: String,
        value: String,
    },
    Wildcard {
        field: String,
        pattern: String,
    },
    Regexp {
        field: String,
        pattern: String,
    },
    Fuzzy {
        field: String,
        value: String,
        max_edits: u8,
        prefix_length: usize,
        transpositions: bool,
    },
    Exists {
        field: String,
    },
    Ids {
        values: Vec<String>,
    },
    /// Every match scores exactly `boost`.
    ConstantScore {
        filter: Box<QueryAst>,
        boost: f32,
    },
    DisMax {
        queries: Vec<QueryAst>,
        tie_breaker: f32,
    },
    /// The k nearest neighbours of a vector (OpenSearch `knn`).
    Knn(crate::knn::KnnAst),
    /// `positive`'s matches and scores, times `negative_boost` where `negative` also matches.
    Boosting {
        positive: Box<QueryAst>,
        negative: Box<QueryAst>,
        negative_boost: f32,
    },
}

impl QueryAst {
    /// Wraps in a boost unless the boost is the neutral 1.0.
    pub fn boosted(self, boost: Option<f32>) -> QueryAst {
        match boost {
            Some(b) if b != 1.0 => QueryAst::Boost { query: Box::new(self), boost: b },
            _ => self,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RangeAst {
    pub field: String,
    pub gt: Option<Value>,
    pub gte: Option<Value>,
    pub lt: Option<Value>,
    pub lte: Option<Value>,
    pub format: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoolAst {
    pub must: Vec<QueryAst>,
    pub filter: Vec<QueryAst>,
    pub should: Vec<QueryAst>,
    pub must_not: Vec<QueryAst>,
    pub minimum_should_match: Option<MinimumShouldMatch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Operator {
    #[default]
    Or,
    And,
}

/// ES `minimum_should_match`: an integer or a percentage, either possibly negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinimumShouldMatch {
    Count(i64),
    Percent(i64),
}

impl MinimumShouldMatch {
    pub fn parse(value: &Value) -> Result<MinimumShouldMatch, String> {
        match value {
            Value::Number(n) => {
                n.as_i64().map(MinimumShouldMatch::Count).ok_or_else(|| format!("invalid minimum_should_match [{n}]"))
            }
            Value::String(s) => {
                let s = s.trim();
                if let Some(p) = s.strip_suffix('%') {
                    p.parse()
                        .map(MinimumShouldMatch::Percent)
                        .map_err(|_| format!("invalid minimum_should_match [{s}]"))
                } else {
                    s.parse().map(MinimumShouldMatch::Count).map_err(|_| format!("invalid minimum_should_match [{s}]"))
                }
            }
            other => Err(format!("invalid minimum_should_match [{other}]")),
        }
    }

    /// How many of `optional` clauses must match, as Lucene's `Queries.calculateMinShouldMatch`.
    pub fn resolve(self, optional: usize) -> usize {
        let n = optional as i64;
        let result = match self {
            MinimumShouldMatch::Count(c) if c < 0 => n + c,
            MinimumShouldMatch::Count(c) => c,
            MinimumShouldMatch::Percent(p) if p < 0 => n + (n * p) / 100,
            MinimumShouldMatch::Percent(p) => (n * p) / 100,
        };
        result.clamp(0, n) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn minimum_should_match_resolves_like_lucene() {
        let parse = |v| MinimumShouldMatch::parse(&v).unwrap();
        assert_eq!(parse(json!(2)).resolve(3), 2);
        assert_eq!(parse(json!("-1")).resolve(3), 2);
        assert_eq!(parse(json!("75%")).resolve(3), 2);
        assert_eq!(parse(json!("-25%")).resolve(4), 3);
        assert_eq!(parse(json!(5)).resolve(3), 3);
        assert!(MinimumShouldMatch::parse(&json!("x")).is_err());
    }
}
