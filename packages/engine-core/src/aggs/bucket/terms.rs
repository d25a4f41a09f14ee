//! `terms`: a bucket per field value, by `order` (count desc then key asc by default), the
//! first `size` shown and the rest counted in `sum_other_doc_count`. Counts are exact: keyword
//! buckets are collected by segment ordinal and merged by term (`collect/`).

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use super::terms_order;
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::options::TermsOrder;
use crate::aggs::render::{bucket_json, cmp_keys, decode, field_type, KeyValue};
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};

pub struct Terms;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "size")]
    _size: Option<IgnoredAny>,
    #[serde(rename = "min_doc_count")]
    _min_doc_count: Option<IgnoredAny>,
    #[serde(rename = "order")]
    _order: Option<IgnoredAny>,
    /// Accepted and ignored: one shard, so every term is counted exactly.
    #[serde(rename = "shard_size")]
    _shard_size: Option<IgnoredAny>,
}

impl Aggregation for Terms {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let mut field = None;
        let mut size = 10usize;
        let mut min_doc_count = None;
        let mut order = TermsOrder::count_desc();
        for (key, value) in def.body {
            let bad = || def.bad_field(key);
            match key.as_str() {
                "field" => field = def.field_option()?,
                "size" => size = value.as_u64().ok_or_else(bad)? as usize,
                "min_doc_count" => min_doc_count = Some(value.as_u64().ok_or_else(bad)?),
                "order" => order = terms_order::parse(value, def.subs, bad)?,
                _ => {}
            }
        }
        let field = def.required_field(field)?;
        if min_doc_count == Some(0) {
            return Err(EngineError::shard(ShardCause::IllegalArgument, "[terms] min_doc_count 0 is not supported"));
        }
        Ok((AggKind::Terms { size, min_doc_count: min_doc_count.unwrap_or(1), order }, FieldRef::Field(field)))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Terms { size, min_doc_count, order }, AggFruit::Buckets(buckets)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render_terms(req, buckets.iter().collect(), *size, *min_doc_count, order)
    }
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
