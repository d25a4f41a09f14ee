//! `histogram`: numeric buckets of a fixed `interval`, keyed by their start; with
//! `min_doc_count` 0 (the default) the empty buckets between the first and last are filled.

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::render::{bucket_json, KeyValue};
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
}

impl Aggregation for Histogram {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let mut field = None;
        let mut interval = None;
        let mut min_doc_count = None;
        for (key, value) in def.body {
            let bad = || def.bad_field(key);
            match key.as_str() {
                "field" => field = def.field_option()?,
                "interval" => interval = Some(value.as_f64().filter(|i| *i > 0.0).ok_or_else(bad)?),
                "min_doc_count" => min_doc_count = Some(value.as_u64().ok_or_else(bad)?),
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
        Ok((AggKind::Histogram { interval, min_doc_count: min_doc_count.unwrap_or(0) }, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty.is_i64() || ty.is_f64()
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Histogram { interval, min_doc_count }, AggFruit::Buckets(b)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render_numeric_histogram(req, b, *interval, *min_doc_count)
    }
}

fn render_numeric_histogram(
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
            for i in (0..=steps).take_while(|_| crate::aggs::bucket_budget::exceeded().is_none()) {
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
