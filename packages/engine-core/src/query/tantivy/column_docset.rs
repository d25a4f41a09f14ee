//! The documents whose single i64 column value lies in a range, for a column with exactly
//! one value per document (row = doc id).
//!
//! It plays both parts a range has in a query, like Lucene's `IndexOrDocValuesQuery`:
//! - leading (`advance`): the column is filtered 1,024 rows at a time, skipping or taking
//!   whole blocks when the segment has a zone map (`zone_map.rs`);
//! - following in an intersection (`seek_danger`, how tantivy's intersection probes its other
//!   clauses): one value is read and compared. A rare term AND a wide latency range then costs
//!   one lookup per term match, not a scan of the whole column (`perf` of the `query_string`
//!   row: 64% in the column scan of `latency_ms:[1000 TO *]`).

use std::ops::RangeInclusive;
use std::sync::Arc;

use tantivy::columnar::Column;
use tantivy::query::Scorer;
use tantivy::{DocId, DocSet, Score, SeekDangerResult, TERMINATED};
use tantivy_common::TinySet;

use crate::columns::packed_values::append_column_rows_in_range;
use crate::columns::zone_map::{BlockMatch, ZoneMap, BLOCK_ROWS};

/// Rows filtered per refill when leading: 8 zone-map blocks.
const SCAN_ROWS: u32 = 8 * BLOCK_ROWS;

pub struct ColumnRangeDocSet {
    column: Column<i64>,
    /// Clamped to the column's values (see `zone_map::clamp`).
    range: RangeInclusive<i64>,
    map: Option<Arc<ZoneMap>>,
    rows: u32,
    /// The first row not yet filtered into `buffer`.
    next_row: u32,
    /// Matching docs of the last filtered stretch, and the position in it.
    buffer: Vec<DocId>,
    /// Reused by `filter_rows` (see `append_column_rows_in_range`).
    scratch: Vec<DocId>,
    pos: usize,
    /// Estimated matches, for the intersection's choice of a leading clause.
    estimate: u32,
    /// Every match's score (the doc set is its own constant scorer: tantivy's `ConstScorer`
    /// would hide `fill_bitset_block`).
    score: Score,
    /// False after a `seek_danger` miss: `buffer` is empty and `doc()` means nothing until the
    /// next hit or `seek`.
    valid: bool,
}

impl ColumnRangeDocSet {
    /// Positioned on the first match, as tantivy's doc sets are.
    pub fn new(
        column: Column<i64>,
        range: RangeInclusive<i64>,
        map: Option<Arc<ZoneMap>>,
        score: Score,
    ) -> ColumnRangeDocSet {
        let rows = column.values.num_vals();
        let estimate = estimate(&column, &range, map.as_deref(), rows);
        let mut set = ColumnRangeDocSet {
            column,
            range,
            map,
            rows,
            next_row: 0,
            buffer: Vec::with_capacity(BLOCK_ROWS as usize),
            scratch: Vec::new(),
            pos: 0,
            estimate,
            score,
            valid: true,
        };
        set.load_next();
        set
    }

    /// Filters the stretches after `next_row` until one holds a match (or the rows end).
    fn load_next(&mut self) {
        self.valid = true;
        self.buffer.clear();
        self.pos = 0;
        while self.buffer.is_empty() && self.next_row < self.rows {
            let start = self.next_row;
            let end = ((start / SCAN_ROWS + 1) * SCAN_ROWS).min(self.rows);
            self.next_row = end;
            let (mut buffer, mut scratch) = (std::mem::take(&mut self.buffer), std::mem::take(&mut self.scratch));
            self.filter_rows(start, end, &mut buffer, &mut scratch);
            (self.buffer, self.scratch) = (buffer, scratch);
        }
    }

    /// Appends the matching rows of `[from, to)`: blocks the zone map rules out are skipped,
    /// blocks wholly inside are taken, and each run of other blocks is filtered in one call.
    fn filter_rows(&self, from: u32, to: u32, out: &mut Vec<DocId>, scratch: &mut Vec<DocId>) {
        let Some(map) = &self.map else {
            return append_column_rows_in_range(&self.column, &self.range, from..to, out, scratch);
        };
        let mut run_start = None;
        let mut row = from;
        while row < to {
            let block_end = ((row / BLOCK_ROWS + 1) * BLOCK_ROWS).min(to);
            match map.classify((row / BLOCK_ROWS) as usize, &self.range) {
                Some(BlockMatch::Some(_)) => {
                    run_start.get_or_insert(row);
                }
                other => {
                    if let Some(start) = run_start.take() {
                        map.append_rows_in_range(&self.column, &self.range, start..row, out, scratch);
                    }
                    if let Some(BlockMatch::All(_)) = other {
                        out.extend(row..block_end);
                    }
                }
            }
            row = block_end;
        }
        if let Some(start) = run_start {
            map.append_rows_in_range(&self.column, &self.range, start..to, out, scratch);
        }
    }

    fn matches(&self, doc: DocId) -> bool {
        self.range.contains(&self.column.values.get_val(doc))
    }
}

/// Matches expected: the candidate blocks' rows with a zone map (straddling blocks at half),
/// else the range's share of the column's span.
fn estimate(column: &Column<i64>, range: &RangeInclusive<i64>, map: Option<&ZoneMap>, rows: u32) -> u32 {
    if let Some(map) = map {
        return (0..map.num_blocks())
            .filter_map(|b| map.classify(b, range))
            .map(|m| match m {
                BlockMatch::All(r) => r.len() as u32,
                BlockMatch::Some(r) => r.len() as u32 / 2,
            })
            .sum();
    }
    let span = (column.max_value() as f64 - column.min_value() as f64).max(1.0);
    let share = ((*range.end() as f64 - *range.start() as f64 + 1.0) / span).clamp(0.0, 1.0);
    (rows as f64 * share).ceil() as u32
}

impl DocSet for ColumnRangeDocSet {
    fn advance(&mut self) -> DocId {
        self.pos += 1;
        if self.pos >= self.buffer.len() {
            self.load_next();
        }
        self.doc()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.valid && self.doc() >= target {
            return self.doc();
        }
        if !self.valid || self.buffer.last().is_none_or(|last| *last < target) {
            // Nothing before the target needs filtering.
            self.next_row = self.next_row.max(target.min(self.rows));
            self.load_next();
        }
        while self.doc() < target {
            let rest = &self.buffer[self.pos..];
            let skip = rest.partition_point(|d| *d < target);
            if skip < rest.len() {
                self.pos += skip;
            } else {
                self.load_next();
            }
        }
        self.doc()
    }

    /// Checks the one value at `target` unless the filtered stretch already covers it.
    fn seek_danger(&mut self, target: DocId) -> SeekDangerResult {
        if self.valid && self.buffer.last().is_some_and(|last| *last >= target) {
            let rest = &self.buffer[self.pos..];
            self.pos += rest.partition_point(|d| *d < target);
            let doc = self.doc();
            return if doc == target { SeekDangerResult::Found } else { SeekDangerResult::SeekLowerBound(doc) };
        }
        if target >= self.rows {
            return SeekDangerResult::SeekLowerBound(TERMINATED);
        }
        self.buffer.clear();
        self.pos = 0;
        if let Some(map) = &self.map {
            // A block that cannot match moves the lower bound to the next block.
            if map.classify((target / BLOCK_ROWS) as usize, &self.range).is_none() {
                self.valid = false;
                self.next_row = self.next_row.max((target / BLOCK_ROWS + 1) * BLOCK_ROWS).min(self.rows);
                return SeekDangerResult::SeekLowerBound(self.next_row.max(target + 1));
            }
        }
        self.next_row = target + 1;
        if self.matches(target) {
            self.valid = true;
            self.buffer.push(target);
            SeekDangerResult::Found
        } else {
            self.valid = false;
            SeekDangerResult::SeekLowerBound(target + 1)
        }
    }

    /// The matches in `[min_doc, min_doc + 1024)` as bits, filtered in bulk (tantivy's dense
    /// intersection count asks every clause for these windows; the default would `advance`
    /// through each match). Leaves the doc set on its first match past the window.
    fn fill_bitset_block(&mut self, min_doc: DocId, mask: &mut [TinySet; 16]) -> DocId {
        let window_end = min_doc.saturating_add(16 * 64);
        let mut set = |doc: DocId| {
            mask[((doc - min_doc) / 64) as usize].insert_mut((doc - min_doc) % 64);
        };
        let mut from = min_doc;
        if self.valid {
            let rest = &self.buffer[self.pos.min(self.buffer.len())..];
            let lo = rest.partition_point(|d| *d < min_doc);
            let hi = rest.partition_point(|d| *d < window_end);
            rest[lo..hi].iter().for_each(|d| set(*d));
            if hi < rest.len() {
                // Already filtered past the window: stay on the first match there.
                self.pos += hi;
                return self.doc();
            }
            from = from.max(self.next_row);
        }
        // Filter the window and look ahead to the next scan boundary in one go: the next
        // window finds its matches in the buffer.
        let end = ((window_end.min(self.rows) / SCAN_ROWS + 1) * SCAN_ROWS).min(self.rows);
        let (mut buffer, mut scratch) = (std::mem::take(&mut self.buffer), std::mem::take(&mut self.scratch));
        buffer.clear();
        if from < end {
            self.filter_rows(from, end, &mut buffer, &mut scratch);
        }
        (self.buffer, self.scratch) = (buffer, scratch);
        self.pos = 0;
        self.valid = true;
        self.next_row = self.next_row.max(end);
        let in_window = self.buffer.partition_point(|d| *d < window_end);
        self.buffer[..in_window].iter().for_each(|d| set(*d));
        self.pos = in_window;
        if self.pos >= self.buffer.len() {
            self.load_next();
        }
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.buffer.get(self.pos).copied().unwrap_or(TERMINATED)
    }

    fn size_hint(&self) -> u32 {
        self.estimate
    }
}

impl Scorer for ColumnRangeDocSet {
    fn score(&mut self) -> Score {
        self.score
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Bound;

    use tantivy::collector::Count;
    use tantivy::query::{BooleanQuery, Occur, Query, RangeQuery, TermQuery};
    use tantivy::schema::IndexRecordOption;
    use tantivy::Term;

    use crate::columns::zone_map::fixture::{docs, time_ordered_index};
    use crate::query::tantivy::column_range::ColumnRangeQuery;

    #[test]
    fn leads_follows_and_counts_like_the_range_query() {
        let index = time_ordered_index();
        let schema = index.schema();
        let searcher = index.reader().unwrap().searcher();
        assert_eq!(searcher.segment_readers().len(), 1);
        let cases = [
            ("ts", 0i64, 99),
            ("ts", 5_000, 90_000),
            ("ts", 119_990, 140_000),
            ("ts", -10, 5),
            ("ts", 250_000, 400_000),
            ("ts", i64::MIN, i64::MAX),
            ("ts", 7, 6),
            ("lat", 1_000, i64::MAX),
            ("lat", 0, 30),
            ("lat", 5_000, 5_000),
        ];
        for (name, lo, hi) in cases {
            let field = schema.get_field(name).unwrap();
            let ours = ColumnRangeQuery::new(field, name.into(), lo, hi);
            let theirs = RangeQuery::new(
                Bound::Included(Term::from_field_i64(field, lo)),
                Bound::Included(Term::from_field_i64(field, hi)),
            );
            let expected = docs(&searcher, &theirs);
            assert_eq!(docs(&searcher, &ours), expected, "{name} [{lo}, {hi}]");
            assert_eq!(ours.count(&searcher).unwrap(), expected.len(), "{name} [{lo}, {hi}]");
            assert_eq!(searcher.search(&ours, &Count).unwrap(), expected.len());
            // A common term (the range may lead) and a rare one (the range follows by seek_danger).
            for (term_field, value) in [("k", 3i64), ("r", 5)] {
                let term = Term::from_field_i64(schema.get_field(term_field).unwrap(), value);
                let with = |q: Box<dyn Query>| {
                    BooleanQuery::new(vec![
                        (Occur::Must, q),
                        (Occur::Must, Box::new(TermQuery::new(term.clone(), IndexRecordOption::Basic))),
                    ])
                };
                let expected = docs(&searcher, &with(Box::new(theirs.clone())));
                let ours_and = with(Box::new(ours.clone()));
                assert_eq!(docs(&searcher, &ours_and), expected, "{name} [{lo}, {hi}] and {term_field}");
                // Counting takes tantivy's dense bit-window path when the leading clause is common.
                assert_eq!(
                    ours_and.count(&searcher).unwrap(),
                    expected.len(),
                    "count {name} [{lo}, {hi}] and {term_field}"
                );
            }
        }
    }
}
