//! `ranges` of the `range` and `date_range` aggregations. Bounds are numbers (`range`) or
//! dates in the field's / the aggregation's `format`, epoch millis or date math
//! (`date_range`). Ranges are sorted by `from` then `to`, as ES's `RangeAggregator` does,
//! so buckets come out in that order whatever the request's order.

use serde_json::Value;

use super::{RangeKeys, RangeSpec};
use crate::date::bound::parse_date_bound;
use crate::date::parse_format_list;
use crate::date::pattern::JavaPattern;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldMapping;

fn bad(kind: &str, what: String) -> EngineError {
    EngineError::XContentParse(format!("[{kind}] {what}"))
}

pub(super) fn range_kind(
    kind: &str,
    spec: &Value,
    format: Option<&str>,
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
            Some(v) if is_date => parse_date_bound(v, &formats, now, false)
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
        let pattern = match format {
            Some(f) => Some(JavaPattern::compile(f).map_err(|e| bad(kind, e))?),
            None => None,
        };
        RangeKeys::Date(pattern)
    };
    Ok((ranges, keys))
}
