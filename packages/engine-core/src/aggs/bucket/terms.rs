//! `terms`: a bucket per field value, by `order` (count desc then key asc by default), the
//! first `size` shown and the rest counted in `sum_other_doc_count`. Counts are exact: keyword
//! buckets are collected by segment ordinal and merged by term (`collect/`).

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use super::terms_filter::parse_select;
use super::terms_order;
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::options::{TermsFilter, TermsOrder};
use crate::aggs::render::{bucket_json, cmp_keys, decode, field_type, KeyValue};
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::Result;

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
    #[serde(rename = "include")]
    _include: Option<IgnoredAny>,
    #[serde(rename = "exclude")]
    _exclude: Option<IgnoredAny>,
    #[serde(rename = "show_term_doc_count_error")]
    _show_term_doc_count_error: Option<IgnoredAny>,
    /// Read by `dispatch.rs` (shared with the metrics and `histogram`).
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "format")]
    _format: Option<IgnoredAny>,
    /// Read by `dispatch.rs`: the type of an unmapped field's `missing`.
    #[serde(rename = "value_type")]
    _value_type: Option<IgnoredAny>,
    /// One shard and exact counts: there is no shard-level minimum to apply.
    #[serde(rename = "shard_min_doc_count")]
    _shard_min_doc_count: Option<IgnoredAny>,
    /// Both collection modes give the same buckets; the engine picks its own strategy.
    #[serde(rename = "collect_mode")]
    _collect_mode: Option<IgnoredAny>,
    /// `global_ordinals` or `map`: how to count, not what; every hint counts exactly here.
    #[serde(rename = "execution_hint")]
    _execution_hint: Option<IgnoredAny>,
}

impl Aggregation for Terms {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let mut field = None;
        let mut size = 10usize;
        let mut min_doc_count = None;
        let mut order = TermsOrder::count_desc();
        let mut filter = TermsFilter::default();
        let ty = def.field_name();
        let ty = def.mapping.get(&ty).map(|fm| fm.field_type);
        let ty = match (ty, def.body.get("value_type")) {
            (None, Some(v)) => Some(crate::store::value_format::parse_value_type(v)?),
            (ty, _) => ty,
        };
        for (key, value) in def.body {
            let bad = || def.bad_field(key);
            match key.as_str() {
                "field" => field = def.field_option()?,
                "size" => size = value.as_u64().ok_or_else(bad)? as usize,
                "min_doc_count" => min_doc_count = Some(value.as_u64().ok_or_else(bad)?),
                "order" => order = terms_order::parse(value, def.subs, bad)?,
                "include" => filter.include = Some(parse_select(def.name, key, value, ty)?),
                "exclude" => filter.exclude = Some(parse_select(def.name, key, value, ty)?),
                "show_term_doc_count_error" => filter.show_error = value.as_bool().ok_or_else(bad)?,
                _ => {}
            }
        }
        let field = def.required_field(field)?;
        let filter = (filter != TermsFilter::default()).then(|| Box::new(filter));
        Ok((AggKind::Terms { size, min_doc_count: min_doc_count.unwrap_or(1), order, filter }, FieldRef::Field(field)))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Terms { size, min_doc_count, order, filter }, AggFruit::Buckets(buckets)) = (&req.kind, fruit)
        else {
            unreachable!("fruit shape follows the request")
        };
        render_terms(req, buckets.iter().collect(), *size, *min_doc_count, order, filter.as_deref())
    }
}

fn render_terms(
    req: &AggRequest,
    buckets: Vec<(&BucketKey, &FruitBucket)>,
    size: usize,
    min_doc_count: u64,
    order: &TermsOrder,
    filter: Option<&TermsFilter>,
) -> Value {
    let ty = field_type(req);
    let mut decoded: Vec<(KeyValue, &FruitBucket)> = buckets
        .into_iter()
        .filter(|(_, b)| b.count >= min_doc_count)
        .map(|(k, b)| (decode(k, ty), b))
        .filter(|(k, _)| filter.is_none_or(|f| f.keeps(k)))
        .collect();
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
    let show_error = filter.is_some_and(|f| f.show_error);
    let rendered: Vec<Value> = decoded
        .iter()
        .map(|(k, b)| {
            let mut bucket = bucket_json(req, k, Some(b), ty);
            if let (Some(format), KeyValue::Int(_) | KeyValue::Float(_)) = (&req.field.format, k) {
                let v = match k {
                    KeyValue::Int(i) => *i as f64,
                    KeyValue::Float(f) => *f,
                    KeyValue::Str(_) => unreachable!("matched above"),
                };
                bucket["key_as_string"] = json!(format.format(v));
            }
            if show_error {
                // Counts are exact on one shard: the bound is always 0.
                bucket["doc_count_error_upper_bound"] = json!(0);
            }
            bucket
        })
        .collect();
    json!({ "doc_count_error_upper_bound": 0, "sum_other_doc_count": total - shown, "buckets": rendered })
}
