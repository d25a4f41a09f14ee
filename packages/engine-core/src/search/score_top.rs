//! Relevance-ordered top hits with the total, in whichever of two plans costs less.
//!
//! Tantivy prunes by block-max scores (WAND) only for a term query or a pure disjunction of
//! term queries; for every other query its top-k collector scores each match anyway. So:
//! - prunable queries: count first (O(1) per segment for a term, a bitset union otherwise,
//!   no scoring), then the pruned top-k;
//! - everything else (conjunctions, phrases, exclusions, ...): one pass that scores and counts
//!   each match together, as Lucene does with exact totals, instead of walking the matches
//!   twice.

use tantivy::collector::{Count, TopDocs};
use tantivy::query::Query;
use tantivy::Searcher;

use super::top_hits::{Hit, TopHitsFruit};
use super::TrackTotalHits;
use crate::error::Result;
use crate::query::ast::{Operator, QueryAst};

/// True when the lowered query is a `TermQuery` or a should-only `BooleanQuery` of them
/// (see `lower::lower_match`), the two shapes tantivy's WAND serves.
fn wand_prunes(query: &QueryAst) -> bool {
    matches!(
        query,
        QueryAst::Term { .. } | QueryAst::Match { operator: Operator::Or, minimum_should_match: None, fuzzy: None, .. }
    )
}

pub(super) fn top_by_score(
    searcher: &Searcher,
    ast: &QueryAst,
    query: &dyn Query,
    limit: usize,
    track: TrackTotalHits,
) -> Result<TopHitsFruit> {
    let counting = track != TrackTotalHits::Off;
    if limit == 0 {
        let total = if counting { query.count(searcher)? as u64 } else { 0 };
        return Ok(TopHitsFruit { hits: Vec::new(), total, max_score: None });
    }
    let top_docs = TopDocs::with_limit(limit).order_by_score();
    let (top, total) = if !counting {
        (searcher.search(query, &top_docs)?, 0)
    } else if wand_prunes(ast) {
        let total = query.count(searcher)? as u64;
        (searcher.search(query, &top_docs)?, total)
    } else {
        let (top, total) = searcher.search(query, &(top_docs, Count))?;
        (top, total as u64)
    };
    let max_score = top.first().map(|(score, _)| *score);
    let hits = top.into_iter().map(|(score, address)| Hit { key: Vec::new(), address, score }).collect();
    Ok(TopHitsFruit { hits, total, max_score })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_terms_and_or_matches_take_the_pruned_plan() {
        let term = QueryAst::Term { field: "k".into(), value: json!("a") };
        let matching = |operator| QueryAst::Match {
            field: "t".into(),
            text: "a b".into(),
            operator,
            minimum_should_match: None,
            fuzzy: None,
            zero_terms_all: false,
        };
        assert!(wand_prunes(&term));
        assert!(wand_prunes(&matching(Operator::Or)));
        assert!(!wand_prunes(&matching(Operator::And)));
        assert!(!wand_prunes(&QueryAst::Boost { query: Box::new(term), boost: 2.0 }));
    }
}
