//! The documents a `bool` filter matches, cached per segment: Lucene's query cache, which
//! Elasticsearch and OpenSearch keep on by default (`indices.queries.cache`). A `_count` of
//! two common terms walks hundreds of thousands of postings each time; once cached it is the
//! size of a bit set.
//!
//! As in Lucene, only where scores are not needed (filter context, `_count`, aggregations,
//! field-sorted pages), only on segments of 10,000+ documents, and only for a query seen
//! `USES_BEFORE_CACHING` times (ES waits for 5 uses of most queries): a one-off filter is not
//! worth the copy. Only `bool` queries of two or more clauses over leaves whose matches depend
//! on nothing but the segment are cached: no `now` in a date range, no scripts, no text
//! analysis. The key is the parsed query; a segment never changes once written, so an entry
//! stays right as long as the segment lives, and deletions are applied by the collectors
//! afterwards, as for any scorer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};
use tantivy_common::BitSet;

use crate::columns::segment_cache::SegmentCache;
use crate::query::ast::{QueryAst, RangeAst};

/// Segments smaller than this are not cached (ES: 10,000).
const MIN_SEGMENT_DOCS: u32 = 10_000;
/// Uses of one query before its matches are cached.
const USES_BEFORE_CACHING: u32 = 4;
/// Longer keys (huge `terms` lists) are not cached.
const MAX_KEY_BYTES: usize = 4096;
/// Bytes of cached matches held before the cache is emptied.
const BUDGET_BYTES: usize = 8 << 20;
/// Queries whose uses are counted before the counts start over.
const MAX_COUNTED: usize = 4096;

/// Whether `ast` is a `bool` of two or more clauses whose matches depend only on the segment.
/// A one-clause bool is its clause (Lucene rewrites it so, and does not cache a lone term):
/// caching it would copy a posting list without saving any work.
pub fn cacheable(ast: &QueryAst) -> bool {
    let QueryAst::Bool(b) = ast else { return false };
    b.must.len() + b.filter.len() + b.should.len() + b.must_not.len() >= 2 && deterministic(ast)
}

fn deterministic(ast: &QueryAst) -> bool {
    match ast {
        QueryAst::Bool(b) => b.must.iter().chain(&b.filter).chain(&b.should).chain(&b.must_not).all(deterministic),
        QueryAst::MatchAll
        | QueryAst::MatchNone
        | QueryAst::Term { .. }
        | QueryAst::Terms { .. }
        | QueryAst::Exists { .. }
        | QueryAst::Ids { .. }
        | QueryAst::Prefix { .. }
        | QueryAst::NestedObjects => true,
        QueryAst::Range(r) => !mentions_now(r),
        QueryAst::ConstantScore { filter, .. } => deterministic(filter),
        _ => false,
    }
}

fn mentions_now(r: &RangeAst) -> bool {
    [&r.gt, &r.gte, &r.lt, &r.lte].into_iter().flatten().any(|v| matches!(v, Value::String(s) if s.contains("now")))
}

/// Wraps the lowered query of a cacheable `ast` (see `cacheable`).
pub fn wrap(ast: &QueryAst, inner: Box<dyn Query>) -> Box<dyn Query> {
    let key = format!("{ast:?}");
    if key.len() > MAX_KEY_BYTES {
        return inner;
    }
    Box::new(CachedFilterQuery { key: key.into(), inner })
}

#[derive(Debug)]
struct CachedFilterQuery {
    key: Arc<str>,
    inner: Box<dyn Query>,
}

impl Clone for CachedFilterQuery {
    fn clone(&self) -> Self {
        CachedFilterQuery { key: self.key.clone(), inner: self.inner.box_clone() }
    }
}

impl Query for CachedFilterQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let inner = self.inner.weight(scoring)?;
        if scoring.is_scoring_enabled() {
            return Ok(inner);
        }
        Ok(Box::new(CachedFilterWeight { key: self.key.clone(), frequent: note_use(&self.key), inner }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

/// Counts one use of `key`; true once it has been used often enough to cache.
fn note_use(key: &Arc<str>) -> bool {
    static USES: Mutex<Option<HashMap<Arc<str>, u32>>> = Mutex::new(None);
    let mut guard = USES.lock().unwrap_or_else(|p| p.into_inner());
    let uses = guard.get_or_insert_with(HashMap::new);
    if uses.len() >= MAX_COUNTED && !uses.contains_key(key) {
        uses.clear();
    }
    let n = uses.entry(key.clone()).or_insert(0);
    *n = n.saturating_add(1);
    *n >= USES_BEFORE_CACHING
}

/// A segment's matches: a bit set when they are many, a sorted list when few.
enum CachedDocs {
    Dense(BitSet),
    Sparse(Vec<DocId>),
}

impl CachedDocs {
    fn bytes(&self) -> usize {
        match self {
            CachedDocs::Dense(bits) => bits.max_value() as usize / 8 + 8,
            CachedDocs::Sparse(docs) => docs.len() * 4,
        }
    }
}

static CACHE: SegmentCache<CachedDocs> = SegmentCache::new(BUDGET_BYTES, CachedDocs::bytes);

/// Cached filters held for the searcher's segments, and their bytes (`_stats` `query_cache`).
pub fn usage(searcher: &tantivy::Searcher) -> (u64, u64) {
    let segments: Vec<tantivy::index::SegmentId> = searcher.segment_readers().iter().map(|s| s.segment_id()).collect();
    let (entries, bytes) = CACHE.usage(|segment| segments.contains(segment));
    (entries as u64, bytes as u64)
}

/// Drops the cached filters of the searcher's segments (`_cache/clear?query`).
pub fn clear(searcher: &tantivy::Searcher) {
    let segments: Vec<tantivy::index::SegmentId> = searcher.segment_readers().iter().map(|s| s.segment_id()).collect();
    CACHE.remove(|segment| segments.contains(segment));
}

/// Segment entries held now (for tests and diagnostics).
pub fn entries() -> usize {
    CACHE.entries()
}

struct CachedFilterWeight {
    key: Arc<str>,
    frequent: bool,
    inner: Box<dyn Weight>,
}

impl CachedFilterWeight {
    fn collect(&self, reader: &SegmentReader) -> tantivy::Result<CachedDocs> {
        let mut scorer = self.inner.scorer(reader, 1.0)?;
        let mut docs = Vec::new();
        let mut doc = scorer.doc();
        while doc != TERMINATED {
            docs.push(doc);
            doc = scorer.advance();
        }
        // A list costs 32 bits a match, the bit set one bit a document.
        if docs.len() * 32 < reader.max_doc() as usize {
            return Ok(CachedDocs::Sparse(docs));
        }
        let mut bits = BitSet::with_max_value(reader.max_doc());
        docs.into_iter().for_each(|d| {
            bits.insert(d);
        });
        Ok(CachedDocs::Dense(bits))
    }
}

impl Weight for CachedFilterWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        if reader.max_doc() < MIN_SEGMENT_DOCS {
            return self.inner.scorer(reader, boost);
        }
        let segment = reader.segment_id();
        let cached = match CACHE.get(segment, &self.key) {
            Some(docs) => docs,
            None if self.frequent => {
                let docs = self.collect(reader)?;
                match CACHE.get_or_build(segment, &self.key, || docs) {
                    Some(docs) => docs,
                    None => return self.inner.scorer(reader, boost),
                }
            }
            None => return self.inner.scorer(reader, boost),
        };
        Ok(Box::new(CachedScorer::new(cached, boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }
}

/// Walks a segment's cached matches.
struct CachedScorer {
    docs: Arc<CachedDocs>,
    /// Sparse: the position in the list. Dense: the current 64-doc bucket.
    at: usize,
    /// Dense: the bucket's matches not yet visited, past `doc`.
    rest: tantivy_common::TinySet,
    doc: DocId,
    score: Score,
    /// False until the first advance or seek: then a count is the entry's size.
    moved: bool,
}

impl CachedScorer {
    fn new(docs: Arc<CachedDocs>, score: Score) -> CachedScorer {
        let mut scorer =
            CachedScorer { docs, at: 0, rest: tantivy_common::TinySet::empty(), doc: 0, score, moved: false };
        scorer.doc = match &*scorer.docs {
            CachedDocs::Sparse(list) => list.first().copied().unwrap_or(TERMINATED),
            CachedDocs::Dense(bits) => {
                scorer.rest = bits.tinyset(0);
                scorer.next_dense()
            }
        };
        scorer
    }

    /// The next match at or after the current bucket's remaining bits.
    fn next_dense(&mut self) -> DocId {
        let CachedDocs::Dense(bits) = &*self.docs else { return TERMINATED };
        loop {
            if let Some(low) = self.rest.pop_lowest() {
                return self.at as DocId * 64 + low;
            }
            match bits.first_non_empty_bucket(self.at as u32 + 1) {
                Some(bucket) => {
                    self.at = bucket as usize;
                    self.rest = bits.tinyset(bucket);
                }
                None => return TERMINATED,
            }
        }
    }
}

impl DocSet for CachedScorer {
    fn advance(&mut self) -> DocId {
        self.moved = true;
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        self.doc = match &*self.docs {
            CachedDocs::Sparse(list) => {
                self.at += 1;
                list.get(self.at).copied().unwrap_or(TERMINATED)
            }
            CachedDocs::Dense(_) => self.next_dense(),
        };
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.moved = true;
        if self.doc >= target {
            return self.doc;
        }
        self.doc = match &*self.docs {
            CachedDocs::Sparse(list) => {
                self.at += list[self.at..].partition_point(|d| *d < target);
                list.get(self.at).copied().unwrap_or(TERMINATED)
            }
            CachedDocs::Dense(bits) => {
                if target >= bits.max_value() {
                    TERMINATED
                } else {
                    self.at = (target / 64) as usize;
                    self.rest = bits
                        .tinyset(target / 64)
                        .intersect(tantivy_common::TinySet::range_greater_or_equal(target % 64));
                    self.next_dense()
                }
            }
        };
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        match &*self.docs {
            CachedDocs::Sparse(list) => list.len() as u32,
            CachedDocs::Dense(bits) => bits.len() as u32,
        }
    }

    /// Every match, counted when the entry was built (unless the scorer has moved).
    fn count_including_deleted(&mut self) -> u32 {
        if !self.moved {
            self.moved = true;
            self.doc = TERMINATED;
            return self.size_hint();
        }
        let mut n = 0;
        while self.doc != TERMINATED {
            n += 1;
            self.advance();
        }
        n
    }
}

impl Scorer for CachedScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use tantivy::{DocSet, TERMINATED};
    use tantivy_common::BitSet;

    use super::{cacheable, CachedDocs, CachedScorer};
    use crate::query::dsl::parse_query;

    #[test]
    fn cached_matches_advance_seek_and_count_like_the_list_they_hold() {
        let docs: Vec<u32> = (0..20_000u32).filter(|d| d % 7 == 3 || (5_000..5_200).contains(d)).collect();
        let mut bits = BitSet::with_max_value(20_000);
        docs.iter().for_each(|d| {
            bits.insert(*d);
        });
        for cached in [Arc::new(CachedDocs::Dense(bits)), Arc::new(CachedDocs::Sparse(docs.clone()))] {
            let walk = |s: &mut CachedScorer| {
                let mut out = vec![];
                while s.doc() != TERMINATED {
                    out.push(s.doc());
                    s.advance();
                }
                out
            };
            assert_eq!(walk(&mut CachedScorer::new(cached.clone(), 1.0)), docs);
            assert_eq!(CachedScorer::new(cached.clone(), 1.0).count_including_deleted(), docs.len() as u32);
            let mut scorer = CachedScorer::new(cached.clone(), 1.0);
            for target in [0u32, 4, 64, 65, 4_999, 5_000, 5_001, 5_199, 5_200, 5_201, 12_345, 19_998, 19_999] {
                let want = docs.iter().copied().find(|d| *d >= target.max(scorer.doc())).unwrap_or(TERMINATED);
                assert_eq!(scorer.seek(target), want, "seek {target}");
            }
            assert_eq!(scorer.seek(20_000), TERMINATED);
            // After moving, a count walks what is left.
            let mut scorer = CachedScorer::new(cached.clone(), 1.0);
            scorer.seek(5_100);
            let left = docs.iter().filter(|d| **d >= 5_100).count() as u32;
            assert_eq!(scorer.count_including_deleted(), left);
        }
    }

    fn is_cacheable(query: serde_json::Value) -> bool {
        cacheable(&parse_query(&query).unwrap())
    }

    #[test]
    fn caches_bools_of_two_or_more_segment_only_clauses() {
        let term = |v: &str| json!({"term": {"status": v}});
        assert!(is_cacheable(json!({"bool": {"filter": [term("a"), term("b")]}})));
        assert!(is_cacheable(json!({"bool": {"filter": [term("a")], "must_not": [{"exists": {"field": "x"}}]}})));
        assert!(is_cacheable(
            json!({"bool": {"filter": [term("a"), {"range": {"ts": {"gte": "2024-01-01||+1d", "lt": "2024-02-01"}}}]}})
        ));
        // One clause: the clause itself. A date relative to now means something else later.
        assert!(!is_cacheable(json!({"bool": {"filter": [term("a")]}})));
        assert!(!is_cacheable(json!({"bool": {"filter": [term("a"), {"range": {"ts": {"gte": "now-1h"}}}]}})));
        // Analysed text and leaves that are not plain sets of documents.
        assert!(!is_cacheable(json!({"bool": {"must": [{"match": {"m": "x"}}], "filter": [term("a")]}})));
        assert!(!is_cacheable(json!({"bool": {"filter": [term("a"), {"fuzzy": {"status": "b"}}]}})));
        assert!(!is_cacheable(term("a")));
    }
}
