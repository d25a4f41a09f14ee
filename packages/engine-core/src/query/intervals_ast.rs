//! The `intervals` query's rules as our AST holds them (parsed by `dsl/intervals.rs`, lowered by
//! `lower/intervals.rs`): ES's `IntervalsSourceProvider`s, each naming what it matches in the
//! positions of one field.

use super::fuzziness::Fuzziness;

#[derive(Debug, Clone, PartialEq)]
pub enum IntervalsRule {
    /// Analyzed text: one term, or its terms combined as `all_of` combines rules.
    Match {
        query: String,
        max_gaps: Option<u32>,
        ordered: bool,
        /// Positions read from this field instead of the query's (`use_field`).
        use_field: Option<String>,
        filter: Option<Box<IntervalsFilter>>,
    },
    /// Any of the rules (a disjunction of their intervals).
    AnyOf { rules: Vec<IntervalsRule>, filter: Option<Box<IntervalsFilter>> },
    /// All of the rules, within `max_gaps` positions of each other, in order if `ordered`.
    AllOf { rules: Vec<IntervalsRule>, max_gaps: Option<u32>, ordered: bool, filter: Option<Box<IntervalsFilter>> },
    /// Every term of the field (or `use_field`) that the expansion accepts.
    Expanded { expansion: IntervalsExpansion, use_field: Option<String> },
}

/// The multi-term rules: the index's terms they stand for, found segment by segment.
#[derive(Debug, Clone, PartialEq)]
pub enum IntervalsExpansion {
    Prefix(String),
    /// A wildcard pattern (`*`, `?`).
    Wildcard(String),
    Fuzzy {
        term: String,
        fuzziness: Fuzziness,
        prefix_length: usize,
        transpositions: bool,
    },
}

/// How a filter relates the rule's intervals to its own: `Containing` keeps the rule's intervals
/// that contain one of the filter's, and so on (ES's filter names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalsRelation {
    Containing,
    ContainedBy,
    NotContaining,
    NotContainedBy,
    Overlapping,
    NotOverlapping,
    Before,
    After,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntervalsFilter {
    pub relation: IntervalsRelation,
    pub rule: IntervalsRule,
}
