//! `range` and `date_range`: a bucket per `[from, to)` range. Bounds are numbers (`range`) or
//! dates in the field's / the aggregation's `format`, epoch millis or date math
//! (`date_range`). Ranges are sorted by `from` then `to`, as ES's `RangeAggregator` does,
//! so buckets come out in that order whatever the request's order.

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::render::{bucket_json, java_double, KeyValue};
use crate::aggs::request::{AggKind, AggRequest, RangeKeys, RangeSpec};
use crate::date::bound::parse_date_bound_in_zone;
use crate::date::parse_format_list;
use crate::date::rounding::{KeyFormat, KeyStyle};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldMapping, FieldType};

pub struct Range;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "ranges")]
    _ranges: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
    /// Read by `dispatch.rs`: the value a document without one falls in the ranges as.
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DateRangeOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "ranges")]
    _ranges: Option<IgnoredAny>,
    #[serde(rename = "format")]
    _format: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
    #[serde(rename = "time_zone")]
    _time_zone: Option<IgnoredAny>,
    /// Read by `dispatch.rs`: the value a document without one falls in the ranges as.
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
}

impl Aggregation for Range {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        if def.kind_name == "date_range" {
            def.check_keys::<DateRangeOptions>()?;
        } else {
            def.check_keys::<RangeOptions>()?;
        }
        let mut field = None;
        let mut ranges = None;
        let mut format = None;
        let mut keyed = false;
        let mut zone = DateZone::Utc;
        for (key, value) in def.body {
            match key.as_str() {
                "field" => field = def.field_option()?,
                "ranges" => ranges = Some(value),
                "format" => format = Some(value.as_str().ok_or_else(|| def.bad_field(key))?),
                "keyed" => keyed = value.as_bool().ok_or_else(|| def.bad_field(key))?,
                "time_zone" => {
                    let text = value.as_str().ok_or_else(|| def.bad_field(key))?;
                    zone = DateZone::parse(text)
                        .ok_or_else(|| EngineError::IllegalArgument(format!("Unknown time-zone ID: {text}")))?;
                }
                _ => {}
            }
        }
        let field = def.required_field(field)?;
        let spec = ranges.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("No [ranges] specified for the [{}] aggregation", def.name),
            )
        })?;
        let (ranges, keys) = range_kind(def.kind_name, spec, format, zone, def.mapping.get(&field))?;
        Ok((AggKind::Range { ranges, keys, keyed }, FieldRef::Field(field)))
    }

    fn accepts(&self, kind: &AggKind, ty: FieldType) -> bool {
        match kind {
            AggKind::Range { keys: RangeKeys::Date(_), .. } => ty == FieldType::Date,
            _ => ty.is_i64() || ty.is_f64(),
        }
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Range { ranges, keys, keyed }, AggFruit::Buckets(b)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render_range(req, ranges, keys, *keyed, b)
    }
}

fn bad(kind: &str, what: String) -> EngineError {
    EngineError::XContentParse(format!("[{kind}] {what}"))
}

fn range_kind(
    kind: &str,
    spec: &Value,
    format: Option<&str>,
    zone: DateZone,
    field: Option<&FieldMapping>,
) -> Result<(Vec<RangeSpec>, RangeKeys)> {
    let is_date = kind == "date_range";
    let formats = match (format, field) {
        (Some(f), _) => parse_format_list(f).map_err(|e| bad(kind, e))?,
        (None, Some(fm)) => fm.date_formats.clone(),
        (None, None) => crate::date::DEFAULT_FORMATS.to_vec(),
    };
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
    let bound = |v: Option<&Value>| -> Result<Option<f64>> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(v) if is_date => parse_date_bound_in_zone(v, &formats, now, false, &zone)
                .map(|ms| Some(ms as f64))
                .map_err(|e| EngineError::shard(ShardCause::Parse, e)),
            Some(v) => v
                .as_f64()
                .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                .map(Some)
                .ok_or_else(|| bad(kind, format!("failed to parse range bound [{v}]"))),
        }
    };
    let items = spec.as_array().ok_or_else(|| bad(kind, "[ranges] must be an array".into()))?;
    let mut ranges = items
        .iter()
        .map(|r| {
            let obj = r.as_object().ok_or_else(|| bad(kind, format!("a range must be an object, found [{r}]")))?;
            if let Some(other) = obj.keys().find(|k| !matches!(k.as_str(), "from" | "to" | "key")) {
                return Err(bad(kind, format!("unknown field [{other}]")));
            }
            let key = match obj.get("key") {
                None => None,
                Some(k) => Some(k.as_str().ok_or_else(|| bad(kind, format!("bad key [{k}]")))?.to_string()),
            };
            Ok(RangeSpec { from: bound(obj.get("from"))?, to: bound(obj.get("to"))?, key })
        })
        .collect::<Result<Vec<_>>>()?;
    let edge = |v: Option<f64>, missing: f64| v.unwrap_or(missing);
    ranges.sort_by(|a, b| {
        edge(a.from, f64::NEG_INFINITY)
            .total_cmp(&edge(b.from, f64::NEG_INFINITY))
            .then(edge(a.to, f64::INFINITY).total_cmp(&edge(b.to, f64::INFINITY)))
    });
    let keys = if !is_date {
        RangeKeys::Numeric
    } else {
        // Without a `format`, keys print as the field's own first format does.
        let style = match (format, field) {
            (Some(f), _) => KeyStyle::from_format(f).map_err(|e| bad(kind, e))?,
            (None, Some(fm)) => KeyStyle::first_of(&fm.date_formats).map_err(|e| bad(kind, e))?,
            (None, None) => KeyStyle::Iso,
        };
        RangeKeys::Date(KeyFormat { zone, style })
    };
    Ok((ranges, keys))
}

pub(crate) fn render_range(
    req: &AggRequest,
    ranges: &[RangeSpec],
    keys: &RangeKeys,
    keyed: bool,
    buckets: &HashMap<BucketKey, FruitBucket>,
) -> Value {
    let text = |v: f64| match keys {
        RangeKeys::Numeric => java_double(v),
        RangeKeys::Date(format) => format.format(v as i64),
    };
    let out: Vec<Value> = ranges
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let key = r.key.clone().unwrap_or_else(|| {
                let side = |b: Option<f64>| b.map_or_else(|| "*".to_string(), text);
                format!("{}-{}", side(r.from), side(r.to))
            });
            let rendered = bucket_json(req, &KeyValue::Str(key), buckets.get(&BucketKey::Num(i as u64)), None);
            // ES puts from/to between key and doc_count; JSON object order does not matter to clients.
            let mut obj = rendered.as_object().cloned().unwrap_or_default();
            let is_date = matches!(keys, RangeKeys::Date(_));
            for (name, bound) in [("from", r.from), ("to", r.to)] {
                if let Some(v) = bound {
                    obj.insert(name.into(), json!(v));
                    if is_date {
                        obj.insert(format!("{name}_as_string"), json!(text(v)));
                    }
                }
            }
            Value::Object(obj)
        })
        .collect();
    if keyed {
        // Keyed by the bucket's key, which the bucket then leaves out (as ES does).
        let mut by_key = Map::new();
        for mut bucket in out {
            let key = bucket.as_object_mut().and_then(|b| b.remove("key"));
            let key = key.and_then(|k| k.as_str().map(str::to_string)).unwrap_or_default();
            by_key.insert(key, bucket);
        }
        return json!({ "buckets": by_key });
    }
    json!({ "buckets": out })
}
