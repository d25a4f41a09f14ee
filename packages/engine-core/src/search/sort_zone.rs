//! A sort on one integer/date field, served from the column's zone map (`zone_map.rs`)
//! instead of reading the sort value of every match.
//!
//! Per segment: the matches go into a bit set (the exact total is its count), then the
//! column's 1,024-row blocks are visited best first (by block maximum for `desc`, minimum for
//! `asc`), and only the matching documents of a visited block have their value read. Once the
//! page is full, the first block whose best value cannot beat the page's worst ends the
//! search. On time-ordered data a "latest first" page reads one or two blocks, not the 440k
//! values of a broad prefix query (curl at 1M: that prefix query took 1.8 ms unsorted, 5.3 ms
//! sorted before this path, 3.3 ms after).
//! Segments without a zone map (small, or a column that is not one value per document) take
//! the ordinary collector, so the answer never depends on which path ran.

use std::collections::BinaryHeap;

use tantivy::collector::Collector;
use tantivy::columnar::Column;
use tantivy::query::{EnableScoring, Weight};
use tantivy::{BitSet, DocAddress, DocId, Searcher, SegmentOrdinal, SegmentReader};

use super::lower_query;
use super::sort_rank::{PageHeap, Ranks};
use crate::columns::zone_map::{self, ZoneMap, BLOCK_ROWS};
use crate::error::Result;
use crate::hits::search_after::AfterValue;
use crate::hits::sort::{Order, SortTarget};
use crate::hits::sort_key::{i64_key, part};
use crate::hits::top_hits::{GlobalPart, Hit, TopHitsCollector, TopHitsFruit};
use crate::query::ast::QueryAst;
use crate::store::index::IndexHandle;
use crate::store::mapping::FieldType;

/// Up to this many matches in a segment, their values are read directly (no walk).
const FEW_MATCHES: usize = 4096;

/// Out of line, as is `first_vals` below: whether the compiler inlines these small helpers into
/// their callers follows how the crate's modules fall into codegen units, not this file, and
/// inlined they made the sorted page cost more (callgrind: `query.sort_numeric` +6%, the
/// `prefix` and `regexp` rows +4%, after unrelated modules moved).
#[inline(never)]
fn bit_set(max_doc: DocId, docs: impl Iterator<Item = DocId>) -> BitSet {
    let mut set = BitSet::with_max_value(max_doc);
    for doc in docs {
        set.insert(doc);
    }
    set
}

/// The column's first value of each of `docs` (tantivy's bulk read), out of line (see `bit_set`).
#[inline(never)]
fn first_vals(column: &Column<i64>, docs: &[DocId], values: &mut [Option<i64>]) {
    column.first_vals(docs, values);
}

/// The ordinary sorted collector, with the zone-map path for segments that allow it.
pub struct ZoneSortCollector {
    pub inner: TopHitsCollector,
    /// The sort field's tantivy name and order.
    pub column: String,
    pub order: Order,
    pub walk: Walk,
    /// `search_after`: only documents whose sort key (as `part` encodes it) is greater.
    pub after: Option<u128>,
    /// A weight with the query's matches that counts a segment without walking it
    /// (`seek_weight`): with it a page walked by ranks tests only the documents it visits.
    pub seek: Option<Box<dyn Weight>>,
}

/// How a segment's page is found once its matches are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// A few matches' values read directly; else ranks when the expected walk is short next to
    /// the matches; else zone-map blocks.
    Auto,
    /// Forced walks: the tests run every page both ways against the ordinary collector.
    #[cfg_attr(not(test), allow(dead_code))]
    Zones,
    #[cfg_attr(not(test), allow(dead_code))]
    Ranks,
}

impl Collector for ZoneSortCollector {
    type Fruit = TopHitsFruit;
    type Child = <TopHitsCollector as Collector>::Child;

    fn for_segment(&self, segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<Self::Child> {
        self.inner.for_segment(segment, reader)
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<TopHitsFruit>) -> tantivy::Result<TopHitsFruit> {
        self.inner.merge_fruits(fruits)
    }

    fn collect_segment(
        &self,
        weight: &dyn Weight,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<TopHitsFruit> {
        let column = reader.fast_fields().column_opt::<i64>(&self.column)?;
        let map = column.as_ref().and_then(|c| zone_map::zone_map(reader.segment_id(), &self.column, c));
        match (column, map) {
            (Some(column), Some(map)) => self.by_zones(weight, segment, reader, &column, &map),
            _ => self.inner.collect_segment(weight, segment, reader),
        }
    }
}

/// The weight for `ZoneSortCollector::seek`: the request's query without the wrappers that do
/// not change which documents match, when what is left counts a segment without a walk (a
/// term's document frequency, every document); `None` for other queries, whose count would
/// cost about what the bit set of their matches does.
pub fn seek_weight(handle: &IndexHandle, searcher: &Searcher, ast: &QueryAst) -> Result<Option<Box<dyn Weight>>> {
    let Some(core) = counted_without_walk(ast) else { return Ok(None) };
    let query = lower_query(handle, core)?;
    Ok(Some(query.weight(EnableScoring::disabled_from_searcher(searcher))?))
}

fn counted_without_walk(ast: &QueryAst) -> Option<&QueryAst> {
    match ast {
        QueryAst::Term { .. } | QueryAst::MatchAll => Some(ast),
        QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => counted_without_walk(query),
        QueryAst::ConstantScore { filter, .. } => counted_without_walk(filter),
        QueryAst::Bool(b) if b.should.is_empty() && b.must_not.is_empty() => {
            match (b.must.as_slice(), b.filter.as_slice()) {
                ([only], []) | ([], [only]) => counted_without_walk(only),
                _ => None,
            }
        }
        _ => None,
    }
}

impl ZoneSortCollector {
    /// The zone-map sort for a page sorted by one integer/date field alone, without scores,
    /// `search_after` or a timeout; `None` otherwise.
    pub fn for_page(hits: &TopHitsCollector, has_deadline: bool) -> Option<ZoneSortCollector> {
        let [spec] = hits.specs.as_slice() else { return None };
        let SortTarget::Field { tantivy_name, field_type, .. } = &spec.target else { return None };
        if !spec.opts.is_default() || tantivy_name.is_empty() {
            return None;
        }
        let integer = matches!(
            field_type,
            FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte | FieldType::Date
        );
        if !integer || hits.scoring || has_deadline || hits.limit == 0 {
            return None;
        }
        let after = match hits.after.as_deref() {
            None => None,
            Some([AfterValue::Num(Some(key))]) => Some(part(Some(*key), spec.order)),
            Some(_) => return None,
        };
        // The inner collector serves segments without a zone map: it applies the after-key itself.
        let inner = TopHitsCollector {
            specs: hits.specs.clone(),
            limit: hits.limit,
            scoring: false,
            after: hits.after.clone(),
            scale: hits.scale,
        };
        let column = tantivy_name.clone();
        Some(ZoneSortCollector { inner, column, order: spec.order, walk: Walk::Auto, after, seek: None })
    }

    /// The page of a segment walked by ranks, its matches tested by seeking `seek`, and the
    /// segment's total from `seek`'s count; `None` when the walk is not expected to be short
    /// or ran past its budget (the bit-set path then serves the segment).
    fn by_seeking(
        &self,
        seek: &dyn Weight,
        reader: &SegmentReader,
        column: &Column<i64>,
    ) -> tantivy::Result<Option<(PageHeap, u64)>> {
        let total = seek.count(reader)? as u64;
        if total == 0 {
            return Ok(Some((BinaryHeap::new(), 0)));
        }
        let limit = self.inner.limit as u64;
        let expected = limit * reader.max_doc() as u64 / total;
        let (pick, budget) = match self.walk {
            Walk::Auto => (total > FEW_MATCHES as u64 && expected * 4 < total, expected * 8 + 1024),
            Walk::Ranks => (true, u64::MAX),
            Walk::Zones => (false, 0),
        };
        if !pick {
            return Ok(None);
        }
        let Some(ranks) = Ranks::of(reader.segment_id(), &self.column, column) else { return Ok(None) };
        let first_batch = (expected * 2).min(1 << 20) as usize;
        let budget = usize::try_from(budget).unwrap_or(usize::MAX);
        let page =
            ranks.page_seeking(column, seek, reader, self.order, self.after, self.inner.limit, first_batch, budget)?;
        Ok(page.map(|page| (page, total)))
    }

    fn by_zones(
        &self,
        weight: &dyn Weight,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
        column: &Column<i64>,
        map: &ZoneMap,
    ) -> tantivy::Result<TopHitsFruit> {
        if let Some(seek) = &self.seek {
            if let Some((page, total)) = self.by_seeking(seek.as_ref(), reader, column)? {
                return Ok(Self::fruit(segment, page, total));
            }
        }
        // The matches in order while they are few (then reading their values beats any walk:
        // 5-20 `ids` sorted by time at 1M made the block walk check ~1M bits to find them), in a
        // bit set once they are not.
        let mut few = Vec::new();
        let mut many: Option<BitSet> = None;
        let mut total = 0u64;
        let alive = reader.alive_bitset();
        let max_doc = reader.max_doc().max(1);
        weight.for_each_no_score(reader, &mut |docs| {
            for &doc in docs {
                if alive.is_some_and(|a| !a.is_alive(doc)) {
                    continue;
                }
                total += 1;
                match &mut many {
                    Some(set) => {
                        set.insert(doc);
                    }
                    None if few.len() < FEW_MATCHES => few.push(doc),
                    None => many = Some(bit_set(max_doc, few.drain(..).chain([doc]))),
                }
            }
        })?;
        let limit = self.inner.limit;
        let mut page: BinaryHeap<(u128, DocId)> = BinaryHeap::with_capacity(limit.min(10_000) + 1);
        let mut values = Vec::with_capacity(BLOCK_ROWS as usize);
        let matches = match many {
            Some(set) => set,
            None if self.walk == Walk::Auto => {
                self.offer(column, &few, &mut values, &mut page);
                return Ok(Self::fruit(segment, page, total));
            }
            None => bit_set(max_doc, few.into_iter()),
        };
        if let Some(page) = self.by_ranks(reader, column, &matches, total) {
            return Ok(Self::fruit(segment, page, total));
        }
        // Blocks best first: each block's best possible sort key, as `part` encodes it (lower wins).
        let best = |b: usize| {
            let (min, max) = map.bounds(b);
            part(Some(i64_key(if self.order == Order::Asc { min } else { max })), self.order)
        };
        let mut blocks: Vec<(u128, usize)> = (0..map.num_blocks()).map(|b| (best(b), b)).collect();
        blocks.sort_unstable();
        let mut docs = Vec::with_capacity(BLOCK_ROWS as usize);
        let worst = |b: usize| {
            let (min, max) = map.bounds(b);
            part(Some(i64_key(if self.order == Order::Asc { max } else { min })), self.order)
        };
        for (block_best, b) in blocks {
            if page.len() >= limit && page.peek().is_some_and(|worst| block_best > worst.0) {
                break;
            }
            if self.after.is_some_and(|after| worst(b) <= after) {
                continue;
            }
            let start = b as u32 * BLOCK_ROWS;
            let end = (start + BLOCK_ROWS).min(reader.max_doc());
            docs.clear();
            docs.extend((start..end).filter(|d| matches.contains(*d)));
            self.offer(column, &docs, &mut values, &mut page);
        }
        Ok(Self::fruit(segment, page, total))
    }

    /// Reads the values of `docs` (in one bulk column read) and keeps the best in `page`, a
    /// max-heap of (key, doc) whose top is the page's worst; ties keep the lower doc, as ES.
    fn offer(
        &self,
        column: &Column<i64>,
        docs: &[DocId],
        values: &mut Vec<Option<i64>>,
        page: &mut BinaryHeap<(u128, DocId)>,
    ) {
        values.clear();
        values.resize(docs.len(), None);
        first_vals(column, docs, values);
        for (&doc, value) in docs.iter().zip(values.iter()) {
            let entry = (part(value.map(i64_key), self.order), doc);
            if self.after.is_some_and(|after| entry.0 <= after) {
                continue;
            }
            if page.len() < self.inner.limit {
                page.push(entry);
            } else if page.peek().is_some_and(|worst| entry < *worst) {
                page.pop();
                page.push(entry);
            }
        }
    }

    /// The page by walking the column's ranks (`sort_rank.rs`) when that is expected to visit
    /// far fewer documents than the matches: about `limit x docs / matches` if matches are
    /// spread over the values. A walk that runs over 8x that gives way to the zone-map path.
    fn by_ranks(
        &self,
        reader: &SegmentReader,
        column: &Column<i64>,
        matches: &BitSet,
        total: u64,
    ) -> Option<BinaryHeap<(u128, DocId)>> {
        let limit = self.inner.limit as u64;
        let expected = (limit * reader.max_doc() as u64).checked_div(total)?;
        let pick = match self.walk {
            Walk::Auto => expected * 4 < total,
            Walk::Ranks => true,
            Walk::Zones => false,
        };
        if !pick {
            return None;
        }
        let ranks = Ranks::of(reader.segment_id(), &self.column, column)?;
        let budget = if self.walk == Walk::Ranks { usize::MAX } else { (expected * 8 + 1024) as usize };
        ranks.page(column, matches, self.order, self.after, self.inner.limit, budget)
    }

    fn fruit(segment: SegmentOrdinal, page: BinaryHeap<(u128, DocId)>, total: u64) -> TopHitsFruit {
        let hits = page
            .into_vec()
            .into_iter()
            .map(|(key, doc)| Hit {
                key: vec![GlobalPart::Num(key)],
                address: DocAddress::new(segment, doc),
                score: 0.0,
            })
            .collect();
        TopHitsFruit { hits, total, max_score: (total > 0).then_some(0.0) }
    }
}

#[cfg(test)]
mod tests {
    use tantivy::query::{AllQuery, Query, TermQuery};
    use tantivy::schema::{IndexRecordOption, Schema, FAST, INDEXED};
    use tantivy::{doc, Index, IndexWriter, Term};

    use super::*;
    use crate::hits::sort::{SortSpec, SortTarget};
    use crate::store::mapping::FieldType;

    /// Segments of 12,000 and 9,000 docs and one of 3,000 (too small for a zone map, so it takes
    /// the ordinary collector): `ts` ascends with repeats (ties across blocks), one stretch
    /// shuffled; `k` = doc % 5 selects subsets; some docs deleted.
    fn index() -> Index {
        let mut schema = Schema::builder();
        let ts = schema.add_i64_field("ts", INDEXED | FAST);
        let k = schema.add_i64_field("k", INDEXED | FAST);
        let index = Index::create_in_ram(schema.build());
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 50_000_000).unwrap();
        for (from, to) in [(0i64, 12_000i64), (12_000, 21_000), (21_000, 24_000)] {
            for i in from..to {
                let v = if (5_000..6_500).contains(&i) { (i * 7919) % 21_000 } else { i / 3 };
                writer.add_document(doc!(ts => v, k => i % 5)).unwrap();
            }
            writer.commit().unwrap();
        }
        writer.delete_term(Term::from_field_i64(k, 4));
        writer.commit().unwrap();
        index
    }

    fn collector(order: Order, limit: usize, after: Option<i64>) -> TopHitsCollector {
        let target = SortTarget::Field { name: "ts".into(), tantivy_name: "ts".into(), field_type: FieldType::Long };
        let after = after.map(|v| vec![AfterValue::Num(Some(i64_key(v)))]);
        TopHitsCollector { specs: vec![SortSpec::new(target, order)], limit, scoring: false, after, scale: 1.0 }
    }

    #[test]
    fn pages_equal_the_ordinary_sorted_collector() {
        let index = index();
        let searcher = index.reader().unwrap().searcher();
        assert_eq!(searcher.segment_readers().len(), 3);
        let k = index.schema().get_field("k").unwrap();
        let queries: Vec<Box<dyn Query>> = vec![
            Box::new(AllQuery),
            Box::new(TermQuery::new(Term::from_field_i64(k, 2), IndexRecordOption::Basic)),
            Box::new(TermQuery::new(Term::from_field_i64(k, 4), IndexRecordOption::Basic)),
        ];
        // After-keys: none, inside the shuffled stretch, on a repeated value, past every value.
        for after in [None, Some(1_700), Some(2_500), Some(4_000), Some(99_999)] {
            for query in &queries {
                for order in [Order::Asc, Order::Desc] {
                    for limit in [1, 10, 700, 30_000] {
                        let plain = searcher.search(query.as_ref(), &collector(order, limit, after)).unwrap();
                        let at = format!("{query:?} {order:?} {limit} after {after:?}");
                        // With and without a seek weight (the matches tested by seeking).
                        for (walk, seek) in
                            [Walk::Auto, Walk::Zones, Walk::Ranks].into_iter().flat_map(|w| [(w, false), (w, true)])
                        {
                            let mut zoned =
                                ZoneSortCollector::for_page(&collector(order, limit, after), false).unwrap();
                            zoned.walk = walk;
                            if seek {
                                zoned.seek =
                                    Some(query.weight(EnableScoring::disabled_from_searcher(&searcher)).unwrap());
                            }
                            let zoned = searcher.search(query.as_ref(), &zoned).unwrap();
                            assert_eq!(zoned.total, plain.total, "{at} {walk:?} seek {seek}");
                            let ids = |f: &TopHitsFruit| {
                                f.hits.iter().map(|h| (h.key.clone(), h.address)).collect::<Vec<_>>()
                            };
                            assert_eq!(ids(&zoned), ids(&plain), "{at} {walk:?} seek {seek}");
                        }
                    }
                }
            }
        }
    }
}
