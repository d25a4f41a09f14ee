//! Date histograms (fixed, calendar, auto) without sub-aggregations over a column with at most
//! one value per document, collected a block at a time: the block's values come from one bulk
//! column read, and consecutive documents in the same bucket (time-ordered data puts whole
//! runs there) add to it once, not one hash lookup each. With the column's zone map, a block
//! whose whole value range lies in one bucket adds its matches without reading any value.

use tantivy::columnar::Cardinality;
use tantivy::DocId;

use super::key_hasher::KeyMap;
use super::{Accessor, Plan, SegBucket};
use crate::columns::zone_map::BLOCK_ROWS;

/// Counts `docs` into `buckets`; false (nothing counted) when the plan does not qualify.
pub(super) fn collect_date_block(
    plan: &Plan,
    buckets: &mut KeyMap<SegBucket>,
    docs: &[DocId],
    values: &mut Vec<Option<i64>>,
) -> bool {
    let Accessor::I64(column) = &plan.accessor else { return false };
    let plain = plan.subs.is_empty() && plan.filters.is_none() && plan.sampler.is_none();
    if !plain || !plan.is_date_histogram() || column.get_cardinality() == Cardinality::Multivalued {
        return false;
    }
    let Some(zones) = &plan.zones else {
        count_values(plan, buckets, docs, values);
        return true;
    };
    // Documents of one zone-map block whose least and greatest values fall in the same bucket
    // all do: they count at once, without reading a value (most blocks of time-ordered data).
    let mut at = 0;
    while at < docs.len() {
        let block = docs[at] / BLOCK_ROWS;
        let end = at + docs[at..].partition_point(|d| d / BLOCK_ROWS == block);
        let (min, max) = zones.bounds(block as usize);
        match (date_key(plan, min), date_key(plan, max)) {
            (Some(low), Some(high)) if low == high => {
                add(plan, buckets, low, (end - at) as u64);
            }
            _ => count_values(plan, buckets, &docs[at..end], values),
        }
        at = end;
    }
    true
}

/// Counts `docs` by reading their values in one bulk column read. Consecutive values inside
/// the current bucket's [start, end) only add to a run (two compares each), so rounding and
/// the bucket lookup happen once per run.
fn count_values(plan: &Plan, buckets: &mut KeyMap<SegBucket>, docs: &[DocId], values: &mut Vec<Option<i64>>) {
    let Accessor::I64(column) = &plan.accessor else { return };
    values.clear();
    values.resize(docs.len(), None);
    column.first_vals(docs, values);
    // (key, start, end, docs so far)
    let mut run: Option<(u64, i64, i64, u64)> = None;
    for &value in values.iter().flatten() {
        if let Some((_, start, end, n)) = &mut run {
            if value >= *start && value < *end {
                *n += 1;
                continue;
            }
        }
        // Added before keying the next value: a new bucket may coarsen auto_date_histogram.
        if let Some((key, _, _, n)) = run.take() {
            add(plan, buckets, key, n);
        }
        run = plan.date_bucket(value).map(|(key, start, end)| (key, start, end, 1));
    }
    if let Some((key, _, _, n)) = run {
        add(plan, buckets, key, n);
    }
}

/// The bucket key of one value (none past `hard_bounds`).
fn date_key(plan: &Plan, ms: i64) -> Option<u64> {
    plan.date_bucket(ms).map(|(key, _, _)| key)
}

/// Adds `n` documents to the bucket (a new one may coarsen auto_date_histogram's rung).
fn add(plan: &Plan, buckets: &mut KeyMap<SegBucket>, key: u64, n: u64) {
    let mut created = false;
    buckets
        .entry(key)
        .or_insert_with(|| {
            created = true;
            SegBucket { count: 0, subs: Vec::new() }
        })
        .count += n;
    if let (true, Some(auto)) = (created, &plan.auto) {
        auto.bucket_created(key, buckets, |into, from| into.count += from.count);
    }
}
