//! `ip_range`: a bucket per `[from, to)` address range or CIDR `mask`, over an ip field's
//! keys. Ranges are sorted by `from` (open first) then `to` (open last), as ES's binary range
//! aggregator sorts them; a document counts once in every range holding one of its values.

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tantivy::columnar::StrColumn;
use tantivy::DocId;

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::options::{IpRangeBucket, IpRangeSpec};
use crate::aggs::render::{bucket_json, KeyValue};
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result};
use crate::ip::addr::{format_ip, not_an_ip, parse_ip};
use crate::ip::cidr::parse_cidr;
use crate::ip::key::from_key;
use crate::store::mapping::FieldType;

impl IpRangeBucket {
    fn contains(&self, v: u128) -> bool {
        self.from.is_none_or(|f| v >= f) && self.to.is_none_or(|t| v < t)
    }
}

pub struct IpRange;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "ranges")]
    _ranges: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
}

fn bad(what: String) -> EngineError {
    EngineError::XContentParse(format!("[ip_range] {what}"))
}

/// A range ES could not read: its parser fails on `ranges`, caused by the address error.
fn bad_address(cause: String) -> EngineError {
    EngineError::XContentParseCaused {
        reason: "[ip_range] failed to parse field [ranges]".into(),
        cause_type: "illegal_argument_exception",
        cause_reason: cause,
    }
}

fn address(v: &Value) -> Result<Option<u128>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => parse_ip(s).map(|a| Some(u128::from(a))).ok_or_else(|| bad_address(not_an_ip(s))),
        other => Err(bad(format!("failed to parse range bound [{other}]"))),
    }
}

fn parse_range(r: &Value) -> Result<IpRangeBucket> {
    let obj = r.as_object().ok_or_else(|| bad(format!("a range must be an object, found [{r}]")))?;
    if let Some(other) = obj.keys().find(|k| !matches!(k.as_str(), "from" | "to" | "mask" | "key")) {
        return Err(bad(format!("unknown field [{other}]")));
    }
    let key = match obj.get("key") {
        None | Some(Value::Null) => None,
        Some(k) => Some(k.as_str().ok_or_else(|| bad(format!("bad key [{k}]")))?.to_string()),
    };
    if let Some(mask) = obj.get("mask") {
        if obj.contains_key("from") || obj.contains_key("to") {
            return Err(EngineError::IllegalArgument(
                "[ip_range] a range may have a [mask] or [from]/[to], not both".into(),
            ));
        }
        let text = mask.as_str().ok_or_else(|| bad(format!("failed to parse mask [{mask}]")))?;
        let block = parse_cidr(text).map_err(bad_address)?;
        let first = u128::from(block.first);
        return Ok(IpRangeBucket {
            from: Some(first),
            // The block's end is exclusive: one past its last address (open at the top of the space).
            to: u128::from(block.last).checked_add(1),
            key: key.unwrap_or_else(|| text.to_string()),
        });
    }
    let from = obj.get("from").map(address).transpose()?.flatten();
    let to = obj.get("to").map(address).transpose()?.flatten();
    let side = |b: Option<u128>| b.map_or_else(|| "*".to_string(), |v| format_ip(v.into()));
    Ok(IpRangeBucket { from, to, key: key.unwrap_or_else(|| format!("{}-{}", side(from), side(to))) })
}

impl Aggregation for IpRange {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let field = def.required_field(def.field_option()?)?;
        let keyed = match def.body.get("keyed") {
            None => false,
            Some(v) => v.as_bool().ok_or_else(|| def.bad_field("keyed"))?,
        };
        let items = def.body.get("ranges").ok_or_else(|| {
            EngineError::IllegalArgument(format!("No [ranges] specified for the [{}] aggregation", def.name))
        })?;
        let items = items.as_array().ok_or_else(|| bad("[ranges] must be an array".into()))?;
        let mut ranges = items.iter().map(parse_range).collect::<Result<Vec<_>>>()?;
        ranges.sort_by(|a, b| a.from.cmp(&b.from).then(a.to.unwrap_or(u128::MAX).cmp(&b.to.unwrap_or(u128::MAX))));
        Ok((AggKind::IpRange(Box::new(IpRangeSpec { ranges, keyed })), FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty == FieldType::Ip
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::IpRange(spec), AggFruit::Buckets(b)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render(req, spec, b)
    }
}

/// The bucket keys (range indexes) of a document's values.
pub(crate) fn push_keys(spec: &IpRangeSpec, column: &StrColumn, doc: DocId, keys: &mut Vec<u64>) {
    let mut text = String::new();
    for ord in column.term_ords(doc) {
        text.clear();
        if column.ord_to_str(ord, &mut text).is_err() {
            continue;
        }
        let Some(addr) = from_key(&text) else { continue };
        let v = u128::from(addr);
        keys.extend(spec.ranges.iter().enumerate().filter(|(_, r)| r.contains(v)).map(|(i, _)| i as u64));
    }
}

fn render(req: &AggRequest, spec: &IpRangeSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    let out: Vec<Value> = spec
        .ranges
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let rendered =
                bucket_json(req, &KeyValue::Str(r.key.clone()), buckets.get(&BucketKey::Num(i as u64)), None);
            let mut obj = rendered.as_object().cloned().unwrap_or_default();
            for (name, bound) in [("from", r.from), ("to", r.to)] {
                if let Some(v) = bound {
                    obj.insert(name.into(), json!(format_ip(v.into())));
                }
            }
            Value::Object(obj)
        })
        .collect();
    if spec.keyed {
        let mut by_key = Map::new();
        for mut bucket in out {
            let key = bucket.as_object_mut().and_then(|b| b.remove("key"));
            by_key.insert(key.and_then(|k| k.as_str().map(str::to_string)).unwrap_or_default(), bucket);
        }
        return json!({ "buckets": by_key });
    }
    json!({ "buckets": out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ranges_and_masks_become_half_open_blocks() {
        let r = parse_range(&json!({"to": "10.0.0.100"})).unwrap();
        assert_eq!((r.from, r.key.as_str()), (None, "*-10.0.0.100"));
        let m = parse_range(&json!({"mask": "192.168.0.0/16"})).unwrap();
        assert_eq!(m.key, "192.168.0.0/16");
        assert_eq!(format_ip(m.to.unwrap().into()), "192.169.0.0");
        assert!(m.contains(u128::from(parse_ip("192.168.255.255").unwrap())));
        assert!(!m.contains(u128::from(parse_ip("192.169.0.0").unwrap())));
        assert_eq!(parse_range(&json!({"mask": "::/0"})).unwrap().to, None);
        assert!(parse_range(&json!({"from": "nope"})).is_err());
        assert!(parse_range(&json!({"mask": "10.0.0.0/8", "from": "10.0.0.1"})).is_err());
    }
}
