//! What one aggregation collected, after harvest: mergeable across segments exactly.

use std::collections::HashMap;

use tantivy::columnar::StrColumn;

use super::request::{AggKind, AggRequest};
use crate::hits::top_hits::TopHitsFruit;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricState {
    pub count: u64,
    pub sum: f64,
    pub min: f64,
    pub max: f64,
    /// For extended_stats.
    pub sum_of_squares: f64,
}

impl Default for MetricState {
    fn default() -> Self {
        MetricState { count: 0, sum: 0.0, min: f64::INFINITY, max: f64::NEG_INFINITY, sum_of_squares: 0.0 }
    }
}

impl MetricState {
    pub(crate) fn add(&mut self, v: f64) {
        self.count += 1;
        self.sum += v;
        self.sum_of_squares += v * v;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    fn merge(&mut self, other: &MetricState) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_of_squares += other.sum_of_squares;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }
}

/// A bucket key after harvest: keyword text, or the raw 64 bits of a numeric/date/bool key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BucketKey {
    Str(String),
    Num(u64),
}

#[derive(Debug, Clone, PartialEq)]
pub struct FruitBucket {
    pub count: u64,
    pub subs: Vec<AggFruit>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AggFruit {
    Metric(MetricState),
    Buckets(HashMap<BucketKey, FruitBucket>),
    /// Keyword `cardinality`: the distinct terms seen, sorted, so segments merge by a linear
    /// walk over term bytes (exact, no hashing of strings per doc or per bucket).
    Distinct(Vec<String>),
    /// Every value seen (percentiles, percentile_ranks, median_absolute_deviation), unsorted.
    Values(Vec<f64>),
    /// `top_hits`: each segment's best docs; sorted and cut to `from + size` at render.
    TopHits(TopHitsFruit),
}

impl AggFruit {
    pub fn empty(req: &AggRequest) -> AggFruit {
        match req.kind {
            AggKind::Metric { .. } | AggKind::WeightedAvg(_) => AggFruit::Metric(MetricState::default()),
            ref kind if kind.collects_values() => AggFruit::Values(Vec::new()),
            AggKind::TopHits(_) => AggFruit::TopHits(TopHitsFruit::default()),
            _ => AggFruit::Buckets(HashMap::new()),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            AggFruit::Metric(_) => false,
            AggFruit::Buckets(b) => b.is_empty(),
            AggFruit::Distinct(d) => d.is_empty(),
            AggFruit::Values(v) => v.is_empty(),
            AggFruit::TopHits(t) => t.total == 0,
        }
    }

    pub(crate) fn merge(&mut self, other: AggFruit) {
        // A segment without the field yields an empty fruit of the generic shape.
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other;
            return;
        }
        match (self, other) {
            (AggFruit::Distinct(a), AggFruit::Distinct(b)) => *a = merge_sorted_distinct(std::mem::take(a), b),
            (AggFruit::Metric(a), AggFruit::Metric(b)) => a.merge(&b),
            (AggFruit::Values(a), AggFruit::Values(b)) => a.extend(b),
            (AggFruit::TopHits(a), AggFruit::TopHits(b)) => {
                a.total += b.total;
                a.max_score = a.max_score.into_iter().chain(b.max_score).reduce(f32::max);
                a.hits.extend(b.hits);
            }
            (AggFruit::Buckets(a), AggFruit::Buckets(b)) => {
                for (key, bucket) in b {
                    match a.get_mut(&key) {
                        Some(existing) => {
                            existing.count += bucket.count;
                            if existing.subs.is_empty() {
                                // A bucket shown with no documents (`min_doc_count: 0`) has no sub-results.
                                existing.subs = bucket.subs;
                            } else {
                                for (mine, theirs) in existing.subs.iter_mut().zip(bucket.subs) {
                                    mine.merge(theirs);
                                }
                            }
                        }
                        None => {
                            a.insert(key, bucket);
                        }
                    }
                }
            }
            _ => unreachable!("fruits of one request have one shape"),
        }
    }
}

/// The union of two sorted, deduplicated lists.
fn merge_sorted_distinct(a: Vec<String>, b: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => match x.cmp(y) {
                std::cmp::Ordering::Less => a.next(),
                std::cmp::Ordering::Greater => b.next(),
                std::cmp::Ordering::Equal => {
                    b.next();
                    a.next()
                }
            },
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (None, None) => return out,
        };
        out.extend(next);
    }
}

/// Terms of sorted ordinals, in one sequential pass over the dictionary blocks (looking
/// each ordinal up on its own re-decodes its block from the start, every time).
pub(crate) fn ords_to_strings(col: &StrColumn, ords: &[u64]) -> Vec<String> {
    let mut out = Vec::with_capacity(ords.len());
    let _ =
        col.dictionary().sorted_ords_to_term_cb(ords, |bytes| out.push(String::from_utf8_lossy(bytes).into_owned()));
    out
}
