//! `weighted_avg`: `sum(value * weight) / sum(weight)` over the matching documents, each
//! value of a document counted with the document's weight, as ES's `WeightedAvgAggregator`.
//! `value` and `weight` each name a numeric field and may give a `missing` value; a document
//! without a value (or weight) and no `missing` is left out. Collected in a `MetricState`:
//! `sum` holds the weighted sum and `sum_of_squares` the sum of weights, which merge across
//! segments by addition exactly as the sums they stand for.

use serde_json::{json, Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, MetricState};
use crate::aggs::options::{MatrixField, WeightedSpec};
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::Mapping;

pub struct WeightedAvg;

/// `{"field": .., "missing": ..}`; an unmapped field is `None` (no document has a value).
fn source(def: &AggDef, key: &str, mapping: &Mapping) -> Result<(Option<MatrixField>, Option<f64>)> {
    let bad = || def.bad_field(key);
    let obj = def.body.get(key).and_then(Value::as_object).ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({})", def.name),
        )
    })?;
    let mut field = None;
    let mut missing = None;
    for (k, v) in obj {
        match k.as_str() {
            "field" => field = Some(v.as_str().ok_or_else(bad)?),
            "missing" => {
                missing = Some(v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok())).ok_or_else(bad)?)
            }
            other => return Err(EngineError::XContentParse(format!("[{key}] unknown field [{other}]"))),
        }
    }
    let field = field.ok_or_else(bad)?;
    let Some(fm) = mapping.get(field) else { return Ok((None, missing)) };
    if !(fm.field_type.is_i64() || fm.field_type.is_f64()) {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
                "Field [{field}] of type [{}] is not supported for aggregation [weighted_avg]",
                fm.field_type.name()
            ),
        ));
    }
    let column = mapping.schema.get_field_name(fm.field).to_string();
    Ok((Some(MatrixField { name: field.to_string(), column, is_f64: fm.field_type.is_f64() }), missing))
}

impl Aggregation for WeightedAvg {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        if let Some(other) = def.body.keys().find(|k| !matches!(k.as_str(), "value" | "weight" | "format")) {
            return Err(EngineError::XContentParse(format!("[weighted_avg] unknown field [{other}]")));
        }
        if def.body.contains_key("format") {
            return Err(EngineError::XContentParse("[weighted_avg] [format] is not supported".into()));
        }
        let (value, value_missing) = source(def, "value", def.mapping)?;
        let (weight, weight_missing) = source(def, "weight", def.mapping)?;
        let spec = WeightedSpec { value, value_missing, weight, weight_missing };
        Ok((AggKind::WeightedAvg(Box::new(spec)), FieldRef::Unresolved(String::new())))
    }

    fn refuses_subs(&self) -> bool {
        true
    }

    fn render(&self, _req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggFruit::Metric(m) = fruit else { return json!({ "value": null }) };
        let mut out = Map::new();
        let weights = m.sum_of_squares;
        out.insert("value".into(), if m.count == 0 || weights == 0.0 { Value::Null } else { json!(m.sum / weights) });
        Value::Object(out)
    }
}

/// Adds one document: each of its values (or the `missing` one) with its weight.
pub(crate) fn add_document(values: &[f64], weight: Option<f64>, spec: &WeightedSpec, state: &mut MetricState) {
    let Some(weight) = weight.or(spec.weight_missing) else { return };
    let mut add = |v: f64| {
        state.count += 1;
        state.sum += v * weight;
        state.sum_of_squares += weight;
    };
    if values.is_empty() {
        if let Some(v) = spec.value_missing {
            add(v);
        }
    } else {
        values.iter().copied().for_each(add);
    }
}
