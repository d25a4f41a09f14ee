//! The top-(from+size) hits collector. Each segment keeps a bounded heap of its best docs
//! keyed by order-preserving integers (`sort_key.rs`); only the survivors are turned into
//! global keys (ords -> strings) and merged, so deep pages never materialise every match.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use serde_json::Value;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

use crate::hits::search_after::{is_after, segment_after_key, AfterValue};
use crate::hits::sort::MAX_SORT_KEYS;
use crate::hits::sort::{Order, SortSpec, SortTarget};
use crate::hits::sort_key::{f64_from_key, i64_key, single_valued, unpart, SegSort, SegSource, SortKey};
use crate::store::mapping::FieldType;

/// A sort value after merging, comparable across segments.
#[derive(Debug, Clone, PartialEq)]
pub enum GlobalPart {
    Num(u128),
    Str { value: Option<String>, order: Order, missing_first: bool },
}

impl Eq for GlobalPart {}
impl PartialOrd for GlobalPart {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for GlobalPart {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (GlobalPart::Num(a), GlobalPart::Num(b)) => a.cmp(b),
            (GlobalPart::Str { value: a, order, missing_first }, GlobalPart::Str { value: b, .. }) => match (a, b) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) if *missing_first => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) if *missing_first => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) if *order == Order::Desc => b.cmp(a),
                (Some(a), Some(b)) => a.cmp(b),
            },
            (GlobalPart::Num(_), _) => Ordering::Less,
            _ => Ordering::Greater,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub key: Vec<GlobalPart>,
    pub address: DocAddress,
    pub score: Score,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct TopHitsFruit {
    pub hits: Vec<Hit>,
    pub total: u64,
    pub max_score: Option<Score>,
}

/// Sort keys live inline (no allocation per collected doc); unused slots stay equal.
pub struct TopHitsCollector {
    pub specs: Vec<SortSpec>,
    pub limit: usize,
    pub scoring: bool,
    /// `search_after`: only docs sorting strictly after these values are kept.
    pub after: Option<Vec<AfterValue>>,
    /// Internal scores are this times the shown ones (`LowerContext::scale`): `_score` keys
    /// are on the shown scale, so `search_after` values echo back exactly.
    pub scale: f32,
}

pub struct TopHitsSegment {
    segment: SegmentOrdinal,
    sources: Vec<SegSort>,
    limit: usize,
    heap: BinaryHeap<(SortKey, DocId, u32)>,
    scratch: SortKey,
    /// This segment's after-key in the doubled space of `search_after::doubled`.
    after: Option<SortKey>,
    parts: usize,
    total: u64,
    max_score: Option<Score>,
    /// First-key values of one block of documents (`collect_block`), reused across blocks.
    block_values: Vec<Option<i64>>,
}

impl Collector for TopHitsCollector {
    type Fruit = TopHitsFruit;
    type Child = TopHitsSegment;

    fn for_segment(&self, segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<TopHitsSegment> {
        let ff = reader.fast_fields();
        let mut sources = Vec::with_capacity(self.specs.len());
        for spec in &self.specs {
            let source = match &spec.target {
                SortTarget::Score => SegSource::Score(self.scale),
                SortTarget::Doc => SegSource::Doc(segment),
                SortTarget::GeoDistance(g) => {
                    SegSource::Geo(Box::new(crate::hits::geo_sort::SegGeoSort::open(g, reader)?))
                }
                // An unmapped field sorted by `unmapped_type`: no document has a value.
                SortTarget::Field { tantivy_name, .. } if tantivy_name.is_empty() => SegSource::Missing,
                SortTarget::Field { tantivy_name, field_type, .. } => {
                    let as_f64 = spec.value_type().is_some_and(FieldType::is_f64);
                    match field_type {
                        FieldType::Keyword | FieldType::Ip => {
                            ff.str(tantivy_name)?.map_or(SegSource::Missing, SegSource::Str)
                        }
                        FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
                            let column = ff.column_opt::<f64>(tantivy_name)?;
                            match column {
                                None => SegSource::Missing,
                                Some(c) if as_f64 => SegSource::F64(c),
                                Some(c) => SegSource::F64AsI64(c),
                            }
                        }
                        FieldType::Boolean => {
                            ff.column_opt::<bool>(tantivy_name)?.map_or(SegSource::Missing, SegSource::Bool)
                        }
                        FieldType::Text => SegSource::Missing,
                        _ => match ff.column_opt::<i64>(tantivy_name)? {
                            None => SegSource::Missing,
                            Some(c) if as_f64 => SegSource::I64AsF64(c),
                            Some(c) => SegSource::I64(c),
                        },
                    }
                }
            };
            sources.push(SegSort::new(source, spec));
        }
        let after = match &self.after {
            Some(values) => Some(segment_after_key(values, &sources)?),
            None => None,
        };
        Ok(TopHitsSegment {
            segment,
            sources,
            limit: self.limit,
            heap: BinaryHeap::with_capacity(self.limit.min(10_000) + 1),
            scratch: [u128::MAX; MAX_SORT_KEYS],
            after,
            parts: self.specs.len(),
            total: 0,
            max_score: None,
            block_values: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        self.scoring
    }

    fn merge_fruits(&self, fruits: Vec<TopHitsFruit>) -> tantivy::Result<TopHitsFruit> {
        let total = fruits.iter().map(|f| f.total).sum();
        let max_score = fruits.iter().filter_map(|f| f.max_score).reduce(f32::max);
        let mut hits: Vec<Hit> = fruits.into_iter().flat_map(|f| f.hits).collect();
        hits.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(a.address.segment_ord.cmp(&b.address.segment_ord))
                .then(a.address.doc_id.cmp(&b.address.doc_id))
        });
        hits.truncate(self.limit);
        Ok(TopHitsFruit { hits, total, max_score })
    }
}

impl TopHitsSegment {
    /// Offers `doc` (its first sort key already computed) to the page.
    fn consider(&mut self, doc: DocId, score: Score, first: u128) {
        // A full page and a first key already worse than the page's worst: not competitive,
        // whatever the other keys (most documents of a large match set end here).
        if self.heap.len() >= self.limit && self.heap.peek().is_some_and(|worst| first > worst.0[0]) {
            return;
        }
        self.scratch[0] = first;
        for (slot, sort) in self.scratch.iter_mut().zip(&self.sources).skip(1) {
            *slot = sort.key(doc, score);
        }
        if let Some(after) = &self.after {
            if !is_after(&self.scratch, after, self.parts) {
                return;
            }
        }
        if self.heap.len() < self.limit {
            self.heap.push((self.scratch, doc, score.to_bits()));
        } else if let Some(worst) = self.heap.peek() {
            // Docs arrive in increasing id order, so an equal key never displaces (ES keeps the lower doc).
            if self.scratch < worst.0 {
                self.heap.pop();
                self.heap.push((self.scratch, doc, score.to_bits()));
            }
        }
    }
}

impl SegmentCollector for TopHitsSegment {
    type Fruit = TopHitsFruit;

    fn collect(&mut self, doc: DocId, score: Score) {
        self.total += 1;
        if self.max_score.is_none_or(|m| score > m) {
            self.max_score = Some(score);
        }
        if self.limit == 0 {
            return;
        }
        let first = self.sources.first().map_or(u128::MAX, |sort| sort.key(doc, score));
        self.consider(doc, score, first);
    }

    /// Without scores (a field sort), tantivy hands over blocks of matching documents: the
    /// first sort key of the whole block is read from its column in one call, and documents
    /// that cannot enter a full page stop there.
    fn collect_block(&mut self, docs: &[DocId]) {
        // A `missing` value would stand in for absent values, which the block read leaves absent.
        let batchable = matches!(self.sources.first(),
            Some(sort) if matches!(&sort.source, SegSource::I64(c) if single_valued(c)) && !sort.substitutes_missing());
        if self.limit == 0 || !batchable {
            for &doc in docs {
                self.collect(doc, 0.0);
            }
            return;
        }
        self.total += docs.len() as u64;
        if !docs.is_empty() && self.max_score.is_none_or(|m| m < 0.0) {
            self.max_score = Some(0.0);
        }
        let mut values = std::mem::take(&mut self.block_values);
        values.clear();
        values.resize(docs.len(), None);
        if let SegSource::I64(column) = &self.sources[0].source {
            column.first_vals(docs, &mut values);
        }
        for (&doc, value) in docs.iter().zip(&values) {
            let first = self.sources[0].encode(value.map(i64_key));
            self.consider(doc, 0.0, first);
        }
        self.block_values = values;
    }
    fn harvest(self) -> TopHitsFruit {
        let mut hits = Vec::with_capacity(self.heap.len());
        let mut buf = String::new();
        for (key, doc, score_bits) in self.heap.into_vec() {
            let global = key
                .iter()
                .zip(&self.sources)
                .map(|(k, sort)| match &sort.source {
                    SegSource::Str(col) => {
                        let value = unpart(*k, sort.order, sort.missing_first()).map(|ord| {
                            buf.clear();
                            let _ = col.ord_to_str(ord, &mut buf);
                            buf.clone()
                        });
                        GlobalPart::Str { value, order: sort.order, missing_first: sort.missing_first() }
                    }
                    // A keyword sort whose field has no values in this segment.
                    SegSource::Missing if sort.is_keyword => {
                        GlobalPart::Str { value: None, order: sort.order, missing_first: sort.missing_first() }
                    }
                    _ => GlobalPart::Num(*k),
                })
                .collect();
            hits.push(Hit {
                key: global,
                address: DocAddress::new(self.segment, doc),
                score: f32::from_bits(score_bits),
            });
        }
        TopHitsFruit { hits, total: self.total, max_score: self.max_score }
    }
}

/// The `sort` array ES puts on each hit: dates as epoch millis (or in the sort's `format`),
/// missing as ES renders it: the extreme of the type on the side it sorts to.
pub fn sort_values_json(hit: &Hit, specs: &[SortSpec], scale: f32) -> Vec<Value> {
    hit.key
        .iter()
        .zip(specs)
        .map(|(part, spec)| match (part, &spec.target) {
            (GlobalPart::Str { value, .. }, _) if spec.value_type() == Some(FieldType::Ip) => {
                value.as_deref().map_or(Value::Null, |key| Value::String(crate::ip::display_key(key)))
            }
            (GlobalPart::Str { value, .. }, _) => value.clone().map_or(Value::Null, Value::String),
            (GlobalPart::Num(_), SortTarget::Score) => serde_json::json!(hit.score / scale),
            (GlobalPart::Num(k), SortTarget::GeoDistance(_)) => crate::hits::geo_sort::sort_value_json(
                unpart(*k, spec.order, false).map_or(f64::INFINITY, f64_from_key),
            ),
            (GlobalPart::Num(k), SortTarget::Doc) => {
                serde_json::json!(unpart(*k, spec.order, false).unwrap_or(0) as i64)
            }
            (GlobalPart::Num(k), SortTarget::Field { .. }) => {
                let value_type = spec.value_type().unwrap_or(FieldType::Long);
                // Missing sorts last, or first with `missing: _first`: shown as the extreme there.
                let high = (spec.order == Order::Asc) != spec.opts.missing_first;
                match (unpart(*k, spec.order, spec.opts.missing_first), value_type) {
                    (None, FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat) => {
                        Value::String(if high { "Infinity" } else { "-Infinity" }.into())
                    }
                    (None, FieldType::Keyword | FieldType::Ip) => Value::Null,
                    (None, _) => serde_json::json!(if high { i64::MAX } else { i64::MIN }),
                    (Some(v), FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat) => {
                        serde_json::json!(f64_from_key(v))
                    }
                    (Some(v), FieldType::Boolean) => serde_json::json!(v),
                    (Some(v), FieldType::Date) if spec.opts.format.is_some() => {
                        let format = spec.opts.format.as_ref().expect("checked");
                        Value::String(format.format((v ^ (1 << 63)) as i64))
                    }
                    (Some(v), _) => serde_json::json!((v ^ (1 << 63)) as i64),
                }
            }
        })
        .collect()
}
