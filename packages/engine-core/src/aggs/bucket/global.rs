//! `global`: one bucket of every document of the index, whatever the query (collected in a
//! pass of its own, `search::execute`); allowed at the top level only (`request::split_global`).

use serde::Deserialize;
use serde_json::Value;

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::render::single_bucket;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::Result;

pub struct Global;

/// `global` takes no options.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {}

impl Aggregation for Global {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        Ok((AggKind::Global, FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match fruit {
            AggFruit::Buckets(b) => single_bucket(req, b.values().next()),
            _ => Value::Null,
        }
    }
}
