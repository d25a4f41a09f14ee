//! Request-size limits, with Elasticsearch 8's defaults and error messages, so a hostile or
//! careless request gets a 400 before it can eat the CPU, the heap or the stack. The others
//! live next to what they guard: `index.max_result_window` in `settings.rs`, `search.max_buckets`
//! in `aggs/bucket_budget.rs`.

use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::QueryAst;

/// `indices.query.bool.max_nested_depth` (ES 8: 30). Checked while parsing, so recursion
/// never goes deeper than this however deep the JSON is.
pub const MAX_NESTED_DEPTH: usize = 30;

/// `indices.query.bool.max_clause_count`, counted as ES 8 does: leaf queries over the whole
/// tree, so nesting bools does not get around it. ES 8 sizes it from the heap and the search
/// thread pool, never below 1024; OpenSearch 2.19 fixes it at 1024. 1024 is a value ES 8 can
/// have and the one the baseline has, so clients see the same limit on both.
pub const MAX_CLAUSE_COUNT: usize = 1024;

/// `index.max_terms_count`: values in one `terms` query.
pub const MAX_TERMS_COUNT: usize = 65_536;

/// `index.max_regex_length`: characters in one `regexp` pattern.
pub const MAX_REGEX_LENGTH: usize = 1000;

/// ES's exact message (the limit itself is not in it).
pub fn nested_depth_error() -> EngineError {
    EngineError::IllegalArgument(
        "The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]".into(),
    )
}

/// Lucene's check when a query built from analyzed text (a `match` of many words, a
/// `query_string`'s terms) gets more clauses in one bool than the limit allows.
pub fn check_expansion(clauses: usize) -> Result<()> {
    if clauses > MAX_CLAUSE_COUNT {
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!("failed to create query: maxClauseCount is set to {MAX_CLAUSE_COUNT}"),
        ));
    }
    Ok(())
}

/// Counts leaf queries (a `terms` query is one clause however many values it has, as in ES).
fn leaf_count(ast: &QueryAst) -> usize {
    match ast {
        QueryAst::Bool(b) => [&b.must, &b.filter, &b.should, &b.must_not]
            .iter()
            .flat_map(|clauses| clauses.iter())
            .map(leaf_count)
            .fold(0, usize::saturating_add),
        QueryAst::DisMax { queries, .. } => queries.iter().map(leaf_count).fold(0, usize::saturating_add),
        QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => leaf_count(query),
        QueryAst::ConstantScore { filter, .. } => leaf_count(filter),
        QueryAst::Nested(n) => leaf_count(&n.query),
        _ => 1,
    }
}

/// Lucene's two checks: one bool with too many direct clauses (`too_many_clauses`), and the
/// whole tree with too many leaves (`too_many_nested_clauses`). Both fail on the shard, so
/// ES reports them as a `query_shard_exception` root cause of the search phase failure.
pub fn check_clause_count(ast: &QueryAst) -> Result<()> {
    fn widest_bool(ast: &QueryAst) -> usize {
        match ast {
            QueryAst::Bool(b) => {
                let own = b.must.len() + b.filter.len() + b.should.len() + b.must_not.len();
                let children = [&b.must, &b.filter, &b.should, &b.must_not]
                    .iter()
                    .flat_map(|c| c.iter())
                    .map(widest_bool)
                    .max()
                    .unwrap_or(0);
                own.max(children)
            }
            QueryAst::DisMax { queries, .. } => queries.iter().map(widest_bool).max().unwrap_or(0),
            QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => widest_bool(query),
            QueryAst::ConstantScore { filter, .. } => widest_bool(filter),
            QueryAst::Nested(n) => widest_bool(&n.query),
            _ => 0,
        }
    }
    if widest_bool(ast) > MAX_CLAUSE_COUNT {
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!("failed to create query: maxClauseCount is set to {MAX_CLAUSE_COUNT}"),
        ));
    }
    if leaf_count(ast) > MAX_CLAUSE_COUNT {
        return Err(EngineError::shard(ShardCause::QueryShard, format!(
            "failed to create query: Query contains too many nested clauses; maxClauseCount is set to {MAX_CLAUSE_COUNT}"
        )));
    }
    Ok(())
}

/// `count` values of one `terms` query against the index's `max_terms_count` (`limit`).
pub fn check_terms_count(count: usize, limit: usize) -> Result<()> {
    if count > limit {
        return Err(EngineError::shard(ShardCause::QueryShard, format!(
            "failed to create query: The number of terms [{count}] used in the Terms Query request has exceeded the allowed maximum of [{limit}]. This maximum can be set by changing the [index.max_terms_count] index level setting."
        )));
    }
    Ok(())
}

/// A `regexp` pattern against the index's `max_regex_length` (`limit`).
pub fn check_regex_length(pattern: &str, limit: usize) -> Result<()> {
    let n = pattern.chars().count();
    if n > limit {
        return Err(EngineError::shard(ShardCause::QueryShard, format!(
            "failed to create query: The length of regex [{n}] used in the Regexp Query request has exceeded the allowed maximum of [{limit}]. This maximum can be set by changing the [index.max_regex_length] index level setting."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::ast::BoolAst;

    fn term() -> QueryAst {
        QueryAst::Term { field: "f".into(), value: serde_json::json!("x") }
    }

    #[test]
    fn nested_bools_count_their_leaves() {
        let inner = QueryAst::Bool(BoolAst { should: vec![term(); 600], ..Default::default() });
        let outer = QueryAst::Bool(BoolAst { must: vec![inner.clone(), inner], ..Default::default() });
        assert_eq!(leaf_count(&outer), 1200);
        let err = check_clause_count(&outer).unwrap_err();
        assert!(err.to_string().contains("too many nested clauses"), "{err}");
        let flat = QueryAst::Bool(BoolAst { should: vec![term(); 1025], ..Default::default() });
        assert!(check_clause_count(&flat).unwrap_err().to_string().ends_with("maxClauseCount is set to 1024"));
        let ok = QueryAst::Bool(BoolAst { should: vec![term(); 1024], ..Default::default() });
        assert!(check_clause_count(&ok).is_ok());
        assert!(check_expansion(1024).is_ok());
        assert!(check_expansion(1025).unwrap_err().to_string().ends_with("maxClauseCount is set to 1024"));
    }
}
