//! Relevance-ordered top hits with the total, in whichever of two plans costs less.
//!
//! Tantivy prunes by block-max scores (WAND) only for a term query or a pure disjunction of
//! term queries; for every other query its top-k collector scores each match anyway. So:
//! - prunable queries: count first (O(1) per segment for a term, a bitset union otherwise,
//!   no scoring), then the pruned top-k;
//! - everything else (conjunctions, phrases, exclusions, ...): one pass that scores and counts
//!   each match together, as Lucene does with exact totals, instead of walking the matches
//!   twice.
//! - fuzzy queries: one pass too, but the union of expansions drains its windows straight
//!   into the top-k (`query/tantivy/blended_terms.rs`) instead of a callback per match.

use tantivy::collector::sort_key::NaturalComparator;
use tantivy::collector::{Count, TopDocs, TopNComputer};
use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, DocSet, Score, Searcher, TERMINATED};

use super::TrackTotalHits;
use crate::error::Result;
use crate::hits::top_hits::{Hit, TopHitsFruit};
use crate::query::ast::{Operator, QueryAst};
use crate::query::tantivy::blended_terms::BlendedTermsScorer;

/// A fuzzy query, or a `match` whose terms expand fuzzily: scored by expansion unions.
fn expands_fuzzily(query: &QueryAst) -> bool {
    matches!(query, QueryAst::Fuzzy { .. } | QueryAst::Match { fuzzy: Some(_), .. })
}

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
    } else if expands_fuzzily(ast) {
        drain_top(searcher, query, limit)?
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

/// The top `limit` by score (ties in index order, as `TopDocs`) and the live total, in one
/// pass; a segment whose scorer is an expansion union drains it without a call per match.
fn drain_top(searcher: &Searcher, query: &dyn Query, limit: usize) -> Result<(Vec<(Score, DocAddress)>, u64)> {
    let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let mut top = TopNComputer::new_with_comparator(limit, NaturalComparator);
    let mut total = 0u64;
    for (ord, reader) in searcher.segment_readers().iter().enumerate() {
        let ord = ord as u32;
        let alive = reader.alive_bitset();
        let mut scorer = weight.scorer(reader, 1.0)?;
        if let Some(union) = scorer.downcast_mut::<BlendedTermsScorer>() {
            total += union.drain_top(alive, ord, &mut top);
            continue;
        }
        let mut doc = scorer.doc();
        while doc != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(doc)) {
                total += 1;
                top.push(scorer.score(), DocAddress::new(ord, doc));
            }
            doc = scorer.advance();
        }
    }
    let hits = top.into_sorted_vec().into_iter().map(|d| (d.sort_key, d.doc)).collect();
    Ok((hits, total))
}

#[cfg(test)]
pub(crate) fn drain_top_for_test(
    searcher: &Searcher,
    query: &dyn Query,
    limit: usize,
) -> (Vec<(Score, DocAddress)>, u64) {
    drain_top(searcher, query, limit).unwrap()
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
