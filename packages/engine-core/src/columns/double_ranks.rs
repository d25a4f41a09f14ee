//! A segment's document ids in the order of one double column's values, so a `range` on the
//! column is counted with two binary searches instead of visiting every match.
//!
//! A double's range query matches through tantivy's column doc set, and with exact totals its
//! count walks each match (about 14 ns a match: 23 ms for 1.6M of 10M documents). Lucene counts
//! the same range from its BKD tree. The ranks cost 4 bytes per document and one sort of the
//! column, on first use per segment; values order as tantivy's and Lucene's double terms do
//! (`f64::total_cmp`: -0.0 before 0.0).

use std::ops::Bound;
use std::sync::Arc;

use tantivy::columnar::{Column, ColumnIndex};
use tantivy::index::SegmentId;

use super::partition_point;
use super::segment_cache::SegmentCache;

/// Documents' worth of ranks kept (4 bytes each: 64 MiB), across every segment and column.
const CACHE_DOCS: usize = 16 << 20;

/// Document ids by ascending value of a column with exactly one value per document.
pub struct DoubleRanks {
    docs: Vec<u32>,
}

impl DoubleRanks {
    fn build(column: &Column<f64>) -> DoubleRanks {
        let rows = column.values.num_vals();
        let mut values = vec![0f64; rows as usize];
        column.values.get_range(0, &mut values);
        let mut docs: Vec<u32> = (0..rows).collect();
        docs.sort_unstable_by(|&a, &b| values[a as usize].total_cmp(&values[b as usize]).then(a.cmp(&b)));
        DoubleRanks { docs }
    }

    /// The cached ranks of a segment's column; `None` unless every document has one value.
    pub fn of(segment: SegmentId, name: &str, column: &Column<f64>) -> Option<Arc<DoubleRanks>> {
        if !matches!(column.index, ColumnIndex::Full) {
            return None;
        }
        static CACHE: SegmentCache<DoubleRanks> = SegmentCache::new(CACHE_DOCS, |ranks| ranks.docs.len());
        CACHE.get_or_build(segment, name, || DoubleRanks::build(column))
    }

    /// Documents (deleted ones included) whose value lies between the bounds.
    pub fn count(&self, column: &Column<f64>, lower: Bound<f64>, upper: Bound<f64>) -> u32 {
        let value = |i: usize| column.values.get_val(self.docs[i]);
        // Documents whose value is below `x` (or at most `x` when `inclusive`).
        let below = |x: f64, inclusive: bool| {
            partition_point(self.docs.len(), |i| {
                let order = value(i).total_cmp(&x);
                order.is_lt() || (inclusive && order.is_eq())
            })
        };
        let end = match upper {
            Bound::Included(x) => below(x, true),
            Bound::Excluded(x) => below(x, false),
            Bound::Unbounded => self.docs.len(),
        };
        let start = match lower {
            Bound::Included(x) => below(x, false),
            Bound::Excluded(x) => below(x, true),
            Bound::Unbounded => 0,
        };
        end.saturating_sub(start) as u32
    }
}
