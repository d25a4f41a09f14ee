//! A double (or float) `range` query whose match *count* comes from the column's sort order
//! (`columns/double_ranks.rs`): two binary searches per segment. Matching and scoring stay
//! tantivy's `RangeQuery`, which a page of hits needs only for its first few matches.

use std::ops::Bound;

use tantivy::columnar::ColumnIndex;
use tantivy::query::{EnableScoring, Explanation, Query, RangeQuery, Scorer, Weight};
use tantivy::{DocId, Score, SegmentReader, Term};

use crate::columns::deleted_docs::deleted_docs;
use crate::columns::double_ranks::DoubleRanks;

/// Past one deleted document in this many, taking deleted values out of the count costs about
/// as much as visiting every match (as in `column_range.rs`).
const MAX_DELETED_SHARE: u32 = 4;

#[derive(Debug, Clone)]
pub struct DoubleRangeQuery {
    inner: RangeQuery,
    column: String,
    lower: Bound<f64>,
    upper: Bound<f64>,
}

impl DoubleRangeQuery {
    /// The range between `lower` and `upper` on the f64 field `field`, whose tantivy name is
    /// `column`.
    pub fn new(field: tantivy::schema::Field, column: String, lower: Bound<f64>, upper: Bound<f64>) -> Self {
        let term = |bound: Bound<f64>| match bound {
            Bound::Included(x) => Bound::Included(Term::from_field_f64(field, x)),
            Bound::Excluded(x) => Bound::Excluded(Term::from_field_f64(field, x)),
            Bound::Unbounded => Bound::Unbounded,
        };
        DoubleRangeQuery { inner: RangeQuery::new(term(lower), term(upper)), column, lower, upper }
    }
}

impl Query for DoubleRangeQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(DoubleRangeWeight {
            inner: self.inner.weight(enable_scoring)?,
            column: self.column.clone(),
            lower: self.lower,
            upper: self.upper,
        }))
    }
}

struct DoubleRangeWeight {
    inner: Box<dyn Weight>,
    column: String,
    lower: Bound<f64>,
    upper: Bound<f64>,
}

impl DoubleRangeWeight {
    fn contains(&self, v: f64) -> bool {
        let above = match self.lower {
            Bound::Included(x) => v.total_cmp(&x).is_ge(),
            Bound::Excluded(x) => v.total_cmp(&x).is_gt(),
            Bound::Unbounded => true,
        };
        let below = match self.upper {
            Bound::Included(x) => v.total_cmp(&x).is_le(),
            Bound::Excluded(x) => v.total_cmp(&x).is_lt(),
            Bound::Unbounded => true,
        };
        above && below
    }
}

impl Weight for DoubleRangeWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.inner.scorer(reader, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if let Some(column) = reader.fast_fields().column_opt::<f64>(&self.column)? {
            if matches!(column.index, ColumnIndex::Full) {
                // Deleted documents are still in the column: their own values come out.
                let deleted = deleted_docs(reader);
                if deleted.len() as u32 <= reader.max_doc() / MAX_DELETED_SHARE {
                    if let Some(ranks) = DoubleRanks::of(reader.segment_id(), &self.column, &column) {
                        let in_range = ranks.count(&column, self.lower, self.upper);
                        let deleted_in_range =
                            deleted.iter().filter(|&&doc| column.first(doc).is_some_and(|v| self.contains(v))).count();
                        return Ok(in_range - deleted_in_range as u32);
                    }
                }
            }
        }
        self.inner.count(reader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::schema::{Schema, FAST, INDEXED};
    use tantivy::{doc, Index, IndexWriter};

    /// Two segments of values with repeats, signed zeros and extremes; then deletions.
    #[test]
    fn counts_like_tantivys_range_query_with_and_without_deletions() {
        let mut schema = Schema::builder();
        let x = schema.add_f64_field("x", INDEXED | FAST);
        let index = Index::create_in_ram(schema.build());
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 50_000_000).unwrap();
        let value = |i: u32| match i % 11 {
            0 => -0.0,
            1 => 0.0,
            2 => f64::MAX,
            3 => f64::MIN,
            _ => ((i * 7919) % 1000) as f64 / 100.0 - 2.0,
        };
        for (from, to) in [(0u32, 3000u32), (3000, 5000)] {
            for i in from..to {
                writer.add_document(doc!(x => value(i))).unwrap();
            }
            writer.commit().unwrap();
        }
        let bounds = [
            Bound::Unbounded,
            Bound::Included(-0.0),
            Bound::Excluded(-0.0),
            Bound::Included(0.0),
            Bound::Excluded(0.0),
            Bound::Included(1.5),
            Bound::Excluded(1.5),
            Bound::Included(-2.0),
            Bound::Excluded(7.99),
            Bound::Included(f64::MAX),
            Bound::Excluded(f64::MIN),
        ];
        let check = |searcher: &tantivy::Searcher| {
            // Every segment is counted from its ranks, not by tantivy's walk.
            for reader in searcher.segment_readers() {
                let column = reader.fast_fields().column_opt::<f64>("x").unwrap().unwrap();
                assert!(DoubleRanks::of(reader.segment_id(), "x", &column).is_some());
                assert!(deleted_docs(reader).len() as u32 <= reader.max_doc() / MAX_DELETED_SHARE);
            }
            for lower in bounds {
                for upper in bounds {
                    if (lower, upper) == (Bound::Unbounded, Bound::Unbounded) {
                        continue; // tantivy's range query needs a bound (the lowering gives two)
                    }
                    let ours = DoubleRangeQuery::new(x, "x".into(), lower, upper);
                    let weight = ours.weight(EnableScoring::disabled_from_searcher(searcher)).unwrap();
                    let counted: u32 = searcher.segment_readers().iter().map(|r| weight.count(r).unwrap()).sum();
                    // The matches as tantivy's own query finds them, one by one.
                    let theirs = searcher.search(&ours.inner, &TopDocs::with_limit(10_000).order_by_score()).unwrap();
                    assert_eq!(counted as usize, theirs.len(), "{lower:?}..{upper:?}");
                }
            }
        };
        check(&index.reader().unwrap().searcher());
        writer.delete_term(Term::from_field_f64(x, 0.0));
        writer.delete_term(Term::from_field_f64(x, 1.5));
        writer.commit().unwrap();
        check(&index.reader().unwrap().searcher());
    }
}
