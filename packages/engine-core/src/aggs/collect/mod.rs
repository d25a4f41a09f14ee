//! The aggregation collector. Per segment, buckets are keyed by raw column values (term
//! ordinals for keywords); at harvest ordinals become strings, so merging segments is exact.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{Column, StrColumn};
use tantivy::query::Weight;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader};

mod date_block;
mod dense_block;
mod harvest;
pub(crate) mod key_hasher;
mod keyed_block;
mod numeric_block;
mod open;
mod plan;
mod state;

use date_block::{add_run, collect_date_block, Scratch};
use dense_block::collect_dense_block;
use harvest::harvest_state;
use keyed_block::{collect_keyed_block, KeyedScratch};
use numeric_block::{collect_numeric_block, BlockValues};
use state::new_state;

use key_hasher::{KeyMap, TupleMap};
use open::{SegColumns, SegTopHits};
use plan::build_plan;

use crate::aggs::bucket::adjacency_matrix::adjacency_keys;
use crate::aggs::bucket::auto_date_histogram::AutoCollect;
use crate::aggs::bucket::composite_segment::SegSources;
use crate::aggs::bucket::filters::SegFilters;
use crate::aggs::bucket::nested::for_each_joined;
use crate::aggs::bucket::sampler::{DocSample, TopSample};
use crate::aggs::bucket::text_dedup::TextDedup;
use crate::aggs::intermediate::{AggFruit, MetricState};
use crate::aggs::request::{needs_scores, AggKind, AggRequest};
use crate::columns::zone_map::ZoneMap;
use crate::date::rounding::DateKeyer;
use crate::hits::top_hits::TopHitsSegment;
use crate::store::nested_levels::SegLevels;
use crate::store::value_format::AggMissing;

pub struct AggCollector {
    pub aggs: Arc<Vec<AggRequest>>,
    /// `filter(s)` queries as weights, in the pre-order of `filters::filter_weights`.
    pub filter_weights: Arc<Vec<Box<dyn Weight>>>,
    /// Each top-level `sampler`'s documents, by the aggregation's position (`sampler.rs`).
    pub samples: Arc<Vec<Option<Arc<TopSample>>>>,
    /// `significant_text`'s `filter_duplicate_text`: the runs seen, shared by the segments.
    pub text_dedup: Arc<TextDedup>,
}

enum Accessor {
    I64(Column<i64>),
    F64(Column<f64>),
    Bool(Column<bool>),
    Str(StrColumn),
    /// geo_point: packed encoded points (`geo/encoding.rs`).
    Geo(Column<u64>),
    Unmapped,
}

struct Plan {
    kind: AggKind,
    /// `composite` and `matrix_stats`: this segment's columns of their fields.
    columns: Option<SegColumns>,
    /// `top_hits`: the per-search hits collector and this segment, to open one per bucket.
    top_hits: Option<SegTopHits>,
    accessor: Accessor,
    subs: Vec<Plan>,
    filters: Option<SegFilters>,
    /// Date histograms: rounding in the zone, hard bounds, the last bucket seen.
    date_keys: Option<DateKeyer>,
    /// auto_date_histogram: the segment's current rung, coarsened as buckets appear.
    auto: Option<AutoCollect>,
    /// random_sampler / sampler: which of this segment's docs the sample keeps.
    sampler: Option<DocSample>,
    /// nested / reverse_nested: the segment's nested paths, to walk from a doc to the joined ones.
    levels: Option<SegLevels>,
    /// Date histograms: the column's zone map, when it has one (`collect/date_block.rs`).
    zones: Option<Arc<ZoneMap>>,
    /// `missing`: what a document without a value counts as.
    missing: Option<AggMissing>,
}

/// A histogram value outside `hard_bounds`: in no bucket (NaN's bits, never a key).
pub(super) const NO_BUCKET: u64 = 0x7ff8_0000_0000_0000;

/// The bucket of documents without a keyword value when `missing` is given (no term
/// ordinal is this large).
pub(super) const MISSING_ORD: u64 = u64::MAX;

/// Keyword terms with at most this many distinct terms in a segment count into a dense
/// array indexed by term ordinal.
const DENSE_TERMS_LIMIT: u64 = 1 << 20;

struct SegBucket {
    count: u64,
    subs: Vec<SegState>,
}

enum SegState {
    Metric(MetricState),
    Buckets(KeyMap<SegBucket>),
    /// Terms by keyword ordinal: counts, and sub-aggregation states created on first use.
    Dense {
        counts: Vec<u64>,
        subs: Vec<Option<Vec<SegState>>>,
    },
    /// Filter aggregations without subs: docs counted by the set of filters they match
    /// (`filters::MASK_FILTERS`), expanded into buckets at harvest.
    FilterMasks(Vec<u64>),
    /// Every value of the field (or the `missing` value) for the quantile aggregations.
    Values(Vec<f64>),
    /// `composite`: buckets by the tuple of raw source values (`None`: the missing bucket).
    Composite(TupleMap<SegBucket>),
    /// `composite` of keyword terms sources without sub-aggregations: counts by dense tuple index.
    CompositeDense {
        slots: Vec<u64>,
        counts: Vec<u64>,
    },
    /// `None` only if opening the sort columns failed (they opened once in `build_plan`).
    TopHits(Option<Box<TopHitsSegment>>),
    /// `significant_*`: the foreground size (every doc collected) and the term buckets.
    Significant {
        docs: u64,
        terms: Box<SegState>,
    },
    /// `significant_text`: buckets by analyzed term.
    SourceTerms(HashMap<String, SegBucket>),
    /// `nested` / `reverse_nested`: the bucket of joined docs; `last` is the parent a
    /// reverse_nested counted last (docs arrive in order, so a parent counts once).
    Join {
        last: Option<DocId>,
        bucket: SegBucket,
    },
}

pub struct AggSegment {
    plans: Vec<Plan>,
    states: Vec<SegState>,
    keys: Vec<u64>,
    /// A block's column values (`collect_block`).
    values: Vec<Option<i64>>,
    /// A block's keyword ordinals (`dense_block.rs`).
    ords: Vec<Option<u64>>,
    numeric: BlockValues,
    keyed: KeyedScratch,
}

/// The bucket keys (range indexes) of a `numeric_word` bit set, ascending.
fn mask_keys(mut mask: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            u64::from(i)
        })
    })
}

impl Plan {
    fn metric_values(&self, doc: DocId, state: &mut MetricState) {
        if let (AggKind::WeightedAvg(spec), Some(SegColumns::Weighted(columns))) = (&self.kind, &self.columns) {
            let mut values = Vec::new();
            let weight = columns.read(doc, &mut values);
            return crate::aggs::metric::weighted_avg::add_document(&values, weight, spec, state);
        }
        let before = state.count;
        match &self.accessor {
            Accessor::I64(c) => c.values_for_doc(doc).for_each(|v| state.add(v as f64)),
            Accessor::F64(c) => c.values_for_doc(doc).for_each(|v| state.add(v)),
            Accessor::Bool(c) => c.values_for_doc(doc).for_each(|v| state.add(u8::from(v) as f64)),
            // value_count on keywords counts values; other metrics reject keywords at parse time.
            Accessor::Str(c) => c.term_ords(doc).for_each(|_| state.add(0.0)),
            Accessor::Geo(c) => c.values_for_doc(doc).for_each(|_| state.add(0.0)),
            Accessor::Unmapped => {}
        }
        if state.count == before {
            if let Some(v) = self.missing.as_ref().and_then(AggMissing::as_f64) {
                state.add(v);
            }
        }
    }

    /// The bucket a document without a value falls in, with `missing` given.
    fn missing_keys(&self, missing: &AggMissing, keys: &mut Vec<u64>) {
        match (&self.kind, missing, &self.accessor) {
            (AggKind::Histogram { .. } | AggKind::Range { .. }, AggMissing::Num(v) | AggMissing::Float(v), _) => {
                self.numeric_keys(*v, keys)
            }
            (_, AggMissing::Str(_), Accessor::Str(_) | Accessor::Unmapped) => keys.push(MISSING_ORD),
            (_, AggMissing::Num(v), Accessor::F64(_)) => keys.push(v.to_bits()),
            (_, AggMissing::Float(v), Accessor::F64(_) | Accessor::Unmapped) => keys.push(v.to_bits()),
            (_, AggMissing::Num(v), Accessor::I64(_) | Accessor::Bool(_) | Accessor::Unmapped) => {
                keys.push(*v as i64 as u64)
            }
            _ => {}
        }
    }

    /// Bucket keys of `doc`, deduplicated (a doc counts once per bucket).
    fn bucket_keys(&self, doc: DocId, keys: &mut Vec<u64>) {
        keys.clear();
        match (&self.kind, &self.accessor) {
            (_, _) if self.filters.is_some() => {
                if let Some(filters) = &self.filters {
                    filters.matching(doc, keys);
                    adjacency_keys(&self.kind, keys);
                }
            }
            (AggKind::Missing, _) => {
                if self.missing.is_none() && !self.has_value(doc) {
                    keys.push(0);
                }
            }
            (AggKind::Global, _) => keys.push(0),
            (_, _) if self.sampler.is_some() => {
                if self.sampler.as_ref().is_some_and(|s| s.keeps(doc)) {
                    keys.push(0);
                }
            }
            (AggKind::Geo(geo), Accessor::Geo(c)) => c.values_for_doc(doc).for_each(|v| geo.push_keys(v, keys)),
            (AggKind::Histogram { .. } | AggKind::Range { .. }, Accessor::I64(c)) => {
                c.values_for_doc(doc).for_each(|v| self.numeric_keys(v as f64, keys))
            }
            (AggKind::Histogram { .. } | AggKind::Range { .. }, Accessor::F64(c)) => {
                c.values_for_doc(doc).for_each(|v| self.numeric_keys(v, keys))
            }
            (AggKind::IpRange(spec), Accessor::Str(c)) => crate::aggs::bucket::ip_range::push_keys(spec, c, doc, keys),
            (_, Accessor::I64(c)) if self.is_date_histogram() => {
                c.values_for_doc(doc).for_each(|v| self.push_date_key(v, keys))
            }
            (_, Accessor::F64(c)) if self.is_date_histogram() => {
                c.values_for_doc(doc).for_each(|v| self.push_date_key(v as i64, keys))
            }
            (_, Accessor::I64(c)) => keys.extend(c.values_for_doc(doc).map(|v| v as u64)),
            (_, Accessor::F64(c)) => keys.extend(c.values_for_doc(doc).map(f64::to_bits)),
            (_, Accessor::Bool(c)) => keys.extend(c.values_for_doc(doc).map(u64::from)),
            (_, Accessor::Str(c)) => keys.extend(c.term_ords(doc)),
            (_, Accessor::Geo(_) | Accessor::Unmapped) => {}
        }
        if keys.is_empty() {
            // The `missing` aggregation's own `missing` means no document lacks a value.
            if let Some(missing) = self.missing.as_ref().filter(|_| !matches!(self.kind, AggKind::Missing)) {
                self.missing_keys(missing, keys);
            }
        }
        if keys.len() > 1 {
            keys.sort_unstable();
            keys.dedup();
        }
    }

    fn is_date_histogram(&self) -> bool {
        self.date_keys.is_some() || self.auto.is_some()
    }

    /// A date histogram's key of `ms` and its bucket's [start, end) (none past hard bounds).
    fn date_bucket(&self, ms: i64) -> Option<(u64, i64, i64)> {
        if let Some(dates) = &self.date_keys {
            dates.bucket(ms)
        } else {
            self.auto.as_ref().map(|auto| auto.bucket(ms))
        }
    }

    fn push_date_key(&self, ms: i64, keys: &mut Vec<u64>) {
        if let Some(dates) = &self.date_keys {
            dates.push_key(ms, keys);
        } else if let Some(auto) = &self.auto {
            auto.push_key(ms, keys);
        }
    }
}

fn collect_into(plan: &Plan, state: &mut SegState, doc: DocId, score: Score, keys: &mut Vec<u64>) {
    match state {
        SegState::Metric(m) => plan.metric_values(doc, m),
        SegState::FilterMasks(counts) => {
            if let Some(filters) = &plan.filters {
                counts[filters.mask(doc)] += 1;
            }
        }
        SegState::Values(v) => plan.push_values(doc, v),
        SegState::TopHits(Some(seg)) => seg.collect(doc, score),
        SegState::TopHits(None) => {}
        SegState::Significant { docs, terms } => {
            *docs += 1;
            collect_into(plan, terms, doc, score, keys);
        }
        SegState::SourceTerms(buckets) => {
            let Some(SegColumns::Source(source)) = &plan.columns else { return };
            for term in source.terms(doc) {
                let bucket = buckets
                    .entry(term)
                    .or_insert_with(|| SegBucket { count: 0, subs: plan.subs.iter().map(new_state).collect() });
                bucket.count += 1;
                for (sub_plan, sub_state) in plan.subs.iter().zip(bucket.subs.iter_mut()) {
                    collect_into(sub_plan, sub_state, doc, score, keys);
                }
            }
        }
        SegState::Composite(buckets) => {
            let Some(SegColumns::Composite(sources)) = &plan.columns else { return };
            sources.for_each_key(doc, &mut |key| {
                // Look up by slice first: only a new bucket pays for an owned key.
                if !buckets.contains_key(key) {
                    buckets
                        .insert(key.to_vec(), SegBucket { count: 0, subs: plan.subs.iter().map(new_state).collect() });
                }
                let bucket = buckets.get_mut(key).expect("inserted above");
                bucket.count += 1;
                for (sub_plan, sub_state) in plan.subs.iter().zip(bucket.subs.iter_mut()) {
                    collect_into(sub_plan, sub_state, doc, score, keys);
                }
            });
        }
        SegState::Join { last, bucket } => {
            let (AggKind::Join(join), Some(levels)) = (&plan.kind, &plan.levels) else { return };
            for_each_joined(join, levels, doc, last, &mut |joined| {
                bucket.count += 1;
                for (sub_plan, sub_state) in plan.subs.iter().zip(bucket.subs.iter_mut()) {
                    collect_into(sub_plan, sub_state, joined, score, keys);
                }
            });
        }
        SegState::CompositeDense { slots, counts } => {
            let Some(SegColumns::Composite(sources)) = &plan.columns else { return };
            sources.for_each_key(doc, &mut |key| counts[SegSources::dense_index(slots, key)] += 1);
        }
        SegState::Dense { counts, subs } => {
            let Accessor::Str(col) = &plan.accessor else { return };
            for ord in col.term_ords(doc) {
                counts[ord as usize] += 1;
                if !plan.subs.is_empty() {
                    let states = subs[ord as usize].get_or_insert_with(|| plan.subs.iter().map(new_state).collect());
                    for (sub_plan, sub_state) in plan.subs.iter().zip(states.iter_mut()) {
                        collect_into(sub_plan, sub_state, doc, score, keys);
                    }
                }
            }
        }
        SegState::Buckets(buckets) => {
            plan.bucket_keys(doc, keys);
            if keys.is_empty() {
                return;
            }
            let doc_keys = std::mem::take(keys);
            let mut created = None;
            for key in &doc_keys {
                let bucket = match buckets.entry(*key) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(e) => {
                        created = Some(*key);
                        e.insert(SegBucket { count: 0, subs: plan.subs.iter().map(new_state).collect() })
                    }
                };
                bucket.count += 1;
                for (sub_plan, sub_state) in plan.subs.iter().zip(bucket.subs.iter_mut()) {
                    collect_into(sub_plan, sub_state, doc, score, keys);
                }
            }
            *keys = doc_keys;
            if let (Some(key), Some(auto)) = (created, &plan.auto) {
                // Coarsens only without sub-aggregations, so merging buckets is adding counts.
                auto.bucket_created(key, buckets, |into, from| into.count += from.count);
            }
        }
    }
}

impl Collector for AggCollector {
    type Fruit = Vec<AggFruit>;
    type Child = AggSegment;

    fn for_segment(&self, segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<AggSegment> {
        let mut next = 0;
        let plans: Vec<Plan> = self
            .aggs
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let sample = self.samples.get(i).and_then(Option::as_deref);
                build_plan(a, segment, reader, self, &mut next, sample)
            })
            .collect::<tantivy::Result<_>>()?;
        let states = plans.iter().map(new_state).collect();
        Ok(AggSegment {
            plans,
            states,
            keys: Vec::new(),
            values: Vec::new(),
            ords: Vec::new(),
            numeric: BlockValues::default(),
            keyed: KeyedScratch::default(),
        })
    }

    /// Only a `top_hits` ordered by (or tracking) relevance needs scores.
    fn requires_scoring(&self) -> bool {
        needs_scores(&self.aggs)
    }

    fn merge_fruits(&self, fruits: Vec<Vec<AggFruit>>) -> tantivy::Result<Vec<AggFruit>> {
        let mut merged: Vec<AggFruit> = self.aggs.iter().map(AggFruit::empty).collect();
        for segment in fruits {
            for (acc, fruit) in merged.iter_mut().zip(segment) {
                acc.merge(fruit);
            }
        }
        Ok(merged)
    }
}

impl SegmentCollector for AggSegment {
    type Fruit = Vec<AggFruit>;

    fn collect(&mut self, doc: DocId, score: Score) {
        for (plan, state) in self.plans.iter().zip(self.states.iter_mut()) {
            collect_into(plan, state, doc, score, &mut self.keys);
        }
    }

    /// Without scores tantivy hands over blocks of documents: a dense keyword composite, plain
    /// keyword terms, `global`, a date histogram, numeric metrics, plain histogram / range
    /// buckets, and terms / range with numeric metric sub-aggregations take a block through bulk
    /// column reads, the rest per document.
    fn collect_block(&mut self, docs: &[DocId]) {
        for (plan, state) in self.plans.iter().zip(self.states.iter_mut()) {
            if let (SegState::CompositeDense { slots, counts }, Some(SegColumns::Composite(sources))) =
                (&mut *state, &plan.columns)
            {
                if sources.count_block_dense(slots, docs, counts) {
                    continue;
                }
            }
            if let SegState::Dense { counts, .. } = &mut *state {
                if collect_dense_block(plan, counts, docs, &mut self.ords) {
                    continue;
                }
            }
            if let SegState::Buckets(buckets) = &mut *state {
                let mut scratch =
                    Scratch { values: &mut self.values, numeric: &mut self.numeric, keys: &mut self.keys };
                // `missing` over a column where every document has a value: nothing to add.
                if plan.kind == AggKind::Missing
                    && plan.filters.is_none()
                    && plan.missing.is_none()
                    && plan.every_doc_has_value()
                {
                    continue;
                }
                // `global`: every document of the block is in its one bucket.
                if plan.kind == AggKind::Global && plan.filters.is_none() && plan.sampler.is_none() {
                    add_run(plan, buckets, 0, docs, &mut scratch);
                    continue;
                }
                if collect_date_block(plan, buckets, docs, &mut scratch) {
                    continue;
                }
            }
            if collect_numeric_block(plan, state, docs, &mut self.numeric)
                || collect_keyed_block(plan, state, docs, &mut self.keyed)
            {
                continue;
            }
            for &doc in docs {
                collect_into(plan, state, doc, 0.0, &mut self.keys);
            }
        }
    }

    fn harvest(self) -> Vec<AggFruit> {
        self.plans.iter().zip(self.states).map(|(p, s)| harvest_state(p, s)).collect()
    }
}
