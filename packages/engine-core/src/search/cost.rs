//! What a parsed search is expected to cost, for the service's choice between running it on
//! the event loop and sending it to the thread pool (`engine-napi/ts/search-dispatch.ts`).
//!
//! A search is cheap when its work is a few posting-list or column lookups per match; it may
//! be heavy when the work grows with the number of matching documents (aggregations, sorts
//! that read a column per match, highlighting, kNN scans) or with the term dictionary
//! (multi-term, phrase and free-text queries, `function_score`, `more_like_this`).

use super::SearchRequest;
use crate::query::ast::QueryAst;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    Cheap,
    MayBeHeavy,
}

impl SearchRequest {
    pub fn cost(&self) -> Cost {
        let heavy = !self.aggs.is_empty()
            || self.sort.is_some()
            || self.highlight.is_some()
            || self.opts.changes_collection()
            || self.opts.explain
            || may_be_heavy(&self.query);
        if heavy {
            Cost::MayBeHeavy
        } else {
            Cost::Cheap
        }
    }
}

fn may_be_heavy(query: &QueryAst) -> bool {
    match query {
        QueryAst::MatchPhrase { .. }
        | QueryAst::MatchPhrasePrefix { .. }
        | QueryAst::Prefix { .. }
        | QueryAst::Wildcard { .. }
        | QueryAst::Regexp { .. }
        | QueryAst::Fuzzy { .. }
        | QueryAst::Knn(_)
        | QueryAst::FunctionScore(_)
        | QueryAst::MatchBoolPrefix { .. }
        | QueryAst::QueryString(_)
        | QueryAst::MoreLikeThis(_)
        | QueryAst::TermsSet(_)
        | QueryAst::Script(_)
        | QueryAst::Intervals { .. } => true,
        // Each fuzzy term expands over the term dictionary.
        QueryAst::Match { fuzzy, .. } if fuzzy.is_some() => true,
        QueryAst::Named { query, .. } => may_be_heavy(query),
        QueryAst::Bool(b) => [&b.must, &b.filter, &b.should, &b.must_not].into_iter().flatten().any(may_be_heavy),
        QueryAst::Boost { query, .. } => may_be_heavy(query),
        QueryAst::ConstantScore { filter, .. } => may_be_heavy(filter),
        QueryAst::DisMax { queries, .. } => queries.iter().any(may_be_heavy),
        QueryAst::Boosting { positive, negative, .. } => may_be_heavy(positive) || may_be_heavy(negative),
        QueryAst::Pinned { organic, .. } => may_be_heavy(organic),
        QueryAst::Nested(nested) => may_be_heavy(&nested.query),
        QueryAst::MatchAll
        | QueryAst::MatchNone
        | QueryAst::Term { .. }
        | QueryAst::Terms { .. }
        | QueryAst::Range(_)
        | QueryAst::Match { .. }
        | QueryAst::Exists { .. }
        | QueryAst::Geo(_)
        | QueryAst::Ids { .. }
        | QueryAst::CombinedFields { .. }
        | QueryAst::CrossFields(_)
        | QueryAst::NestedObjects => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::dsl::parse_query;
    use serde_json::json;

    fn heavy(query: serde_json::Value) -> bool {
        may_be_heavy(&parse_query(&query).unwrap())
    }

    #[test]
    fn multi_term_phrase_and_free_text_queries_may_be_heavy_wherever_they_nest() {
        assert!(heavy(json!({"prefix": {"model": "gpt"}})));
        assert!(heavy(json!({"bool": {"must": [{"regexp": {"model": "g.*"}}]}})));
        assert!(heavy(json!({"simple_query_string": {"query": "a -b"}})));
        assert!(heavy(json!({"constant_score": {"filter": {"match_phrase_prefix": {"message": "time ou"}}}})));
    }

    #[test]
    fn term_match_and_bool_queries_are_cheap() {
        assert!(!heavy(json!({"term": {"model": "x"}})));
        assert!(!heavy(json!({"match": {"message": "timeout"}})));
        assert!(!heavy(json!({"bool": {"filter": [{"term": {"tenant": "t"}}, {"range": {"n": {"gte": 1}}}]}})));
        // A field named like a query type is a field.
        assert!(!heavy(json!({"term": {"prefix": "sort"}})));
    }
}
