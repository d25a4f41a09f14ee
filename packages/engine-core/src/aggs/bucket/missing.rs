//! `missing`: one bucket of the documents with no value in the field.

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::render::single_bucket;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::Result;

pub struct Missing;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    /// Read by `dispatch.rs`: with it every document has a value, so the bucket is empty.
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
}

impl Aggregation for Missing {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        Ok((AggKind::Missing, FieldRef::Field(def.required_field(def.field_option()?)?)))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggFruit::Buckets(buckets) = fruit else { unreachable!("fruit shape follows the request") };
        single_bucket(req, buckets.values().next())
    }
}
