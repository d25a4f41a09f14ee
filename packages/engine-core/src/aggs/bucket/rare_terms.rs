//! `rare_terms`: every term in at most `max_doc_count` documents, rarest first, then by key.
//! Counted exactly (ES uses a cuckoo filter whose false positives can only drop terms).

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use super::terms_filter::parse_select;
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::options::{TermSelect, TermsFilter};
use crate::aggs::render::{bucket_json, cmp_keys, decode, field_type, KeyValue};
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};

/// ES rejects a larger `max_doc_count`.
const MAX_RARE_DOC_COUNT: u64 = 100;

pub struct RareTerms;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "max_doc_count")]
    _max_doc_count: Option<IgnoredAny>,
    /// The cuckoo filter's precision: our counting is exact, so it changes nothing.
    #[serde(rename = "precision")]
    _precision: Option<IgnoredAny>,
    #[serde(rename = "include")]
    _include: Option<IgnoredAny>,
    #[serde(rename = "exclude")]
    _exclude: Option<IgnoredAny>,
    /// The type of an unmapped field's values; without `missing` it changes no result.
    #[serde(rename = "value_type")]
    _value_type: Option<IgnoredAny>,
}

impl Aggregation for RareTerms {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let mut field = None;
        let mut max_doc_count = 1;
        let mut filter = TermsFilter::default();
        let ty = def.mapping.get(&def.field_name()).map(|fm| fm.field_type);
        for (key, value) in def.body {
            match key.as_str() {
                "field" => field = def.field_option()?,
                "max_doc_count" => max_doc_count = value.as_u64().ok_or_else(|| def.bad_field(key))?,
                "include" => filter.include = Some(parse_select(def.name, key, value, ty)?),
                "exclude" => filter.exclude = Some(parse_select(def.name, key, value, ty)?),
                "value_type" => {
                    crate::store::value_format::parse_value_type(value)?;
                }
                _ => {}
            }
        }
        if matches!(filter.include, Some(TermSelect::Partition { .. })) {
            return Err(EngineError::XContentParse("[rare_terms] [include] does not support partitions".into()));
        }
        let field = def.required_field(field)?;
        if max_doc_count == 0 || max_doc_count > MAX_RARE_DOC_COUNT {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!(
                    "[max_doc_count] must be greater than 0 and smaller than or equal to [{MAX_RARE_DOC_COUNT}], found [{max_doc_count}]"
                ),
            ));
        }
        let filter = (filter != TermsFilter::default()).then(|| Box::new(filter));
        Ok((AggKind::RareTerms { max_doc_count, filter }, FieldRef::Field(field)))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::RareTerms { max_doc_count, filter }, AggFruit::Buckets(b)) => {
                render_rare_terms(req, b, *max_doc_count, filter.as_deref())
            }
            _ => Value::Null,
        }
    }
}

fn render_rare_terms(
    req: &AggRequest,
    buckets: &HashMap<BucketKey, FruitBucket>,
    max_doc_count: u64,
    filter: Option<&TermsFilter>,
) -> Value {
    let ty = field_type(req);
    let mut decoded: Vec<(KeyValue, &FruitBucket)> = buckets
        .iter()
        .filter(|(_, b)| b.count <= max_doc_count)
        .map(|(k, b)| (decode(k, ty), b))
        .filter(|(k, _)| filter.is_none_or(|f| f.keeps(k)))
        .collect();
    decoded.sort_by(|(ka, a), (kb, b)| a.count.cmp(&b.count).then_with(|| cmp_keys(ka, kb)));
    let rendered: Vec<Value> = decoded.iter().map(|(k, b)| bucket_json(req, k, Some(b), ty)).collect();
    json!({ "buckets": rendered })
}
