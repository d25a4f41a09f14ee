//! Reading a pipeline input from a rendered bucket with ES's gap rules, and writing a
//! simple `{"value": x}` output (NaN and infinities render as null, like ES).

use serde_json::{json, Map, Value};

use super::path::{doc_count, resolve, BucketsPath};
use super::spec::GapPolicy;
use crate::error::Result;

/// The value at `path` in `bucket`; a gap (no value, or an empty bucket for anything but
/// `_count`) becomes 0 under `insert_zeros` and NaN under `skip`. `None` when the bucket
/// lacks the aggregation (a pipeline that produced nothing there): ES skips those whatever
/// the gap policy.
pub fn bucket_value(bucket: &Map<String, Value>, path: &BucketsPath, gap: GapPolicy) -> Result<Option<f64>> {
    let flat = path.flat();
    if let Some(first) = flat.first() {
        if !matches!(*first, "_count" | "_key") && !bucket.contains_key(*first) {
            return Ok(None);
        }
    }
    let v = resolve(bucket, &flat, &path.raw)?;
    if !v.is_finite() || (doc_count(bucket) == 0 && !path.is_count()) {
        return Ok(Some(match gap {
            GapPolicy::InsertZeros => 0.0,
            GapPolicy::Skip => f64::NAN,
        }));
    }
    Ok(Some(v))
}

pub fn finite_or_null(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

pub fn simple_value(v: f64) -> Value {
    json!({ "value": finite_or_null(v) })
}

/// ES's `getKeyAsString()`: `key_as_string` when rendered, else the key itself.
pub fn key_as_string(bucket: &Map<String, Value>, fallback: &str) -> String {
    match bucket.get("key_as_string").or_else(|| bucket.get("key")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => fallback.to_string(),
    }
}
