//! The top-(from+size) hits collector. Each segment keeps a bounded heap of its best docs
//! keyed by order-preserving integers (`sort_key.rs`); only the survivors are turned into
//! global keys (ords -> strings) and merged, so deep pages never materialise every match.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use serde_json::Value;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

use super::search_after::{is_after, segment_after_key, AfterValue};
use super::sort::MAX_SORT_KEYS;
use super::sort::{Order, SortSpec, SortTarget};
use super::sort_key::{f64_from_key, i64_key, part, single_valued, SegSource, SortKey};
use crate::store::mapping::FieldType;

/// A sort value after merging, comparable across segments.
#[derive(Debug, Clone, PartialEq)]
pub enum GlobalPart {
    Num(u128),
    Str { value: Option<String>, order: Order },
}

impl Eq for GlobalPart {}
impl PartialOrd for GlobalPart {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for GlobalPart {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (GlobalPart::Num(a), GlobalPart::Num(b)) => a.cmp(b),
            (GlobalPart::Str { value: a, order }, GlobalPart::Str { value: b, .. }) => match (a, b) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
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
}

pub struct TopHitsSegment {
    segment: SegmentOrdinal,
    sources: Vec<(SegSource, Order)>,
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
                SortTarget::Score => SegSource::Score,
                SortTarget::Doc => SegSource::Doc(segment),
                SortTarget::Field { tantivy_name, field_type, .. } => match field_type {
                    FieldType::Keyword => ff.str(tantivy_name)?.map_or(SegSource::Missing, SegSource::Str),
                    FieldType::Double | FieldType::Float => {
                        ff.column_opt::<f64>(tantivy_name)?.map_or(SegSource::Missing, SegSource::F64)
                    }
                    FieldType::Boolean => {
                        ff.column_opt::<bool>(tantivy_name)?.map_or(SegSource::Missing, SegSource::Bool)
                    }
                    FieldType::Text => SegSource::Missing,
                    _ => ff.column_opt::<i64>(tantivy_name)?.map_or(SegSource::Missing, SegSource::I64),
                },
            };
            sources.push((source, spec.order));
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
        for (slot, (source, order)) in self.scratch.iter_mut().zip(&self.sources).skip(1) {
            *slot = part(source.value(doc, score, *order), *order);
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
        let first =
            self.sources.first().map_or(u128::MAX, |(source, order)| part(source.value(doc, score, *order), *order));
        self.consider(doc, score, first);
    }

    /// Without scores (a field sort), tantivy hands over blocks of matching documents: the
    /// first sort key of the whole block is read from its column in one call, and documents
    /// that cannot enter a full page stop there.
    fn collect_block(&mut self, docs: &[DocId]) {
        let batchable = matches!(self.sources.first(), Some((SegSource::I64(c), _)) if single_valued(c));
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
        let order = self.sources[0].1;
        if let SegSource::I64(column) = &self.sources[0].0 {
            column.first_vals(docs, &mut values);
        }
        for (&doc, value) in docs.iter().zip(&values) {
            let first = part(value.map(i64_key), order);
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
                .map(|(k, (source, order))| match source {
                    SegSource::Str(col) => {
                        let value = (*k != u128::MAX).then(|| {
                            let ord = if *order == Order::Desc { !(*k as u64) } else { *k as u64 };
                            buf.clear();
                            let _ = col.ord_to_str(ord, &mut buf);
                            buf.clone()
                        });
                        GlobalPart::Str { value, order: *order }
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

/// The `sort` array ES puts on each hit: dates as epoch millis, missing as ES renders them.
pub fn sort_values_json(hit: &Hit, specs: &[SortSpec]) -> Vec<Value> {
    hit.key
        .iter()
        .zip(specs)
        .map(|(part, spec)| {
            let decoded = |k: u128| if spec.order == Order::Desc { !(k as u64) } else { k as u64 };
            match (part, &spec.target) {
                (GlobalPart::Str { value, .. }, _) => value.clone().map_or(Value::Null, Value::String),
                (GlobalPart::Num(_), SortTarget::Score) => {
                    serde_json::json!(hit.score / crate::query::lower::context::ES_SCORE_SCALE)
                }
                (GlobalPart::Num(k), SortTarget::Doc) => serde_json::json!(decoded(*k) as i64),
                (GlobalPart::Num(k), SortTarget::Field { field_type, .. }) => {
                    let missing = *k == u128::MAX;
                    match field_type {
                        FieldType::Double | FieldType::Float if missing => {
                            Value::String(if spec.order == Order::Asc { "Infinity" } else { "-Infinity" }.into())
                        }
                        FieldType::Double | FieldType::Float => serde_json::json!(f64_from_key(decoded(*k))),
                        _ if missing => serde_json::json!(if spec.order == Order::Asc { i64::MAX } else { i64::MIN }),
                        FieldType::Boolean => serde_json::json!(decoded(*k)),
                        _ => serde_json::json!((decoded(*k) ^ (1 << 63)) as i64),
                    }
                }
            }
        })
        .collect()
}
