//! The tree `query_string` and `simple_query_string` parse into. Fields stay names (or
//! patterns) here: which fields `*` covers is only known at lowering, from the mapping.

/// A leaf's text query, before it is applied to one field.
#[derive(Debug, Clone, PartialEq)]
pub enum QsLeaf {
    /// Analysed text: several tokens combine with the default operator.
    Text(String),
    Phrase {
        text: String,
        slop: u32,
    },
    Prefix(String),
    Wildcard(String),
    Fuzzy {
        text: String,
        edits: u8,
    },
    /// Bounds as written; `None` is `*` (open).
    Range {
        lower: Option<String>,
        upper: Option<String>,
        include_lower: bool,
        include_upper: bool,
    },
    /// `_exists_:field`.
    Exists,
}

#[derive(Debug, Clone, PartialEq)]
pub enum QsNode {
    /// `field` None means the query's default fields.
    Leaf {
        field: Option<String>,
        leaf: QsLeaf,
    },
    Bool {
        must: Vec<QsNode>,
        should: Vec<QsNode>,
        must_not: Vec<QsNode>,
    },
    Boost(Box<QsNode>, f32),
    MatchAll,
}

impl QsNode {
    pub fn boosted(self, boost: Option<f32>) -> QsNode {
        match boost {
            Some(b) if b != 1.0 => QsNode::Boost(Box::new(self), b),
            _ => self,
        }
    }
}

/// How a parsed query string becomes a query: its tree plus the options applied to leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryStringAst {
    pub tree: QsNode,
    /// `(name or pattern, boost)`; `*` means every text and keyword field.
    pub default_fields: Vec<(String, f32)>,
    pub and_operator: bool,
    /// dis_max tie breaker across fields (simple_query_string sums: 1.0).
    pub tie_breaker: f32,
    pub analyze_wildcard: bool,
    pub lenient: bool,
    /// Applies to the top-level boolean's optional clauses, as in ES.
    pub minimum_should_match: Option<crate::ast::MinimumShouldMatch>,
}
