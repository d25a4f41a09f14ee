//! `histogram`: numeric buckets of a fixed `interval` (shifted by `offset`), keyed by their
//! start; with `min_doc_count` 0 (the default) the empty buckets between the first and last,
//! or out to `extended_bounds`, are filled; `hard_bounds` drops buckets outside `[min, max]`;
//! `keyed` renders an object, `order` sorts by key, count or a metric sub-aggregation.
//! `missing` and `format` are the shared value-source options (`dispatch.rs`).

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::terms_order;
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::options::HistogramOpts;
use crate::aggs::render::{bucket_json, cmp_keys, java_double, KeyValue};
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

pub struct Histogram;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "interval")]
    _interval: Option<IgnoredAny>,
    #[serde(rename = "min_doc_count")]
    _min_doc_count: Option<IgnoredAny>,
    #[serde(rename = "offset")]
    _offset: Option<IgnoredAny>,
    #[serde(rename = "extended_bounds")]
    _extended_bounds: Option<IgnoredAny>,
    #[serde(rename = "hard_bounds")]
    _hard_bounds: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
    #[serde(rename = "order")]
    _order: Option<IgnoredAny>,
    /// Read by `dispatch.rs` (shared with the metrics and `terms`).
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "format")]
    _format: Option<IgnoredAny>,
}

/// `{min, max}`, either optional.
fn bounds(def: &AggDef, key: &str, value: &Value) -> Result<(Option<f64>, Option<f64>)> {
    let obj = value.as_object().ok_or_else(|| def.bad_field(key))?;
    if let Some(other) = obj.keys().find(|k| !matches!(k.as_str(), "min" | "max")) {
        return Err(EngineError::XContentParse(format!("[{key}] unknown field [{other}]")));
    }
    let read = |name: &str| match obj.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok())).map(Some).ok_or_else(|| def.bad_field(key))
        }
    };
    Ok((read("min")?, read("max")?))
}

impl Aggregation for Histogram {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let mut field = None;
        let mut interval = None;
        let mut min_doc_count = None;
        let mut opts = HistogramOpts::default();
        for (key, value) in def.body {
            let bad = || def.bad_field(key);
            match key.as_str() {
                "field" => field = def.field_option()?,
                "interval" => interval = Some(value.as_f64().filter(|i| *i > 0.0).ok_or_else(bad)?),
                "min_doc_count" => min_doc_count = Some(value.as_u64().ok_or_else(bad)?),
                "offset" => opts.offset = value.as_f64().ok_or_else(bad)?,
                "extended_bounds" => opts.extended_bounds = Some(bounds(def, key, value)?),
                "hard_bounds" => opts.hard_bounds = Some(bounds(def, key, value)?),
                "keyed" => opts.keyed = value.as_bool().ok_or_else(bad)?,
                "order" => opts.order = Some(terms_order::parse(value, def.subs, bad)?),
                _ => {}
            }
        }
        let field = def.required_field(field)?;
        let interval = interval.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("[interval] must be >0 for histogram aggregation [{}]", def.name),
            )
        })?;
        if let Some((Some(min), Some(max))) = opts.extended_bounds {
            if min > max {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("[extended_bounds.min][{min}] cannot be greater than [extended_bounds.max][{max}]"),
                ));
            }
        }
        let kind = AggKind::Histogram { interval, min_doc_count: min_doc_count.unwrap_or(0), opts: Box::new(opts) };
        Ok((kind, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty.is_i64() || ty.is_f64()
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Histogram { interval, min_doc_count, opts }, AggFruit::Buckets(b)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render_numeric_histogram(req, b, *interval, *min_doc_count, opts)
    }
}

/// The key of the bucket holding `v`, as ES's `HistogramAggregator` rounds: `floor((v -
/// offset) / interval) * interval + offset`; `None` outside `hard_bounds`.
pub(crate) fn bucket_key(v: f64, interval: f64, opts: &HistogramOpts) -> Option<f64> {
    let key = ((v - opts.offset) / interval).floor() * interval + opts.offset;
    match opts.hard_bounds {
        Some((min, max)) if min.is_some_and(|m| key < m) || max.is_some_and(|m| key > m) => None,
        _ => Some(key),
    }
}

/// A bucket's key and its collected result (`None`: an empty bucket filled in).
type Entry<'a> = (f64, Option<&'a FruitBucket>);

fn render_numeric_histogram(
    req: &AggRequest,
    buckets: &HashMap<BucketKey, FruitBucket>,
    interval: f64,
    min_doc_count: u64,
    opts: &HistogramOpts,
) -> Value {
    let mut keyed: Vec<(f64, Option<&FruitBucket>)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Num(raw) => Some((f64::from_bits(*raw), Some(b))),
            BucketKey::Str(_) => None,
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    if min_doc_count == 0 {
        keyed = with_empty_buckets(keyed, interval, opts);
    } else {
        keyed.retain(|(_, b)| b.is_some_and(|b| b.count >= min_doc_count));
    }
    if let Some(order) = &opts.order {
        let empty = FruitBucket { count: 0, subs: Vec::new() };
        let mut ordered: Vec<(Vec<f64>, Entry)> =
            keyed.into_iter().map(|(k, b)| (order.metric_values(req, b.unwrap_or(&empty)), (k, b))).collect();
        ordered.sort_by(|(va, (ka, a)), (vb, (kb, b))| {
            order.compare((a.unwrap_or(&empty), va), (b.unwrap_or(&empty), vb), || {
                cmp_keys(&KeyValue::Float(*ka), &KeyValue::Float(*kb))
            })
        });
        keyed = ordered.into_iter().map(|(_, kb)| kb).collect();
    }
    let mut out = Vec::with_capacity(keyed.len());
    for (key, bucket) in keyed {
        if crate::aggs::bucket_budget::exceeded().is_some() {
            break;
        }
        let mut rendered = bucket_json(req, &KeyValue::Float(key), bucket, None);
        if let Some(format) = &req.field.format {
            rendered["key_as_string"] = json!(format.format(key));
        }
        out.push((key, rendered));
    }
    if opts.keyed {
        let mut obj = Map::new();
        for (key, bucket) in out {
            let name =
                bucket.get("key_as_string").and_then(Value::as_str).map_or_else(|| java_double(key), str::to_string);
            obj.insert(name, bucket);
        }
        return json!({ "buckets": obj });
    }
    json!({ "buckets": out.into_iter().map(|(_, b)| b).collect::<Vec<_>>() })
}

/// Every bucket from the first to the last (or out to `extended_bounds`, within
/// `hard_bounds`), empty ones included. Bounded by the number of intervals spanned, and by
/// the bucket budget.
fn with_empty_buckets<'a>(
    data: Vec<(f64, Option<&'a FruitBucket>)>,
    interval: f64,
    opts: &HistogramOpts,
) -> Vec<(f64, Option<&'a FruitBucket>)> {
    let round = |v: f64| ((v - opts.offset) / interval).floor() * interval + opts.offset;
    let (ext_min, ext_max) = opts.extended_bounds.unwrap_or((None, None));
    let mut lo = data.first().map(|d| d.0);
    let mut hi = data.last().map(|d| d.0);
    if let Some(min) = ext_min {
        lo = Some(lo.map_or(round(min), |l| l.min(round(min))));
    }
    if let Some(max) = ext_max {
        hi = Some(hi.map_or(round(max), |h| h.max(round(max))));
    }
    let (Some(mut lo), Some(mut hi)) = (lo, hi) else { return data };
    if let Some((min, max)) = opts.hard_bounds {
        lo = min.map_or(lo, |m| lo.max(round(m) + if round(m) < m { interval } else { 0.0 }));
        hi = max.map_or(hi, |m| hi.min(round(m)));
    }
    let mut out = Vec::new();
    // Past the bucket limit the render fails anyway (`search.max_buckets`): never build more.
    let steps = ((hi - lo) / interval).round().min(crate::aggs::MAX_BUCKETS as f64 + 1.0);
    if steps.is_nan() || steps < 0.0 {
        return data;
    }
    let mut next = data.into_iter().peekable();
    for i in 0..=(steps as u64) {
        if crate::aggs::bucket_budget::exceeded().is_some() {
            break;
        }
        let at = lo + i as f64 * interval;
        // Keys from collection can carry float error: match within half an interval.
        while next.peek().is_some_and(|(k, _)| *k < at - interval / 2.0) {
            next.next();
        }
        match next.peek() {
            Some((k, b)) if (*k - at).abs() < interval / 2.0 => {
                out.push((*k, *b));
                next.next();
            }
            _ => out.push((at, None)),
        }
    }
    out
}
