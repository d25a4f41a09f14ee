//! Rendering of stats, extended_stats, missing, numeric histogram and range aggregations,
//! in Elasticsearch's field order and null conventions (no docs: `count` 0, `sum` 0, every
//! other statistic null).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::collect::{BucketKey, FruitBucket, MetricState};
use super::render::{bucket_json, render_one, KeyValue};
use super::{AggFruit, AggRequest, RangeKeys, RangeSpec};
use crate::date::format_millis;

fn or_null(m: &MetricState, v: f64) -> Value {
    if m.count == 0 {
        Value::Null
    } else {
        json!(v)
    }
}

pub(super) fn render_stats(m: &MetricState) -> Value {
    json!({
        "count": m.count,
        "min": or_null(m, m.min),
        "max": or_null(m, m.max),
        "avg": or_null(m, m.sum / m.count as f64),
        "sum": m.sum,
    })
}

/// ES's `InternalExtendedStats`: population variance, sampling variance with n-1, bounds at
/// the default `sigma` 2.
pub(super) fn render_extended_stats(m: &MetricState) -> Value {
    let mut out = render_stats(m);
    let n = m.count as f64;
    let avg = m.sum / n;
    let variance = ((m.sum_of_squares - m.sum * m.sum / n) / n).max(0.0);
    let variance_sampling = ((m.sum_of_squares - m.sum * m.sum / n) / (n - 1.0)).max(0.0);
    let (std, std_sampling) = (variance.sqrt(), variance_sampling.sqrt());
    let obj = out.as_object_mut().expect("stats is an object");
    obj.insert("sum_of_squares".into(), or_null(m, m.sum_of_squares));
    for (key, value) in [
        ("variance", variance),
        ("variance_population", variance),
        ("variance_sampling", variance_sampling),
        ("std_deviation", std),
        ("std_deviation_population", std),
        ("std_deviation_sampling", std_sampling),
    ] {
        obj.insert(key.into(), or_null(m, value));
    }
    let mut bounds = Map::new();
    for (key, value) in [
        ("upper", avg + 2.0 * std),
        ("lower", avg - 2.0 * std),
        ("upper_population", avg + 2.0 * std),
        ("lower_population", avg - 2.0 * std),
        ("upper_sampling", avg + 2.0 * std_sampling),
        ("lower_sampling", avg - 2.0 * std_sampling),
    ] {
        bounds.insert(key.into(), or_null(m, value));
    }
    obj.insert("std_deviation_bounds".into(), Value::Object(bounds));
    out
}

pub(super) fn render_missing(req: &AggRequest, bucket: Option<&FruitBucket>) -> Value {
    let mut obj = Map::new();
    obj.insert("doc_count".into(), json!(bucket.map_or(0, |b| b.count)));
    for (i, sub) in req.subs.iter().enumerate() {
        let fruit = bucket.map_or_else(|| AggFruit::empty(sub), |b| b.subs[i].clone());
        obj.insert(sub.name.clone(), render_one(sub, &fruit));
    }
    Value::Object(obj)
}

pub(super) fn render_numeric_histogram(
    req: &AggRequest,
    buckets: &HashMap<BucketKey, FruitBucket>,
    interval: f64,
    min_doc_count: u64,
) -> Value {
    let mut keyed: Vec<(f64, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Num(raw) => Some((f64::from_bits(*raw), b)),
            BucketKey::Str(_) => None,
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    if min_doc_count == 0 {
        if let (Some(first), Some(last)) = (keyed.first().map(|k| k.0), keyed.last().map(|k| k.0)) {
            // Bounded by the number of intervals between the first and last non-empty buckets.
            let steps = ((last - first) / interval).round() as u64;
            let mut next = keyed.iter().peekable();
            for i in (0..=steps).take_while(|_| super::bucket_budget::exceeded().is_none()) {
                let at = first + i as f64 * interval;
                let bucket = match next.peek() {
                    Some((k, b)) if (*k - at).abs() < interval / 2.0 => {
                        next.next();
                        Some(*b)
                    }
                    _ => None,
                };
                out.push(bucket_json(req, &KeyValue::Float(at), bucket, None));
            }
        }
    } else {
        out.extend(
            keyed
                .iter()
                .filter(|(_, b)| b.count >= min_doc_count)
                .map(|(k, b)| bucket_json(req, &KeyValue::Float(*k), Some(b), None)),
        );
    }
    json!({ "buckets": out })
}

/// Java's `Double.toString` for the values range keys are built from (`100.0`, `2.5`).
pub(super) fn java_double(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e7 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

pub(super) fn render_range(
    req: &AggRequest,
    ranges: &[RangeSpec],
    keys: &RangeKeys,
    buckets: &HashMap<BucketKey, FruitBucket>,
) -> Value {
    let text = |v: f64| match keys {
        RangeKeys::Numeric => java_double(v),
        RangeKeys::Date(None) => format_millis(v as i64),
        RangeKeys::Date(Some(pattern)) => pattern.format(v as i64),
    };
    let out: Vec<Value> = ranges
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let key = r.key.clone().unwrap_or_else(|| {
                let side = |b: Option<f64>| b.map_or_else(|| "*".to_string(), text);
                format!("{}-{}", side(r.from), side(r.to))
            });
            let rendered = bucket_json(req, &KeyValue::Str(key), buckets.get(&BucketKey::Num(i as u64)), None);
            // ES puts from/to between key and doc_count; JSON object order does not matter to clients.
            let mut obj = rendered.as_object().cloned().unwrap_or_default();
            let is_date = matches!(keys, RangeKeys::Date(_));
            for (name, bound) in [("from", r.from), ("to", r.to)] {
                if let Some(v) = bound {
                    obj.insert(name.into(), json!(v));
                    if is_date {
                        obj.insert(format!("{name}_as_string"), json!(text(v)));
                    }
                }
            }
            Value::Object(obj)
        })
        .collect();
    json!({ "buckets": out })
}
