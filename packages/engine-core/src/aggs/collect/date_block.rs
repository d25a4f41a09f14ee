//! Date histograms (fixed, calendar, auto) without sub-aggregations over a column with at most
//! one value per document, collected a block at a time: the block's values come from one bulk
//! column read, and consecutive documents in the same bucket (time-ordered data puts whole
//! runs there) add to it once, not one hash lookup each. With the column's zone map, a block
//! whose whole value range lies in one bucket adds its matches without reading any value.

use tantivy::columnar::Cardinality;
use tantivy::DocId;

use super::super::key_hasher::KeyMap;
use super::{Accessor, Plan, SegBucket};
use crate::zone_map::BLOCK_ROWS;

/// Counts `docs` into `buckets`; false (nothing counted) when the plan does not qualify.
pub(super) fn collect_date_block(
    plan: &Plan,
    buckets: &mut KeyMap<SegBucket>,
    docs: &[DocId],
    values: &mut Vec<Option<i64>>,
    keys: &mut Vec<u64>,
) -> bool {
    let Accessor::I64(column) = &plan.accessor else { return false };
    let plain = plan.subs.is_empty() && plan.filters.is_none() && plan.sampler.is_none();
    if !plain || !plan.is_date_histogram() || column.get_cardinality() == Cardinality::Multivalued {
        return false;
    }
    let Some(zones) = &plan.zones else {
        count_values(plan, buckets, docs, values, keys);
        return true;
    };
    // Documents of one zone-map block whose least and greatest values fall in the same bucket
    // all do: they count at once, without reading a value (most blocks of time-ordered data).
    let mut at = 0;
    while at < docs.len() {
        let block = docs[at] / BLOCK_ROWS;
        let end = at + docs[at..].partition_point(|d| d / BLOCK_ROWS == block);
        let (min, max) = zones.bounds(block as usize);
        match (date_key(plan, min, keys), date_key(plan, max, keys)) {
            (Some(low), Some(high)) if low == high => {
                add(plan, buckets, low, (end - at) as u64);
            }
            _ => count_values(plan, buckets, &docs[at..end], values, keys),
        }
        at = end;
    }
    true
}

/// Counts `docs` by reading their values in one bulk column read.
fn count_values(
    plan: &Plan,
    buckets: &mut KeyMap<SegBucket>,
    docs: &[DocId],
    values: &mut Vec<Option<i64>>,
    keys: &mut Vec<u64>,
) {
    let Accessor::I64(column) = &plan.accessor else { return };
    values.clear();
    values.resize(docs.len(), None);
    column.first_vals(docs, values);
    let mut run: Option<(u64, u64)> = None;
    for value in values.iter().flatten() {
        let mut key = date_key(plan, *value, keys);
        if let (Some((run_key, n)), Some(k)) = (run, key) {
            if k == run_key {
                run = Some((run_key, n + 1));
                continue;
            }
        }
        if let Some((run_key, n)) = run.take() {
            if add(plan, buckets, run_key, n) {
                // A new bucket may have coarsened auto_date_histogram's rounding: key again.
                key = date_key(plan, *value, keys);
            }
        }
        run = key.map(|k| (k, 1));
    }
    if let Some((run_key, n)) = run {
        add(plan, buckets, run_key, n);
    }
}

/// The bucket key of one value (none past `hard_bounds`).
fn date_key(plan: &Plan, ms: i64, keys: &mut Vec<u64>) -> Option<u64> {
    keys.clear();
    plan.push_date_key(ms, keys);
    keys.first().copied()
}

/// Adds `n` documents to the bucket; true when it was created.
fn add(plan: &Plan, buckets: &mut KeyMap<SegBucket>, key: u64, n: u64) -> bool {
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
    created
}
