//! `date_histogram`: options (`calendar_interval`/`fixed_interval`, `time_zone`, `offset`,
//! `extended_bounds`, `hard_bounds`, `format`, `keyed`, `min_doc_count`) and the rendering,
//! with empty buckets filled between the data and out to `extended_bounds` as ES's
//! `InternalDateHistogram.addEmptyBuckets` does.

use std::collections::HashMap;
use std::fmt::Write;

use serde_json::{json, Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket_budget;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::{BucketKey, FruitBucket};
use crate::aggs::options::DateHistogramOpts;
use crate::aggs::render::render_one;
use crate::aggs::request::{AggKind, AggRequest, Interval};
use crate::date::math::CalendarUnit;
use crate::date::rounding::{Bounds, KeyFormat, KeyStyle, Rounding};
use crate::date::zone::DateZone;
use crate::date::{parse_date_with_precision, parse_format_list, DateFormat, DEFAULT_FORMATS};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;
use crate::store::mapping::Mapping;

fn failed(kind: &str, key: &str) -> EngineError {
    EngineError::XContentParse(format!("[{kind}] failed to parse field [{key}]"))
}

/// `time_zone` (shared with auto_date_histogram).
pub(crate) fn parse_zone(kind: &str, value: &Value) -> Result<DateZone> {
    value.as_str().and_then(DateZone::parse).ok_or_else(|| failed(kind, "time_zone"))
}

/// `format`: how `key_as_string` prints (and how string bounds parse).
pub(crate) fn parse_key_style(kind: &str, value: &Value) -> Result<(String, KeyStyle)> {
    let text = value.as_str().ok_or_else(|| failed(kind, "format"))?;
    let style = KeyStyle::from_format(text).map_err(|r| EngineError::shard(ShardCause::IllegalArgument, r))?;
    Ok((text.to_string(), style))
}

pub struct DateHistogram;

impl Aggregation for DateHistogram {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let (kind, field) = parse(def.name, def.body, def.mapping)?;
        Ok((kind, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty == FieldType::Date || ty.is_i64() || ty.is_f64()
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::DateHistogram { interval, min_doc_count, opts }, AggFruit::Buckets(buckets)) = (&req.kind, fruit)
        else {
            unreachable!("fruit shape follows the request")
        };
        render(req, *interval, *min_doc_count, opts, buckets)
    }

    fn write_json(&self, req: &AggRequest, fruit: &AggFruit, out: &mut String) {
        let (AggKind::DateHistogram { interval, min_doc_count, opts }, AggFruit::Buckets(buckets)) = (&req.kind, fruit)
        else {
            unreachable!("fruit shape follows the request")
        };
        if opts.keyed {
            // Keyed output is a map (two buckets printing the same key collapse): render it.
            out.push_str(&render(req, *interval, *min_doc_count, opts, buckets).to_string());
            return;
        }
        let shown = shown_buckets(*interval, *min_doc_count, opts, buckets);
        let sub_names: Vec<String> = req.subs.iter().map(|sub| Value::String(sub.name.clone()).to_string()).collect();
        out.reserve(shown.len() * 70);
        out.push_str(r#"{"buckets":["#);
        for (i, (key, bucket)) in shown.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_date_bucket(req, &opts.key_format, key, bucket, &sub_names, out);
        }
        out.push_str("]}");
    }
}

/// `date_histogram` -> (kind, field name).
fn parse(name: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<(AggKind, String)> {
    const KIND: &str = "date_histogram";
    let mut field = None;
    let mut interval = None;
    let mut min_doc_count = 0;
    let mut zone = DateZone::Utc;
    let mut format: Option<(String, KeyStyle)> = None;
    let mut offset_ms = 0;
    let mut keyed = false;
    let (mut extended, mut hard) = (None, None);
    for (key, value) in body {
        let bad = || failed(KIND, key);
        match key.as_str() {
            "field" => field = Some(value.as_str().ok_or_else(bad)?.to_string()),
            "min_doc_count" => min_doc_count = value.as_u64().ok_or_else(bad)?,
            "keyed" => keyed = value.as_bool().ok_or_else(bad)?,
            "time_zone" => zone = parse_zone(KIND, value)?,
            "format" => format = Some(parse_key_style(KIND, value)?),
            "offset" => offset_ms = parse_offset(value).ok_or_else(bad)?,
            "extended_bounds" => extended = Some(raw_bounds(key, value)?),
            "hard_bounds" => hard = Some(raw_bounds(key, value)?),
            "calendar_interval" => {
                let s = value.as_str().ok_or_else(bad)?;
                let unit = CalendarUnit::from_calendar_interval(s).ok_or_else(|| {
                    EngineError::shard(
                        ShardCause::IllegalArgument,
                        format!("The supplied interval [{s}] could not be parsed as a calendar interval."),
                    )
                })?;
                interval = Some(Interval::Calendar(unit));
            }
            "fixed_interval" => {
                let s = value.as_str().ok_or_else(bad)?;
                let ms = crate::store::settings::parse_time_value_ms("fixed_interval", value)
                    .ok()
                    .flatten()
                    .filter(|ms| *ms > 0)
                    .ok_or_else(|| EngineError::shard(ShardCause::IllegalArgument, format!("failed to parse setting [date_histogram.fixedInterval] with value [{s}] as a time value: unit is missing or unrecognized")))?;
                interval = Some(Interval::FixedMs(ms as i64));
            }
            _ => return Err(EngineError::XContentParse(format!("[{KIND}] unknown field [{key}]"))),
        }
    }
    let field = field.ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        )
    })?;
    let interval = interval.ok_or_else(|| {
        EngineError::shard(ShardCause::IllegalArgument, "Invalid interval specified, must be non-null and non-empty")
    })?;
    // String bounds parse with the aggregation's `format` if given, else the field's formats.
    let formats = match &format {
        Some((text, _)) => parse_format_list(text).unwrap_or_default(),
        None => mapping.get(&field).map_or_else(|| DEFAULT_FORMATS.to_vec(), |fm| fm.date_formats.clone()),
    };
    let rounding = Rounding::new(interval, zone);
    let extended_bounds = extended
        .as_ref()
        .map(|raw| raw.resolve(name, "extended_bounds", &formats, zone).map(|b| round_bounds(b, &rounding)))
        .transpose()?;
    let hard_bounds = hard
        .as_ref()
        .map(|raw| raw.resolve(name, "hard_bounds", &formats, zone).map(|b| round_bounds(b, &rounding)))
        .transpose()?;
    if let (Some(ext), Some(hard_b)) = (extended_bounds, hard_bounds) {
        let outside = matches!((ext.max, hard_b.max), (Some(e), Some(h)) if e > h)
            || matches!((ext.min, hard_b.min), (Some(e), Some(h)) if e < h);
        if outside {
            let raw_hard = hard.as_ref().map(RawBounds::describe).unwrap_or_default();
            let raw_ext = extended.as_ref().map(RawBounds::describe).unwrap_or_default();
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!(
                "Extended bounds have to be inside hard bounds, hard bounds: [{raw_hard}], extended bounds: [{raw_ext}]"
            ),
            ));
        }
    }
    let opts = DateHistogramOpts {
        key_format: KeyFormat { zone, style: format.map_or(KeyStyle::Iso, |f| f.1) },
        offset_ms,
        extended_bounds,
        hard_bounds,
        keyed,
    };
    Ok((AggKind::DateHistogram { interval, min_doc_count, opts: Box::new(opts) }, field))
}

/// `offset`: `"+6h"`, `"-30m"`, `"1d"` or a number of ms.
pub(crate) fn parse_offset(value: &Value) -> Option<i64> {
    if let Some(n) = value.as_i64() {
        return Some(n);
    }
    let text = value.as_str()?;
    let (sign, rest) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let ms = crate::store::settings::parse_time_value_ms("offset", &Value::String(rest.to_string())).ok()??;
    Some(sign * ms as i64)
}

/// Bounds as sent: numbers are epoch ms, strings are parsed once the format is known.
#[derive(Debug, Clone)]
struct RawBounds {
    min: Option<Value>,
    max: Option<Value>,
}

fn raw_bounds(key: &str, value: &Value) -> Result<RawBounds> {
    let obj = value.as_object().ok_or_else(|| failed("date_histogram", key))?;
    let mut raw = RawBounds { min: None, max: None };
    for (k, v) in obj {
        let slot = match k.as_str() {
            "min" => &mut raw.min,
            "max" => &mut raw.max,
            _ => return Err(EngineError::XContentParse(format!("[{key}] unknown field [{k}]"))),
        };
        match v {
            Value::Null => {}
            Value::Number(_) | Value::String(_) => *slot = Some(v.clone()),
            _ => return Err(failed(key, k)),
        }
    }
    Ok(raw)
}

impl RawBounds {
    /// ES's `LongBounds.parseAndValidate`: parse, then min must not exceed max.
    fn resolve(&self, agg: &str, scope: &str, formats: &[DateFormat], zone: DateZone) -> Result<Bounds> {
        let parse = |v: &Option<Value>| v.as_ref().map(|v| parse_bound(v, formats, zone)).transpose();
        let (min, max) = (parse(&self.min)?, parse(&self.max)?);
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!(
                    "[{scope}.min][{lo}] cannot be greater than [{scope}.max][{hi}] for histogram aggregation [{agg}]"
                ),
                ));
            }
        }
        Ok(Bounds { min, max })
    }

    /// `LongBounds.toString`: `min--max` as sent.
    fn describe(&self) -> String {
        let text = |v: &Option<Value>| match v {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        };
        format!("{}--{}", text(&self.min), text(&self.max))
    }
}

/// Bounds are rounded like keys, but without the `offset` (ES `LongBounds.round`).
fn round_bounds(b: Bounds, rounding: &Rounding) -> Bounds {
    Bounds { min: b.min.map(|m| rounding.round(m)), max: b.max.map(|m| rounding.round(m)) }
}

/// A bound: epoch ms, date math (`now-1d`, `2026-01-01||+1d`, evaluated in UTC), or a date
/// string; one without its own offset is wall time in the aggregation's zone.
fn parse_bound(v: &Value, formats: &[DateFormat], zone: DateZone) -> Result<i64> {
    let bad = |reason: String| EngineError::shard(ShardCause::Parse, reason);
    let Value::String(s) = v else { return v.as_i64().ok_or_else(|| bad(format!("failed to parse date field [{v}]"))) };
    if s.starts_with("now") || s.contains("||") {
        return crate::date::bound::parse_date_bound(v, formats, now_ms(), false).map_err(bad);
    }
    let (ms, precision) = parse_date_with_precision(s, formats).map_err(bad)?;
    let is_epoch = s.chars().all(|c| c.is_ascii_digit() || c == '-') && precision.is_none();
    if is_epoch || has_own_offset(s) {
        return Ok(ms);
    }
    Ok(zone.local_to_utc(ms))
}

/// `Z` or `+hh:mm`/`-hh:mm` after the time part.
fn has_own_offset(s: &str) -> bool {
    let Some((_, time)) = s.split_once('T') else { return false };
    time.ends_with('Z') || time.contains('+') || time.contains('-')
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// One date bucket: `key_as_string`, `key`, `doc_count`, then the sub-aggregations.
pub(crate) fn date_bucket_json(req: &AggRequest, format: &KeyFormat, key: i64, bucket: Option<&FruitBucket>) -> Value {
    bucket_budget::consume();
    date_bucket_value(req, format, key, bucket)
}

fn date_bucket_value(req: &AggRequest, format: &KeyFormat, key: i64, bucket: Option<&FruitBucket>) -> Value {
    let mut obj = Map::new();
    obj.insert("key_as_string".into(), json!(format.format(key)));
    obj.insert("key".into(), json!(key));
    obj.insert("doc_count".into(), json!(bucket.map_or(0, |b| b.count)));
    for (i, sub) in req.subs.iter().enumerate() {
        obj.insert(sub.name.clone(), sub_value(sub, bucket, i));
    }
    Value::Object(obj)
}

fn sub_value(sub: &AggRequest, bucket: Option<&FruitBucket>, i: usize) -> Value {
    match bucket {
        Some(b) => render_one(sub, &b.subs[i]),
        None => render_one(sub, &AggFruit::empty(sub)),
    }
}

/// `date_bucket_value`'s JSON appended to `out` (in ES's field order); `sub_names` are the
/// sub-aggregations' names as JSON strings.
fn write_date_bucket(
    req: &AggRequest,
    format: &KeyFormat,
    key: i64,
    bucket: Option<&FruitBucket>,
    sub_names: &[String],
    out: &mut String,
) {
    out.push_str(r#"{"key_as_string":"#);
    let start = out.len();
    out.push('"');
    format.write(key, out);
    if out[start + 1..].bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        let text = out.split_off(start + 1);
        out.truncate(start);
        out.push_str(&Value::String(text).to_string());
    } else {
        out.push('"');
    }
    let _ = write!(out, r#","key":{key},"doc_count":{}"#, bucket.map_or(0, |b| b.count));
    for (i, (sub, name)) in req.subs.iter().zip(sub_names).enumerate() {
        out.push(',');
        out.push_str(name);
        out.push(':');
        out.push_str(&sub_value(sub, bucket, i).to_string());
    }
    out.push('}');
}

/// The buckets the response shows, in key order, each with its data (`None`: an empty bucket
/// filled in); stops once the bucket budget is spent.
fn shown_buckets<'a>(
    interval: Interval,
    min_doc_count: u64,
    opts: &DateHistogramOpts,
    buckets: &'a HashMap<BucketKey, FruitBucket>,
) -> Vec<(i64, Option<&'a FruitBucket>)> {
    let mut data: Vec<(i64, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Num(raw) => Some((*raw as i64, b)),
            BucketKey::Str(_) => None,
        })
        .collect();
    data.sort_by_key(|(k, _)| *k);
    let rounding = opts.rounding(interval);
    let mut shown = Vec::new();
    let mut emit = |key: i64, bucket: Option<&'a FruitBucket>| {
        bucket_budget::consume();
        shown.push((key, bucket));
        bucket_budget::exceeded().is_none()
    };
    if min_doc_count > 0 {
        for (key, b) in data.iter().filter(|(_, b)| b.count >= min_doc_count) {
            if !emit(*key, Some(*b)) {
                break;
            }
        }
    } else {
        fill_empty(&data, &rounding, opts, &mut emit);
    }
    shown
}

fn render(
    req: &AggRequest,
    interval: Interval,
    min_doc_count: u64,
    opts: &DateHistogramOpts,
    buckets: &HashMap<BucketKey, FruitBucket>,
) -> Value {
    let shown = shown_buckets(interval, min_doc_count, opts, buckets);
    let buckets = if opts.keyed {
        let mut obj = Map::new();
        for (key, bucket) in shown {
            obj.insert(opts.key_format.format(key), date_bucket_value(req, &opts.key_format, key, bucket));
        }
        Value::Object(obj)
    } else {
        Value::Array(shown.into_iter().map(|(key, b)| date_bucket_value(req, &opts.key_format, key, b)).collect())
    };
    json!({ "buckets": buckets })
}

/// Every bucket from the first to the last (or out to `extended_bounds`), empty ones
/// included; `emit` returns false once the bucket budget is spent.
fn fill_empty<'a>(
    data: &[(i64, &'a FruitBucket)],
    rounding: &Rounding,
    opts: &DateHistogramOpts,
    emit: &mut dyn FnMut(i64, Option<&'a FruitBucket>) -> bool,
) {
    let offset = opts.offset_ms;
    let bounds = opts.extended_bounds;
    match (bounds, data.first()) {
        (Some(Bounds { min: Some(min), max: Some(max) }), None) => {
            let (mut key, max) = (min.saturating_add(offset), max.saturating_add(offset));
            while key <= max {
                if !emit(key, None) {
                    return;
                }
                key = rounding.next(key);
            }
            return;
        }
        (Some(Bounds { min: Some(min), .. }), Some((first, _))) => {
            let mut key = min.saturating_add(offset);
            while key < *first {
                if !emit(key, None) {
                    return;
                }
                key = rounding.next(key);
            }
        }
        _ => {}
    }
    let mut last: Option<i64> = None;
    for (key, bucket) in data {
        if let Some(prev) = last {
            let mut gap = rounding.next(prev);
            while gap < *key {
                if !emit(gap, None) {
                    return;
                }
                gap = rounding.next(gap);
            }
        }
        if !emit(*key, Some(*bucket)) {
            return;
        }
        last = Some(*key);
    }
    if let (Some(Bounds { max: Some(max), .. }), Some(prev)) = (bounds, last) {
        let max = max.saturating_add(offset);
        let mut key = rounding.next(prev);
        while key <= max {
            if !emit(key, None) {
                return;
            }
            key = rounding.next(key);
        }
    }
}

#[cfg(test)]
#[path = "date_histogram_tests.rs"]
mod tests;
