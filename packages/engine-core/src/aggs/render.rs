//! Aggregation results as Elasticsearch 8 renders them: metric `value` (null when no docs,
//! except `sum`/`value_count` which are 0), terms buckets by count desc then key asc with
//! `sum_other_doc_count`, date_histogram buckets with `key_as_string` and empty buckets
//! filled between the first and last when `min_doc_count` is 0.

use std::cmp::Ordering;

use serde_json::{json, Map, Value};

use super::bucket_budget::{self, MAX_BUCKETS};
use super::collect::{BucketKey, FruitBucket};
use super::filters::render_filters;
use super::render_extra::{
    render_extended_stats, render_missing, render_numeric_histogram, render_range, render_stats,
};
use super::top_hits::HitsContext;
use super::{AggFruit, AggKind, AggRequest, MetricOp, TermsOrder};
use crate::date::format_millis;
use crate::error::{EngineError, Result};
use crate::store::mapping::FieldType;

/// Renders the aggregations; `hits` lets `top_hits` read stored documents.
pub fn render_aggs(reqs: &[AggRequest], fruits: &[AggFruit], hits: Option<HitsContext>) -> Result<Value> {
    bucket_budget::reset();
    super::top_hits::install(hits);
    let out = render_all(reqs, fruits);
    super::top_hits::install(None);
    out
}

fn render_all(reqs: &[AggRequest], fruits: &[AggFruit]) -> Result<Value> {
    crate::pipeline::validate(reqs, None)?;
    let mut out = Map::new();
    for (req, fruit) in reqs.iter().zip(fruits) {
        out.insert(req.name.clone(), render_one(req, fruit));
        if let Some(n) = bucket_budget::exceeded() {
            return Err(EngineError::TooManyBuckets(format!(
                "Trying to create too many buckets. Must be less than or equal to: [{MAX_BUCKETS}] but was [{n}]. This limit can be set by changing the [search.max_buckets] cluster level setting."
            )));
        }
    }
    crate::pipeline::apply(reqs, &mut out)?;
    Ok(Value::Object(out))
}

fn field_type(req: &AggRequest) -> Option<FieldType> {
    req.field.resolved.as_ref().map(|r| r.1)
}

pub(super) fn render_one(req: &AggRequest, fruit: &AggFruit) -> Value {
    match (&req.kind, fruit) {
        (AggKind::Metric { op: MetricOp::Stats }, AggFruit::Metric(m)) => render_stats(m),
        (AggKind::Metric { op: MetricOp::ExtendedStats }, AggFruit::Metric(m)) => render_extended_stats(m),
        (AggKind::Cardinality, AggFruit::Buckets(buckets)) => json!({ "value": buckets.len() }),
        (AggKind::Cardinality, AggFruit::Distinct(terms)) => json!({ "value": terms.len() }),
        (AggKind::Missing | AggKind::Join(_), AggFruit::Buckets(buckets)) => {
            render_missing(req, buckets.values().next())
        }
        (AggKind::Histogram { interval, min_doc_count }, AggFruit::Buckets(b)) => {
            render_numeric_histogram(req, b, *interval, *min_doc_count)
        }
        (AggKind::Range { ranges, keys }, AggFruit::Buckets(b)) => render_range(req, ranges, keys, b),
        (AggKind::Filters { buckets: specs, keyed, single, other }, AggFruit::Buckets(b)) => {
            // The other bucket is collected under the index one past the last filter.
            let names = specs.iter().map(|(name, _)| name).chain(other);
            let rendered = names
                .enumerate()
                .map(|(i, name)| {
                    if !single {
                        bucket_budget::consume();
                    }
                    (name.clone(), render_missing(req, b.get(&BucketKey::Num(i as u64))))
                })
                .collect();
            render_filters(req, rendered, *keyed, *single)
        }
        (AggKind::Metric { op }, AggFruit::Metric(m)) => {
            let value = match op {
                MetricOp::Sum => json!(m.sum),
                MetricOp::ValueCount => json!(m.count),
                _ if m.count == 0 => Value::Null,
                MetricOp::Avg => json!(m.sum / m.count as f64),
                MetricOp::Min => json!(m.min),
                MetricOp::Max => json!(m.max),
                MetricOp::Stats | MetricOp::ExtendedStats => unreachable!("rendered above"),
            };
            let mut body = json!({ "value": value });
            if matches!(op, MetricOp::Min | MetricOp::Max) && m.count > 0 {
                let v = if *op == MetricOp::Min { m.min } else { m.max };
                // ES renders min/max of dates and booleans through the field's doc-value format.
                match field_type(req) {
                    Some(FieldType::Date) => body["value_as_string"] = json!(format_millis(v as i64)),
                    Some(FieldType::Boolean) => {
                        body["value_as_string"] = json!(if v != 0.0 { "true" } else { "false" })
                    }
                    _ => {}
                }
            }
            body
        }
        (AggKind::Terms { size, min_doc_count, order }, AggFruit::Buckets(buckets)) => {
            render_terms(req, buckets.iter().collect(), *size, *min_doc_count, order)
        }
        (AggKind::DateHistogram { interval, min_doc_count, opts }, AggFruit::Buckets(buckets)) => {
            super::date_histogram::render(req, *interval, *min_doc_count, opts, buckets)
        }
        (AggKind::AutoDateHistogram(spec), AggFruit::Buckets(buckets)) => {
            super::auto_date_histogram::render(req, spec, buckets)
        }
        (AggKind::Extra(x), fruit) => super::extra::render(req, x, fruit),
        // Filled in (or removed) by `crate::pipeline::apply` once the tree is rendered.
        (AggKind::Pipeline(_), _) => Value::Null,
        _ => unreachable!("fruit shape follows the request"),
    }
}

/// A bucket key decoded for sorting and output.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum KeyValue {
    Str(String),
    Int(i64),
    Float(f64),
}

fn decode(key: &BucketKey, ty: Option<FieldType>) -> KeyValue {
    match key {
        BucketKey::Str(s) => KeyValue::Str(s.clone()),
        BucketKey::Num(raw) => match ty {
            Some(t) if t.is_f64() => KeyValue::Float(f64::from_bits(*raw)),
            _ => KeyValue::Int(*raw as i64),
        },
    }
}

fn cmp_keys(a: &KeyValue, b: &KeyValue) -> Ordering {
    match (a, b) {
        (KeyValue::Str(a), KeyValue::Str(b)) => a.cmp(b),
        (KeyValue::Int(a), KeyValue::Int(b)) => a.cmp(b),
        (KeyValue::Float(a), KeyValue::Float(b)) => a.total_cmp(b),
        _ => Ordering::Equal,
    }
}

pub(super) fn bucket_json(
    req: &AggRequest,
    key: &KeyValue,
    bucket: Option<&FruitBucket>,
    ty: Option<FieldType>,
) -> Value {
    bucket_budget::consume();
    let mut obj = Map::new();
    match key {
        KeyValue::Str(s) => {
            obj.insert("key".into(), json!(s));
        }
        KeyValue::Float(f) => {
            obj.insert("key".into(), json!(f));
        }
        KeyValue::Int(i) => {
            obj.insert("key".into(), json!(i));
            match ty {
                Some(FieldType::Date) => {
                    obj.insert("key_as_string".into(), json!(format_millis(*i)));
                }
                Some(FieldType::Boolean) => {
                    obj.insert("key_as_string".into(), json!(if *i == 1 { "true" } else { "false" }));
                }
                _ if matches!(req.kind, AggKind::DateHistogram { .. }) => {
                    obj.insert("key_as_string".into(), json!(format_millis(*i)));
                }
                _ => {}
            }
        }
    }
    obj.insert("doc_count".into(), json!(bucket.map_or(0, |b| b.count)));
    for (i, sub) in req.subs.iter().enumerate() {
        let value = match bucket {
            Some(b) => render_one(sub, &b.subs[i]),
            None => render_one(sub, &AggFruit::empty(sub)),
        };
        obj.insert(sub.name.clone(), value);
    }
    Value::Object(obj)
}

fn render_terms(
    req: &AggRequest,
    buckets: Vec<(&BucketKey, &FruitBucket)>,
    size: usize,
    min_doc_count: u64,
    order: &TermsOrder,
) -> Value {
    let ty = field_type(req);
    let mut decoded: Vec<(KeyValue, &FruitBucket)> =
        buckets.into_iter().filter(|(_, b)| b.count >= min_doc_count).map(|(k, b)| (decode(k, ty), b)).collect();
    let total: u64 = decoded.iter().map(|(_, b)| b.count).sum();
    if order.is_count_or_key() {
        decoded.sort_by(|(ka, a), (kb, b)| order.compare((a, &[]), (b, &[]), || cmp_keys(ka, kb)));
    } else {
        // Metric criteria: each bucket's values are computed once, not per comparison.
        let mut keyed: Vec<(Vec<f64>, (KeyValue, &FruitBucket))> =
            decoded.into_iter().map(|(k, b)| (order.metric_values(req, b), (k, b))).collect();
        keyed.sort_by(|(va, (ka, a)), (vb, (kb, b))| order.compare((a, va), (b, vb), || cmp_keys(ka, kb)));
        decoded = keyed.into_iter().map(|(_, kb)| kb).collect();
    }
    decoded.truncate(size);
    let shown: u64 = decoded.iter().map(|(_, b)| b.count).sum();
    let rendered: Vec<Value> = decoded.iter().map(|(k, b)| bucket_json(req, k, Some(b), ty)).collect();
    json!({ "doc_count_error_upper_bound": 0, "sum_other_doc_count": total - shown, "buckets": rendered })
}

/// `rare_terms`: every term in at most `max_doc_count` docs, rarest first, then by key.
pub(super) fn render_rare_terms(
    req: &AggRequest,
    buckets: &std::collections::HashMap<BucketKey, FruitBucket>,
    max_doc_count: u64,
) -> Value {
    let ty = field_type(req);
    let mut decoded: Vec<(KeyValue, &FruitBucket)> =
        buckets.iter().filter(|(_, b)| b.count <= max_doc_count).map(|(k, b)| (decode(k, ty), b)).collect();
    decoded.sort_by(|(ka, a), (kb, b)| a.count.cmp(&b.count).then_with(|| cmp_keys(ka, kb)));
    let rendered: Vec<Value> = decoded.iter().map(|(k, b)| bucket_json(req, k, Some(b), ty)).collect();
    json!({ "buckets": rendered })
}
