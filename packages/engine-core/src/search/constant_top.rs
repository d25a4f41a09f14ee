//! Relevance order for queries whose every match scores the same (match_all, range, terms,
//! ids, exists, constant_score, prefix / wildcard / regexp, which ES also scores as a
//! constant, and fuzzy, which this engine scores as a constant: see `query/lower/multi_term.rs`). Ties in score go to the lower document, so the top `k` are simply the first `k`
//! live matches in index order: no heap, and one pass over the matches that both fills the
//! page and counts them. The general path (tantivy's top-k collector, then a separate count)
//! walks every match twice and, for the multi-term queries, builds their doc set twice.

use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, DocSet, Searcher, TERMINATED};

use crate::error::Result;
use crate::hits::top_hits::{Hit, TopHitsFruit};
use crate::query::ast::QueryAst;

/// Whether the lowering of `ast` gives every match the same score (see `query/lower/`).
pub fn is_constant_score(ast: &QueryAst) -> bool {
    match ast {
        QueryAst::MatchAll
        | QueryAst::Terms { .. }
        | QueryAst::Range(_)
        | QueryAst::Exists { .. }
        | QueryAst::Ids { .. }
        | QueryAst::ConstantScore { .. }
        | QueryAst::Prefix { .. }
        | QueryAst::Wildcard { .. }
        | QueryAst::Regexp { .. } => true,
        QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => is_constant_score(query),
        _ => false,
    }
}

/// How the exact total is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountBy {
    /// No total wanted (`track_total_hits: false`).
    Nothing,
    /// match_all: the searcher's live document count, without visiting documents.
    LiveDocs,
    /// The weight's own per-segment count (a numeric range counts from its column in bulk:
    /// see column_range.rs), then a scorer only for the page.
    Weight,
    /// Go on walking the page's scorer to the end (one pass, and multi-term queries build
    /// their doc set once).
    Scorer,
}

impl CountBy {
    pub fn for_query(ast: &QueryAst, track: bool) -> CountBy {
        match ast {
            _ if !track => CountBy::Nothing,
            QueryAst::MatchAll => CountBy::LiveDocs,
            // A term's count is its document frequency (without deletions), a range's its
            // column's or dictionary's: no walk.
            QueryAst::Range(_) | QueryAst::Term { .. } => CountBy::Weight,
            QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => CountBy::for_query(query, track),
            QueryAst::ConstantScore { filter, .. } => CountBy::for_query(filter, track),
            _ => CountBy::Scorer,
        }
    }
}

/// The first `limit` live matches and the exact number of live matches, counted as `count_by`
/// says (0 for `CountBy::Nothing`).
pub fn first_matches(searcher: &Searcher, query: &dyn Query, limit: usize, count_by: CountBy) -> Result<TopHitsFruit> {
    let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let mut hits: Vec<Hit> = Vec::with_capacity(limit.min(1024));
    let mut total = 0u64;
    for (ord, reader) in searcher.segment_readers().iter().enumerate() {
        let full = hits.len() >= limit;
        if full && matches!(count_by, CountBy::Nothing | CountBy::LiveDocs) {
            break;
        }
        if count_by == CountBy::Weight {
            total += weight.count(reader)? as u64;
            if full {
                continue;
            }
        }
        let mut scorer = weight.scorer(reader, 1.0)?;
        let alive = reader.alive_bitset();
        let mut doc = scorer.doc();
        let mut taken = 0u64;
        while doc != TERMINATED && hits.len() < limit {
            if alive.is_none_or(|a| a.is_alive(doc)) {
                hits.push(Hit { key: Vec::new(), address: DocAddress::new(ord as u32, doc), score: scorer.score() });
                taken += 1;
            }
            doc = scorer.advance();
        }
        if count_by == CountBy::Scorer {
            // The scorer stands on the first match not taken (or is exhausted).
            let rest = match alive {
                Some(a) => scorer.count(a),
                None => scorer.count_including_deleted(),
            };
            total += taken + rest as u64;
        }
    }
    if count_by == CountBy::LiveDocs {
        total = searcher.num_docs();
    }
    let max_score = hits.first().map(|h| h.score);
    Ok(TopHitsFruit { hits, total, max_score })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::query::{AllQuery, ConstScoreQuery, RangeQuery};
    use tantivy::schema::{Schema, FAST, INDEXED};
    use tantivy::{doc, Index, IndexWriter, Term};

    /// Three segments, one with deletions, so the page spans segments and skips dead docs.
    fn searcher() -> (Searcher, tantivy::schema::Field) {
        let mut schema = Schema::builder();
        let n = schema.add_i64_field("n", INDEXED | FAST);
        let index = Index::create_in_ram(schema.build());
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        for batch in [0..5i64, 5..12, 12..20] {
            for v in batch {
                writer.add_document(doc!(n => v)).unwrap();
            }
            writer.commit().unwrap();
        }
        writer.delete_term(Term::from_field_i64(n, 6));
        writer.delete_term(Term::from_field_i64(n, 7));
        writer.commit().unwrap();
        (index.reader().unwrap().searcher(), n)
    }

    #[test]
    fn same_page_and_count_as_the_top_k_collector() {
        let (searcher, n) = searcher();
        let range = || -> Box<dyn Query> {
            Box::new(ConstScoreQuery::new(
                Box::new(RangeQuery::new(
                    std::ops::Bound::Included(Term::from_field_i64(n, 3)),
                    std::ops::Bound::Excluded(Term::from_field_i64(n, 15)),
                )),
                2.0,
            ))
        };
        let cases = [
            (Box::new(AllQuery) as Box<dyn Query>, CountBy::LiveDocs),
            (range(), CountBy::Weight),
            (range(), CountBy::Scorer),
        ];
        for (query, count_by) in cases {
            for limit in [0, 1, 4, 9, 100] {
                let ours = first_matches(&searcher, query.as_ref(), limit, count_by).unwrap();
                let expected_total = searcher.search(query.as_ref(), &Count).unwrap() as u64;
                assert_eq!(ours.total, expected_total, "limit {limit}");
                if limit > 0 {
                    let theirs = searcher.search(query.as_ref(), &TopDocs::with_limit(limit).order_by_score()).unwrap();
                    let ours: Vec<_> = ours.hits.iter().map(|h| (h.score, h.address)).collect();
                    assert_eq!(ours, theirs, "limit {limit}");
                }
            }
        }
    }

    #[test]
    fn without_a_count_the_page_stops_early() {
        let (searcher, n) = searcher();
        let _ = n;
        let page = first_matches(&searcher, &AllQuery, 3, CountBy::Nothing).unwrap();
        assert_eq!(page.total, 0);
        assert_eq!(page.hits.len(), 3);
        assert_eq!(page.max_score, Some(1.0));
    }

    #[test]
    fn constant_score_asts() {
        assert!(is_constant_score(&QueryAst::MatchAll));
        assert!(is_constant_score(&QueryAst::Boost { query: Box::new(QueryAst::MatchAll), boost: 2.0 }));
        assert!(!is_constant_score(&QueryAst::MatchNone));
    }
}
