//! Keyword `terms` and numeric `range` buckets whose sub-aggregations are all numeric metrics
//! (min, max, sum, avg, stats, extended_stats, value_count) over columns with at most one value
//! per document, or pipelines (which collect nothing), collected a block at a time: the block's bucket keys come from one bulk read
//! of the bucketing column, and each metric's values from one bulk read of its column, instead
//! of an ordinal or value iterator per document and per sub-aggregation (a column-index lookup
//! and a dynamic call each, most of a terms-with-averages request in the profile). Each metric
//! still adds its values in document order, so sums come out the same bits as one by one.

use tantivy::columnar::Cardinality;
use tantivy::DocId;

use super::key_hasher::KeyMap;
use super::numeric_block::{read, single_valued};
use super::state::new_state;
use super::{mask_keys, Accessor, Plan, SegBucket, SegState};
use crate::aggs::request::AggKind;
use crate::store::value_format::AggMissing;

/// Ranges at most: their buckets are taken out of the map into a slot per range for a block.
const MAX_RANGES: usize = 16;

/// Buffers reused across blocks.
#[derive(Default)]
pub(super) struct KeyedScratch {
    ints: Vec<Option<i64>>,
    floats: Vec<Option<f64>>,
    ords: Vec<Option<u64>>,
    /// Each document's bucket word: a term ordinal, or the bit set of the ranges holding it.
    words: Vec<Option<u64>>,
    /// One sub-aggregation's value per document of the block.
    values: Vec<Option<f64>>,
}

/// Collects `docs` into a terms or range `state` with metric sub-aggregations; false (nothing
/// collected) when the plan does not qualify.
pub(super) fn collect_keyed_block(
    plan: &Plan,
    state: &mut SegState,
    docs: &[DocId],
    scratch: &mut KeyedScratch,
) -> bool {
    let plain = !plan.subs.is_empty()
        && plan.filters.is_none()
        && plan.sampler.is_none()
        && plan.columns.is_none()
        && plan.missing.is_none()
        && !plan.is_date_histogram()
        && plan.subs.iter().all(|sub| is_pipeline(sub) || block_metric(sub));
    if !plain {
        return false;
    }
    match state {
        SegState::Dense { counts, subs } => collect_terms(plan, counts, subs, docs, scratch),
        SegState::Buckets(buckets) => collect_ranges(plan, buckets, docs, scratch),
        _ => false,
    }
}

/// Pipelines collect nothing: they are computed from the rendered buckets.
pub(super) fn is_pipeline(sub: &Plan) -> bool {
    matches!(sub.kind, AggKind::Pipeline(_))
}

/// A numeric metric over a single-valued numeric column: its block reads one value per document.
fn block_metric(sub: &Plan) -> bool {
    let simple = matches!(sub.kind, AggKind::Metric { .. })
        && sub.subs.is_empty()
        && sub.filters.is_none()
        && sub.sampler.is_none()
        && sub.columns.is_none()
        && sub.missing.as_ref().is_none_or(|m| m.as_f64().is_some());
    simple && single_numeric(&sub.accessor)
}

/// A numeric column with at most one value per document.
fn single_numeric(accessor: &Accessor) -> bool {
    match accessor {
        Accessor::I64(c) => single_valued(c),
        Accessor::F64(c) => single_valued(c),
        _ => false,
    }
}

fn collect_terms(
    plan: &Plan,
    counts: &mut [u64],
    states: &mut [Option<Vec<SegState>>],
    docs: &[DocId],
    scratch: &mut KeyedScratch,
) -> bool {
    let Accessor::Str(column) = &plan.accessor else { return false };
    let column = column.ords();
    if column.get_cardinality() == Cardinality::Multivalued {
        return false;
    }
    read(column, docs, &mut scratch.ords);
    for ord in scratch.ords.iter().flatten() {
        counts[*ord as usize] += 1;
        states[*ord as usize].get_or_insert_with(|| plan.subs.iter().map(new_state).collect());
    }
    for (i, sub) in plan.subs.iter().enumerate().filter(|(_, sub)| !is_pipeline(sub)) {
        sub_values(sub, docs, scratch);
        for (ord, value) in scratch.ords.iter().zip(&scratch.values) {
            if let (Some(ord), Some(value)) = (ord, value) {
                if let Some(SegState::Metric(metric)) = states[*ord as usize].as_mut().map(|s| &mut s[i]) {
                    metric.add(*value);
                }
            }
        }
    }
    true
}

fn collect_ranges(plan: &Plan, buckets: &mut KeyMap<SegBucket>, docs: &[DocId], scratch: &mut KeyedScratch) -> bool {
    let ranges = match &plan.kind {
        AggKind::Range { ranges, .. } if ranges.len() <= MAX_RANGES => ranges.len(),
        _ => return false,
    };
    if !single_numeric(&plan.accessor) {
        return false;
    }
    plan_values(&plan.accessor, docs, scratch);
    scratch.words.clear();
    scratch.words.extend(scratch.values.iter().map(|v| v.and_then(|v| plan.numeric_word(v))));
    // The block's buckets by range index, out of the map until the block is added.
    let mut slots: Vec<Option<SegBucket>> = (0..ranges as u64).map(|key| buckets.remove(&key)).collect();
    for word in scratch.words.iter().flatten() {
        for key in mask_keys(*word) {
            slots[key as usize]
                .get_or_insert_with(|| SegBucket { count: 0, subs: plan.subs.iter().map(new_state).collect() })
                .count += 1;
        }
    }
    for (i, sub) in plan.subs.iter().enumerate().filter(|(_, sub)| !is_pipeline(sub)) {
        sub_values(sub, docs, scratch);
        for (word, value) in scratch.words.iter().zip(&scratch.values) {
            if let (Some(word), Some(value)) = (word, value) {
                for key in mask_keys(*word) {
                    if let Some(SegState::Metric(metric)) = slots[key as usize].as_mut().map(|b| &mut b.subs[i]) {
                        metric.add(*value);
                    }
                }
            }
        }
    }
    for (key, slot) in slots.into_iter().enumerate() {
        if let Some(bucket) = slot {
            buckets.insert(key as u64, bucket);
        }
    }
    true
}

/// A sub-aggregation's value for each document of the block (its `missing` value where the
/// document has none), into `scratch.values`.
fn sub_values(sub: &Plan, docs: &[DocId], scratch: &mut KeyedScratch) {
    plan_values(&sub.accessor, docs, scratch);
    if let Some(missing) = sub.missing.as_ref().and_then(AggMissing::as_f64) {
        scratch.values.iter_mut().filter(|v| v.is_none()).for_each(|v| *v = Some(missing));
    }
}

/// The accessor's value for each document of the block, as f64, into `scratch.values`.
fn plan_values(accessor: &Accessor, docs: &[DocId], scratch: &mut KeyedScratch) {
    scratch.values.clear();
    match accessor {
        Accessor::I64(column) => {
            read(column, docs, &mut scratch.ints);
            scratch.values.extend(scratch.ints.iter().map(|v| v.map(|v| v as f64)));
        }
        Accessor::F64(column) => {
            read(column, docs, &mut scratch.floats);
            scratch.values.extend_from_slice(&scratch.floats);
        }
        _ => scratch.values.resize(docs.len(), None),
    }
}
