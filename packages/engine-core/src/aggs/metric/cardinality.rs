//! `cardinality`: the exact distinct count of a field's values (ES is exact too below 3000
//! values). Collected like `terms`; keyword values merge across segments as sorted term lists.
//! `precision_threshold` only trades ES's accuracy for memory: an exact count is what any
//! threshold asks for, so it is checked and accepted.

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result};

pub struct Cardinality;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "precision_threshold")]
    _precision_threshold: Option<IgnoredAny>,
    /// Read by `dispatch.rs`: what a document without a value counts as.
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
}

impl Aggregation for Cardinality {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        if let Some(v) = def.body.get("precision_threshold") {
            let threshold = v.as_i64().ok_or_else(|| def.bad_field("precision_threshold"))?;
            if threshold < 0 {
                return Err(EngineError::IllegalArgument(format!(
                    "[precisionThreshold] must be greater than or equal to 0. Found [{threshold}] in [{}]",
                    def.name
                )));
            }
        }
        Ok((AggKind::Cardinality, FieldRef::Field(def.required_field(def.field_option()?)?)))
    }

    fn refuses_subs(&self) -> bool {
        true
    }

    fn render(&self, _req: &AggRequest, fruit: &AggFruit) -> Value {
        match fruit {
            AggFruit::Buckets(buckets) => json!({ "value": buckets.len() }),
            AggFruit::Distinct(terms) => json!({ "value": terms.len() }),
            _ => unreachable!("fruit shape follows the request"),
        }
    }
}
