//! Sibling pipelines (`*_bucket`): one value computed over the buckets of a sibling
//! multi-bucket aggregation, skipping gaps.

use serde_json::{json, Map, Value};

use super::path::BucketsPath;
use super::spec::{PipelineKind, PipelineSpec};
use super::values::{bucket_value, finite_or_null, key_as_string, simple_value};
use crate::error::{EngineError, Result};
use crate::number::java_double;

pub fn run(spec: &PipelineSpec, level: &Map<String, Value>) -> Result<Value> {
    let path = &spec.paths[0].1;
    let flat = path.flat();
    // The part after the first element, resolved inside each bucket of that aggregation.
    let rest: Vec<String> = flat[1..].iter().map(|s| s.to_string()).collect();
    let rest_path = BucketsPath {
        raw: rest.join(">"),
        elements: rest.iter().map(|n| super::path::PathElement { name: n.clone(), key: None }).collect(),
    };
    let agg = level.get(path.first()).and_then(Value::as_object);
    let buckets: Vec<(String, &Map<String, Value>)> = match agg.and_then(|a| a.get("buckets")) {
        Some(Value::Array(list)) => {
            list.iter().filter_map(Value::as_object).map(|b| (key_as_string(b, ""), b)).collect()
        }
        Some(Value::Object(keyed)) => {
            keyed.iter().filter_map(|(k, b)| b.as_object().map(|b| (key_as_string(b, k), b))).collect()
        }
        _ => {
            return Err(EngineError::IllegalArgument(format!(
                "buckets_path must reference a multi-bucket aggregation: [{}]",
                path.raw
            )))
        }
    };
    let mut values: Vec<(String, f64)> = Vec::new();
    for (key, bucket) in buckets {
        if rest_path.elements.is_empty() {
            return Err(EngineError::IllegalArgument(format!(
                "buckets_path must reference either a number value or a single value numeric metric aggregation, got: [bucket] at aggregation [{}]",
                path.first()
            )));
        }
        if let Some(v) = bucket_value(bucket, &rest_path, spec.gap)?.filter(|v| !v.is_nan()) {
            values.push((key, v));
        }
    }
    let nums: Vec<f64> = values.iter().map(|(_, v)| *v).collect();
    let sum: f64 = nums.iter().sum();
    Ok(match &spec.kind {
        PipelineKind::SumBucket => simple_value(sum),
        PipelineKind::AvgBucket => simple_value(if nums.is_empty() { f64::NAN } else { sum / nums.len() as f64 }),
        PipelineKind::MaxBucket | PipelineKind::MinBucket => {
            let max = matches!(spec.kind, PipelineKind::MaxBucket);
            let mut best = if max { f64::NEG_INFINITY } else { f64::INFINITY };
            let mut keys: Vec<String> = Vec::new();
            for (k, v) in &values {
                if (max && *v > best) || (!max && *v < best) {
                    best = *v;
                    keys.clear();
                    keys.push(k.clone());
                } else if *v == best {
                    keys.push(k.clone());
                }
            }
            json!({ "value": finite_or_null(best), "keys": keys })
        }
        PipelineKind::StatsBucket => {
            if nums.is_empty() {
                json!({ "count": 0, "min": null, "max": null, "avg": null, "sum": 0.0 })
            } else {
                let min = nums.iter().copied().fold(f64::INFINITY, f64::min);
                let max = nums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                json!({ "count": nums.len(), "min": min, "max": max, "avg": sum / nums.len() as f64, "sum": sum })
            }
        }
        PipelineKind::PercentilesBucket { percents, keyed } => {
            let mut sorted = nums.clone();
            sorted.sort_by(f64::total_cmp);
            let at = |p: f64| -> f64 {
                if sorted.is_empty() {
                    return f64::NAN;
                }
                // ES takes the nearest rank, rounding half up like Java's Math.round.
                let idx = ((p / 100.0) * (sorted.len() - 1) as f64 + 0.5).floor() as usize;
                sorted[idx.min(sorted.len() - 1)]
            };
            if *keyed {
                let map: Map<String, Value> =
                    percents.iter().map(|p| (java_double(*p), finite_or_null(at(*p)))).collect();
                json!({ "values": map })
            } else {
                let list: Vec<Value> =
                    percents.iter().map(|p| json!({ "key": p, "value": finite_or_null(at(*p)) })).collect();
                json!({ "values": list })
            }
        }
        _ => unreachable!("only sibling kinds reach here"),
    })
}
