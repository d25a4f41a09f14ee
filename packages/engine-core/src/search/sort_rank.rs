//! A segment's document ids in the order of one integer column's values ("ranks"), so a
//! page sorted by that column can walk documents best first and stop after the page fills,
//! instead of reading the value of every match.
//!
//! The zone map (`sort_zone.rs`) skips blocks only when values follow document order (time
//! series). A column of unrelated values (a latency) gives every 1,024-row block nearly the
//! whole value range, and the zone path reads every match: 100k values for "the slowest 10
//! calls of a model" at 1M docs. Walking ranks visits about `page x docs / matches` documents
//! (100 there), which is what Lucene's points give ES for the same sort.
//! The ranks cost 4 bytes per document and one sort of the column, on first use per segment.

use std::collections::BinaryHeap;
use std::sync::Arc;

use tantivy::columnar::Column;
use tantivy::index::SegmentId;
use tantivy::query::Weight;
use tantivy::{BitSet, DocId, DocSet, SegmentReader, TERMINATED};

use crate::columns::partition_point;
use crate::columns::segment_cache::SegmentCache;
use crate::hits::sort::Order;
use crate::hits::sort_key::{i64_key, part};

/// Documents' worth of ranks kept (4 bytes each: 64 MiB), across every segment and column:
/// a multi-segment index during a load keeps each live segment's ranks, and the ranks of
/// merged-away segments go when the cache is emptied at this size.
const CACHE_DOCS: usize = 16 << 20;

/// A page being filled: (sort key, doc) in a max-heap whose top is the page's worst.
pub type PageHeap = BinaryHeap<(u128, DocId)>;

/// Document ids by ascending (value, doc id) of a column with one value per document.
pub struct Ranks {
    docs: Vec<DocId>,
}

impl Ranks {
    fn build(column: &Column<i64>) -> Ranks {
        let rows = column.values.num_vals();
        let mut values = vec![0i64; rows as usize];
        column.values.get_range(0, &mut values);
        let mut pairs: Vec<(i64, DocId)> = values.into_iter().zip(0..rows).collect();
        pairs.sort_unstable();
        Ranks { docs: pairs.into_iter().map(|(_, doc)| doc).collect() }
    }

    /// The cached ranks of a segment's column (a column with exactly one value per document).
    pub fn of(segment: SegmentId, name: &str, column: &Column<i64>) -> Option<Arc<Ranks>> {
        static CACHE: SegmentCache<Ranks> = SegmentCache::new(CACHE_DOCS, |ranks| ranks.docs.len());
        CACHE.get_or_build(segment, name, || Ranks::build(column))
    }

    /// The best `limit` matches as (sort key, doc) in a max-heap whose top is the page's worst,
    /// ties kept on the lower doc as ES does. Walks at most `budget` documents: `None` when
    /// that was not enough to prove the page complete.
    pub fn page(
        &self,
        column: &Column<i64>,
        matches: &BitSet,
        order: Order,
        after: Option<u128>,
        limit: usize,
        budget: usize,
    ) -> Option<BinaryHeap<(u128, DocId)>> {
        let mut page: BinaryHeap<(u128, DocId)> = BinaryHeap::with_capacity(limit + 1);
        let n = self.docs.len();
        let doc_at = |i: usize| match order {
            Order::Asc => self.docs[i],
            Order::Desc => self.docs[n - 1 - i],
        };
        let key_of = |doc: DocId| part(column.first(doc).map(i64_key), order);
        // Keys never decrease along the walk: `search_after` starts past the after-key.
        let start = after.map_or(0, |after| partition_point(n, |i| key_of(doc_at(i)) <= after));
        for (step, doc) in (start..n).map(doc_at).enumerate() {
            if step >= budget {
                return None;
            }
            if !matches.contains(doc) {
                continue;
            }
            let key = key_of(doc);
            if page.len() < limit {
                page.push((key, doc));
                continue;
            }
            let worst = page.peek().map_or(u128::MAX, |w| w.0);
            // Values only get worse from here; equal ones may still win on a lower doc id.
            if key > worst {
                break;
            }
            if (key, doc) < *page.peek().expect("the page is full") {
                page.pop();
                page.push((key, doc));
            }
        }
        Some(page)
    }
}

impl Ranks {
    /// The page as `page` finds it, with matches tested by `weight`'s scorer instead of a bit
    /// set of every match: the walk goes in batches, each batch's documents tested in document
    /// order by one fresh scorer (a scorer only moves forward), so a page costs about its walk
    /// and not the matches (a term filter over a fifth of 10M documents: ~2M postings collected
    /// for a page of 20). Batches start at `first_batch` and double. `None` once `budget`
    /// documents were walked without proving the page complete.
    #[allow(clippy::too_many_arguments)]
    pub fn page_seeking(
        &self,
        column: &Column<i64>,
        weight: &dyn Weight,
        reader: &SegmentReader,
        order: Order,
        after: Option<u128>,
        limit: usize,
        first_batch: usize,
        budget: usize,
    ) -> tantivy::Result<Option<PageHeap>> {
        let mut page: PageHeap = BinaryHeap::with_capacity(limit + 1);
        if limit == 0 {
            return Ok(Some(page));
        }
        let n = self.docs.len();
        let doc_at = |i: usize| match order {
            Order::Asc => self.docs[i],
            Order::Desc => self.docs[n - 1 - i],
        };
        let key_of = |doc: DocId| part(column.first(doc).map(i64_key), order);
        let alive = reader.alive_bitset();
        let first = after.map_or(0, |after| partition_point(n, |i| key_of(doc_at(i)) <= after));
        let stop = first.saturating_add(budget).min(n);
        let (mut start, mut batch) = (first, first_batch.max(64));
        let (mut sorted, mut matched) = (Vec::new(), Vec::new());
        while start < n {
            if start >= stop {
                return Ok(None);
            }
            let end = (start + batch).min(stop);
            sorted.clear();
            sorted.extend((start..end).map(doc_at));
            sorted.sort_unstable();
            matched.clear();
            let mut scorer = weight.scorer(reader, 1.0)?;
            for &doc in &sorted {
                let mut at = scorer.doc();
                if at < doc {
                    at = scorer.seek(doc);
                }
                if at == TERMINATED {
                    break;
                }
                if at == doc && alive.is_none_or(|a| a.is_alive(doc)) {
                    matched.push(doc);
                }
            }
            for doc in (start..end).map(doc_at) {
                if matched.binary_search(&doc).is_err() {
                    continue;
                }
                let key = key_of(doc);
                if page.len() < limit {
                    page.push((key, doc));
                    continue;
                }
                let worst = *page.peek().expect("the page is full");
                // Values only get worse from here; equal ones may still win on a lower doc id.
                if key > worst.0 {
                    return Ok(Some(page));
                }
                if (key, doc) < worst {
                    page.pop();
                    page.push((key, doc));
                }
            }
            start = end;
            batch = batch.saturating_mul(2);
        }
        Ok(Some(page))
    }
}
