//! Date histograms (fixed, calendar, auto) over a column with at most one value per document,
//! collected a block at a time: the block's values come from one bulk column read, and
//! consecutive documents in the same bucket (time-ordered data puts whole runs there) add to it
//! once, not one hash lookup each. With the column's zone map, a block whose whole value range
//! lies in one bucket adds its matches without reading any value. Sub-aggregations take each
//! run of documents at once (numeric metrics through one bulk read per run, `numeric_block.rs`;
//! others document by document), so a daily sum of a field no longer costs a bucket lookup and
//! a value iterator per document. Runs keep document order, so sums come out the same bits.

use tantivy::columnar::Cardinality;
use tantivy::DocId;

use super::key_hasher::KeyMap;
use super::keyed_block::is_pipeline;
use super::numeric_block::{collect_numeric_block, BlockValues};
use super::state::new_state;
use super::{collect_into, Accessor, Plan, SegBucket};
use crate::columns::zone_map::BLOCK_ROWS;

/// Buffers reused across blocks.
pub(super) struct Scratch<'a> {
    pub values: &'a mut Vec<Option<i64>>,
    pub numeric: &'a mut BlockValues,
    pub keys: &'a mut Vec<u64>,
}

/// Collects `docs` into `buckets`; false (nothing collected) when the plan does not qualify.
pub(super) fn collect_date_block(
    plan: &Plan,
    buckets: &mut KeyMap<SegBucket>,
    docs: &[DocId],
    scratch: &mut Scratch,
) -> bool {
    let Accessor::I64(column) = &plan.accessor else { return false };
    // auto_date_histogram merges buckets as it coarsens, which only counts can do.
    let subs_ok = plan.subs.is_empty() || plan.auto.is_none();
    let plain = subs_ok && plan.filters.is_none() && plan.sampler.is_none();
    if !plain || !plan.is_date_histogram() || column.get_cardinality() == Cardinality::Multivalued {
        return false;
    }
    let Some(zones) = &plan.zones else {
        collect_values(plan, buckets, docs, scratch);
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
            (Some(low), Some(high)) if low == high => add_run(plan, buckets, low, &docs[at..end], scratch),
            _ => collect_values(plan, buckets, &docs[at..end], scratch),
        }
        at = end;
    }
    true
}

/// Collects `docs` by reading their values in one bulk column read. Consecutive values inside
/// the current bucket's [start, end) only extend a run (two compares each), so rounding, the
/// bucket lookup and the sub-aggregations' reads happen once per run.
fn collect_values(plan: &Plan, buckets: &mut KeyMap<SegBucket>, docs: &[DocId], scratch: &mut Scratch) {
    let Accessor::I64(column) = &plan.accessor else { return };
    let mut values = std::mem::take(scratch.values);
    values.clear();
    values.resize(docs.len(), None);
    column.first_vals(docs, &mut values);
    // (key, start, end, index of the run's first document)
    let mut run: Option<(u64, i64, i64, usize)> = None;
    for (i, value) in values.iter().enumerate() {
        if let (Some((_, start, end, _)), Some(value)) = (&run, value) {
            if value >= start && value < end {
                continue;
            }
        }
        // Added before keying the next value: a new bucket may coarsen auto_date_histogram.
        if let Some((key, _, _, first)) = run.take() {
            add_run(plan, buckets, key, &docs[first..i], scratch);
        }
        // A document without a value is in no bucket: it ends the run and starts none.
        run = value.and_then(|v| plan.date_bucket(v)).map(|(key, start, end)| (key, start, end, i));
    }
    if let Some((key, _, _, first)) = run {
        add_run(plan, buckets, key, &docs[first..], scratch);
    }
    *scratch.values = values;
}

/// The bucket key of one value (none past `hard_bounds`).
fn date_key(plan: &Plan, ms: i64) -> Option<u64> {
    plan.date_bucket(ms).map(|(key, _, _)| key)
}

/// Adds `docs` to the bucket and its sub-aggregations, pipelines aside (they collect nothing; a
/// new bucket may coarsen auto_date_histogram's rung, which has no sub-aggregations here).
pub(super) fn add_run(plan: &Plan, buckets: &mut KeyMap<SegBucket>, key: u64, docs: &[DocId], scratch: &mut Scratch) {
    let mut created = false;
    let bucket = buckets.entry(key).or_insert_with(|| {
        created = true;
        SegBucket { count: 0, subs: plan.subs.iter().map(new_state).collect() }
    });
    bucket.count += docs.len() as u64;
    for (sub_plan, sub_state) in plan.subs.iter().zip(bucket.subs.iter_mut()).filter(|(sub, _)| !is_pipeline(sub)) {
        if !collect_numeric_block(sub_plan, sub_state, docs, scratch.numeric) {
            for &doc in docs {
                collect_into(sub_plan, sub_state, doc, 0.0, scratch.keys);
            }
        }
    }
    if let (true, Some(auto)) = (created, &plan.auto) {
        auto.bucket_created(key, buckets, |into, from| into.count += from.count);
    }
}
