//! Two search options that limit which matches a search collects, as query wrappers so
//! every pass of the search (hits, total, aggregations) sees the same documents:
//! - `min_score`: matches scoring below it are dropped (ES filters them before collecting,
//!   so totals and aggregations leave them out too). It needs scores even where the search
//!   itself would not compute them (a count, an aggregation pass).
//! - `terminate_after`: at most that many matches are collected on the shard; the search
//!   then reports `terminated_early`. The count is shared by the segments of one search.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

/// `min_score`, on the search's internal score scale.
pub struct MinScoreQuery {
    inner: Box<dyn Query>,
    min: Score,
}

impl MinScoreQuery {
    pub fn new(inner: Box<dyn Query>, min: Score) -> MinScoreQuery {
        MinScoreQuery { inner, min }
    }
}

impl Clone for MinScoreQuery {
    fn clone(&self) -> Self {
        MinScoreQuery { inner: self.inner.box_clone(), min: self.min }
    }
}

impl fmt::Debug for MinScoreQuery {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "MinScore({:?}, {})", self.inner, self.min)
    }
}

impl Query for MinScoreQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        // The scores decide the matches: score even when the caller only counts.
        let scoring = match scoring.searcher() {
            Some(searcher) if !scoring.is_scoring_enabled() => EnableScoring::enabled_from_searcher(searcher),
            _ => scoring,
        };
        Ok(Box::new(MinScoreWeight { inner: self.inner.weight(scoring)?, min: self.min }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor)
    }
}

struct MinScoreWeight {
    inner: Box<dyn Weight>,
    min: Score,
}

impl Weight for MinScoreWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        // The inner scores already carry any outer boost; `min_score` applies to final scores.
        let mut scorer = MinScoreScorer { inner: self.inner.scorer(reader, boost)?, min: self.min };
        scorer.settle();
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }
}

struct MinScoreScorer {
    inner: Box<dyn Scorer>,
    min: Score,
}

impl MinScoreScorer {
    /// Moves to the first match from here on that scores at least `min`.
    fn settle(&mut self) -> DocId {
        let mut doc = self.inner.doc();
        while doc != TERMINATED && self.inner.score() < self.min {
            doc = self.inner.advance();
        }
        doc
    }
}

impl DocSet for MinScoreScorer {
    fn advance(&mut self) -> DocId {
        self.inner.advance();
        self.settle()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.inner.seek(target);
        self.settle()
    }

    fn doc(&self) -> DocId {
        self.inner.doc()
    }

    fn size_hint(&self) -> u32 {
        self.inner.size_hint()
    }
}

impl Scorer for MinScoreScorer {
    fn score(&mut self) -> Score {
        self.inner.score()
    }
}

/// `terminate_after`: the first `limit` matches (in the order segments are searched).
pub struct TerminateAfterQuery {
    inner: Box<dyn Query>,
    limit: usize,
    /// Matches handed out so far by this search's scorers.
    taken: Arc<AtomicUsize>,
}

impl TerminateAfterQuery {
    pub fn new(inner: Box<dyn Query>, limit: usize) -> TerminateAfterQuery {
        TerminateAfterQuery { inner, limit, taken: Arc::new(AtomicUsize::new(0)) }
    }

    /// The matches taken so far; above the limit once collection stopped at it.
    pub fn terminated(&self) -> Arc<AtomicUsize> {
        self.taken.clone()
    }
}

impl Clone for TerminateAfterQuery {
    fn clone(&self) -> Self {
        TerminateAfterQuery { inner: self.inner.box_clone(), limit: self.limit, taken: self.taken.clone() }
    }
}

impl fmt::Debug for TerminateAfterQuery {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "TerminateAfter({:?}, {})", self.inner, self.limit)
    }
}

impl Query for TerminateAfterQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(TerminateAfterWeight {
            inner: self.inner.weight(scoring)?,
            limit: self.limit,
            taken: self.taken.clone(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor)
    }
}

struct TerminateAfterWeight {
    inner: Box<dyn Weight>,
    limit: usize,
    taken: Arc<AtomicUsize>,
}

impl Weight for TerminateAfterWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorer =
            LimitScorer { inner: self.inner.scorer(reader, boost)?, limit: self.limit, taken: self.taken.clone() };
        scorer.take();
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }
}

struct LimitScorer {
    inner: Box<dyn Scorer>,
    limit: usize,
    taken: Arc<AtomicUsize>,
}

impl LimitScorer {
    /// Counts the match it stands on, or stops when the search has collected enough.
    fn take(&mut self) -> DocId {
        if self.inner.doc() == TERMINATED {
            return TERMINATED;
        }
        if self.taken.fetch_add(1, Ordering::Relaxed) >= self.limit {
            // Keep the count saying "limit reached" without growing it further.
            self.taken.store(self.limit + 1, Ordering::Relaxed);
            self.inner = Box::new(tantivy::query::EmptyScorer);
            return TERMINATED;
        }
        self.inner.doc()
    }
}

impl DocSet for LimitScorer {
    fn advance(&mut self) -> DocId {
        self.inner.advance();
        self.take()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.inner.seek(target);
        self.take()
    }

    fn doc(&self) -> DocId {
        self.inner.doc()
    }

    fn size_hint(&self) -> u32 {
        self.inner.size_hint().min(self.limit as u32)
    }
}

impl Scorer for LimitScorer {
    fn score(&mut self) -> Score {
        self.inner.score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::Count;
    use tantivy::query::{AllQuery, BoostQuery, ConstScoreQuery};
    use tantivy::schema::{SchemaBuilder, TEXT};
    use tantivy::{doc, Index};

    #[test]
    fn limits_what_a_search_collects() {
        let mut schema = SchemaBuilder::new();
        let body = schema.add_text_field("body", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for _ in 0..20 {
            writer.add_document(doc!(body => "a")).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let limited = TerminateAfterQuery::new(Box::new(AllQuery), 7);
        assert_eq!(searcher.search(&limited, &Count).unwrap(), 7);
        assert!(limited.terminated().load(Ordering::Relaxed) > 7);
        let constant = || Box::new(ConstScoreQuery::new(Box::new(AllQuery), 2.0)) as Box<dyn Query>;
        assert_eq!(searcher.search(&MinScoreQuery::new(constant(), 2.0), &Count).unwrap(), 20);
        assert_eq!(searcher.search(&MinScoreQuery::new(constant(), 2.5), &Count).unwrap(), 0);
        let boosted = MinScoreQuery::new(Box::new(BoostQuery::new(constant(), 2.0)), 3.0);
        assert_eq!(searcher.search(&boosted, &Count).unwrap(), 20);
    }
}
