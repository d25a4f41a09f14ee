//! Top-level queries match root documents only: ES excludes nested objects' hidden
//! documents from every search, count and delete-by-query. Indexes without nested mappings
//! keep their queries untouched (and every fast path that looks at the query's shape).

use crate::query::ast::{BoolAst, QueryAst};
use crate::store::mapping::Mapping;

/// `query` restricted to root documents when the mapping has nested objects.
pub fn root_only(query: QueryAst, mapping: &Mapping) -> QueryAst {
    if mapping.nested.is_none() {
        return query;
    }
    QueryAst::Bool(BoolAst {
        must: vec![query],
        filter: Vec::new(),
        should: Vec::new(),
        must_not: vec![QueryAst::NestedObjects],
        minimum_should_match: None,
    })
}

/// Every root document (the `global` aggregation's scope).
pub fn root_only_query(mapping: &Mapping) -> QueryAst {
    root_only(QueryAst::MatchAll, mapping)
}
