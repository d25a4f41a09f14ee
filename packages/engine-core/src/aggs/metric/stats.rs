//! `avg`, `sum`, `min`, `max`, `value_count`, `stats` and `extended_stats`: one running
//! `MetricState` per bucket, rendered in Elasticsearch's field order and null conventions
//! (no docs: `count` 0, `sum` 0, every other statistic null; `value` null except for `sum`
//! and `value_count`, which are 0). `missing` and `format` (`value_as_string`) are the shared
//! value-source options (`dispatch.rs`); `extended_stats` takes `sigma`.

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, MetricState};
use crate::aggs::request::{AggKind, AggRequest, MetricOp};
use crate::date::format_millis;
use crate::error::{EngineError, Result};
use crate::store::mapping::FieldType;
use crate::store::value_format::ValueFormat;

pub struct Stats;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    /// Read by `dispatch.rs` (shared with `terms` and `histogram`).
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "format")]
    _format: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtendedOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "format")]
    _format: Option<IgnoredAny>,
    #[serde(rename = "sigma")]
    _sigma: Option<IgnoredAny>,
}

impl Aggregation for Stats {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let mut sigma = 2.0;
        if def.kind_name == "extended_stats" {
            def.check_keys::<ExtendedOptions>()?;
            if let Some(v) = def.body.get("sigma") {
                sigma = v.as_f64().ok_or_else(|| def.bad_field("sigma"))?;
                if sigma < 0.0 {
                    return Err(EngineError::XContentParseCaused {
                        reason: "[extended_stats] failed to parse field [sigma]".into(),
                        cause_type: "illegal_argument_exception",
                        cause_reason: format!(
                            "[sigma] must be greater than or equal to 0. Found [{}] in [{}]",
                            crate::number::java_double(sigma),
                            def.name
                        ),
                    });
                }
            }
        } else {
            def.check_keys::<Options>()?;
        }
        let field = def.required_field(def.field_option()?)?;
        let op = match def.kind_name {
            "avg" => MetricOp::Avg,
            "sum" => MetricOp::Sum,
            "min" => MetricOp::Min,
            "max" => MetricOp::Max,
            "value_count" => MetricOp::ValueCount,
            "stats" => MetricOp::Stats,
            _ => MetricOp::ExtendedStats,
        };
        Ok((AggKind::Metric { op, sigma }, FieldRef::Field(field)))
    }

    /// `value_count` counts keyword values too; the others need numbers.
    fn accepts(&self, kind: &AggKind, ty: FieldType) -> bool {
        matches!(kind, AggKind::Metric { op: MetricOp::ValueCount, .. })
            || !matches!(ty, FieldType::Keyword | FieldType::Ip)
    }

    fn refuses_subs(&self) -> bool {
        true
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Metric { op, sigma }, AggFruit::Metric(m)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        let format = req.field.format.as_ref();
        let value = match op {
            MetricOp::Stats => return with_strings(render_stats(m), format),
            MetricOp::ExtendedStats => return with_strings(render_extended_stats(m, *sigma), format),
            MetricOp::Sum => json!(m.sum),
            MetricOp::ValueCount => json!(m.count),
            _ if m.count == 0 => Value::Null,
            MetricOp::Avg => json!(m.sum / m.count as f64),
            MetricOp::Min => json!(m.min),
            MetricOp::Max => json!(m.max),
        };
        let mut body = json!({ "value": value });
        if let (Some(format), Some(v)) = (format, value.as_f64()) {
            body["value_as_string"] = json!(format.format(v));
            return body;
        }
        if matches!(op, MetricOp::Min | MetricOp::Max) && m.count > 0 {
            let v = if *op == MetricOp::Min { m.min } else { m.max };
            // ES renders min/max of dates and booleans through the field's doc-value format.
            match req.field.resolved.as_ref().map(|r| r.1) {
                Some(FieldType::Date) => body["value_as_string"] = json!(format_millis(v as i64)),
                Some(FieldType::Boolean) => body["value_as_string"] = json!(if v != 0.0 { "true" } else { "false" }),
                _ => {}
            }
        }
        body
    }
}

fn or_null(m: &MetricState, v: f64) -> Value {
    if m.count == 0 {
        Value::Null
    } else {
        json!(v)
    }
}

fn render_stats(m: &MetricState) -> Value {
    json!({
        "count": m.count,
        "min": or_null(m, m.min),
        "max": or_null(m, m.max),
        "avg": or_null(m, m.sum / m.count as f64),
        "sum": m.sum,
    })
}

/// With a `format`, each statistic with a value also shows as `<name>_as_string` (the
/// bounds as `std_deviation_bounds_as_string`), as ES's stats do.
fn with_strings(mut out: Value, format: Option<&ValueFormat>) -> Value {
    let Some(format) = format else { return out };
    let obj = out.as_object_mut().expect("stats are an object");
    let strings: Vec<(String, Value)> = obj
        .iter()
        .filter(|(k, v)| *k != "count" && v.is_number())
        .map(|(k, v)| (format!("{k}_as_string"), json!(format.format(v.as_f64().unwrap_or_default()))))
        .collect();
    if let Some(Value::Object(bounds)) = obj.get("std_deviation_bounds") {
        let bounds: Map<String, Value> =
            bounds.iter().filter_map(|(k, v)| v.as_f64().map(|v| (k.clone(), json!(format.format(v))))).collect();
        if !bounds.is_empty() {
            obj.insert("std_deviation_bounds_as_string".into(), Value::Object(bounds));
        }
    }
    obj.extend(strings);
    out
}

/// ES's `InternalExtendedStats`: population variance, sampling variance with n-1, bounds at
/// `sigma` standard deviations (2 by default).
fn render_extended_stats(m: &MetricState, sigma: f64) -> Value {
    let mut out = render_stats(m);
    let n = m.count as f64;
    let avg = m.sum / n;
    let variance = ((m.sum_of_squares - m.sum * m.sum / n) / n).max(0.0);
    let variance_sampling = ((m.sum_of_squares - m.sum * m.sum / n) / (n - 1.0)).max(0.0);
    let (std, std_sampling) = (variance.sqrt(), variance_sampling.sqrt());
    let obj = out.as_object_mut().expect("stats is an object");
    obj.insert("sum_of_squares".into(), or_null(m, m.sum_of_squares));
    for (key, value) in [
        ("variance", variance),
        ("variance_population", variance),
        ("variance_sampling", variance_sampling),
        ("std_deviation", std),
        ("std_deviation_population", std),
        ("std_deviation_sampling", std_sampling),
    ] {
        obj.insert(key.into(), or_null(m, value));
    }
    let mut bounds = Map::new();
    for (key, value) in [
        ("upper", avg + sigma * std),
        ("lower", avg - sigma * std),
        ("upper_population", avg + sigma * std),
        ("lower_population", avg - sigma * std),
        ("upper_sampling", avg + sigma * std_sampling),
        ("lower_sampling", avg - sigma * std_sampling),
    ] {
        bounds.insert(key.into(), or_null(m, value));
    }
    obj.insert("std_deviation_bounds".into(), Value::Object(bounds));
    out
}
