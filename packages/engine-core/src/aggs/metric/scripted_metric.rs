//! `scripted_metric`: only the recognised "sum a field" shape (`script/scripted_metric.rs`),
//! answered as a `sum` of that field.

use serde_json::Value;

use super::stats::Stats;
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::request::{AggKind, AggRequest, MetricOp};
use crate::error::Result;
use crate::store::mapping::FieldType;

pub struct ScriptedMetric;

impl Aggregation for ScriptedMetric {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let field = crate::script::scripted_metric::summed_field(def.body)?;
        Ok((AggKind::Metric { op: MetricOp::Sum, sigma: 2.0 }, FieldRef::Field(field)))
    }

    fn accepts(&self, kind: &AggKind, ty: FieldType) -> bool {
        Stats.accepts(kind, ty)
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        Stats.render(req, fruit)
    }
}
