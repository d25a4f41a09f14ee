//! Numeric metrics (min, max, sum, avg, stats, extended_stats, value_count) and `histogram` /
//! `range` buckets without sub-aggregations, over a column with at most one value per
//! document, collected a block at a time: one bulk column read per block instead of a
//! per-document value iterator (a dynamic call and a column-index lookup for each document).
//! Values are added in document order, so sums come out the same bits as one by one.
//! Consecutive values in one histogram bucket or range set add to it once.

use tantivy::columnar::{Cardinality, Column};
use tantivy::DocId;

use super::key_hasher::KeyMap;
use super::{mask_keys, Accessor, Plan, SegBucket, SegState};
use crate::aggs::request::AggKind;

/// Column values of one block, reused across blocks.
#[derive(Default)]
pub(super) struct BlockValues {
    ints: Vec<Option<i64>>,
    floats: Vec<Option<f64>>,
}

/// Collects `docs` into `state`; false (nothing collected) when the plan does not qualify.
pub(super) fn collect_numeric_block(
    plan: &Plan,
    state: &mut SegState,
    docs: &[DocId],
    values: &mut BlockValues,
) -> bool {
    let plain = plan.subs.is_empty()
        && plan.filters.is_none()
        && plan.sampler.is_none()
        && plan.columns.is_none()
        && plan.missing.is_none();
    if !plain || plan.is_date_histogram() {
        return false;
    }
    match state {
        SegState::Metric(metric) => for_each_value(&plan.accessor, docs, values, |v| metric.add(v)),
        SegState::Buckets(buckets) if matches!(plan.kind, AggKind::Histogram { .. } | AggKind::Range { .. }) => {
            // Runs of values in the same buckets add once. The run test compares one word per
            // value (`Plan::numeric_word`): building and comparing key vectors here cost ~65 ns
            // a value and made date_range 8x slower (block_aggs_bench).
            if plan.numeric_word(0.0).is_none() {
                return false;
            }
            let histogram = matches!(plan.kind, AggKind::Histogram { .. });
            if let Some(counted) = integer_histogram(plan, buckets, docs, values) {
                return counted;
            }
            let (mut run, mut run_docs) = (0u64, 0u64);
            let counted = for_each_value(&plan.accessor, docs, values, |v| {
                let word = plan.numeric_word(v).unwrap_or_default();
                if run_docs > 0 && word == run {
                    run_docs += 1;
                    return;
                }
                if run_docs > 0 {
                    add(buckets, histogram, run, run_docs);
                }
                (run, run_docs) = (word, 1);
            });
            if run_docs > 0 {
                add(buckets, histogram, run, run_docs);
            }
            counted
        }
        _ => false,
    }
}

/// A histogram with a whole interval and offset over an integer column: each value's bucket
/// by integer floor division instead of `f64` division and `floor` (a libm call here, 12% of a
/// histogram request's CPU under `perf`). The key is then `index * interval + offset` in
/// `f64`, the same operations `histogram::bucket_key` applies to the same floored quotient, so
/// the same bits: below 2^52 a quotient of integers is never rounded onto the next integer.
/// `None` when the aggregation or the column does not qualify.
fn integer_histogram(
    plan: &Plan,
    buckets: &mut KeyMap<SegBucket>,
    docs: &[DocId],
    values: &mut BlockValues,
) -> Option<bool> {
    let (AggKind::Histogram { interval, opts, .. }, Accessor::I64(column)) = (&plan.kind, &plan.accessor) else {
        return None;
    };
    const EXACT: f64 = (1u64 << 52) as f64;
    let whole = |x: f64| x.fract() == 0.0 && x.abs() < EXACT;
    let in_range = |v: i64| (v as f64).abs() < EXACT;
    if !single_valued(column)
        || opts.hard_bounds.is_some()
        || !whole(*interval)
        || *interval < 1.0
        || !whole(opts.offset)
        || !in_range(column.min_value())
        || !in_range(column.max_value())
    {
        return None;
    }
    let (step, offset) = (*interval as i64, opts.offset as i64);
    let key = |index: i64| ((index as f64) * interval + opts.offset).to_bits();
    read(column, docs, &mut values.ints);
    let (mut run, mut run_docs) = (0i64, 0u64);
    for v in values.ints.iter().flatten() {
        let index = (v - offset).div_euclid(step);
        if run_docs > 0 && index == run {
            run_docs += 1;
            continue;
        }
        if run_docs > 0 {
            add(buckets, true, key(run), run_docs);
        }
        (run, run_docs) = (index, 1);
    }
    if run_docs > 0 {
        add(buckets, true, key(run), run_docs);
    }
    Some(true)
}

/// Adds a run of `n` values to its buckets: a histogram's word is its key; a range's, the bit
/// set of the ranges holding it.
fn add(buckets: &mut KeyMap<SegBucket>, histogram: bool, word: u64, n: u64) {
    let mut bump = |key| buckets.entry(key).or_insert_with(|| SegBucket { count: 0, subs: Vec::new() }).count += n;
    if histogram {
        if word != super::NO_BUCKET {
            bump(word);
        }
    } else {
        mask_keys(word).for_each(bump);
    }
}

/// Calls `f` with each document's value, in document order; false when the accessor is not
/// a numeric column with at most one value per document.
fn for_each_value(accessor: &Accessor, docs: &[DocId], values: &mut BlockValues, mut f: impl FnMut(f64)) -> bool {
    match accessor {
        Accessor::I64(column) if single_valued(column) => {
            read(column, docs, &mut values.ints);
            values.ints.iter().flatten().for_each(|&v| f(v as f64));
            true
        }
        Accessor::F64(column) if single_valued(column) => {
            read(column, docs, &mut values.floats);
            values.floats.iter().flatten().for_each(|&v| f(v));
            true
        }
        _ => false,
    }
}

pub(super) fn single_valued<T: PartialOrd + Copy + std::fmt::Debug + Send + Sync + 'static>(
    column: &Column<T>,
) -> bool {
    column.get_cardinality() != Cardinality::Multivalued
}

pub(super) fn read<T: PartialOrd + Copy + std::fmt::Debug + Send + Sync + 'static>(
    column: &Column<T>,
    docs: &[DocId],
    out: &mut Vec<Option<T>>,
) {
    out.clear();
    out.resize(docs.len(), None);
    column.first_vals(docs, out);
}
