//! ES's range field types (`integer_range`, `long_range`, `float_range`, `double_range`,
//! `date_range`, `ip_range`): each value is an interval, kept as its two inclusive ends in one
//! order-preserving 128-bit space per type, so every relation (`intersects`, `contains`,
//! `within`) is a pair of comparisons. A document's intervals live in a bytes column, 32 bytes
//! each (`query.rs` scans it); `_source` keeps what was sent.
//!
//! Layer: value types, below `store/`. Uses `ip/` and the leaves (ARCHITECTURE.md).

use std::net::Ipv6Addr;

use serde_json::{Map, Value};

use crate::date::{parse_date_value, DateFormat};

/// Which range type a field is; the key space its ends are encoded in follows from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangeKind {
    Integer,
    Long,
    Float,
    Double,
    Date,
    Ip,
}

impl RangeKind {
    pub fn parse(type_name: &str) -> Option<RangeKind> {
        Some(match type_name {
            "integer_range" => RangeKind::Integer,
            "long_range" => RangeKind::Long,
            "float_range" => RangeKind::Float,
            "double_range" => RangeKind::Double,
            "date_range" => RangeKind::Date,
            "ip_range" => RangeKind::Ip,
            _ => return None,
        })
    }

    pub fn type_name(self) -> &'static str {
        match self {
            RangeKind::Integer => "integer_range",
            RangeKind::Long => "long_range",
            RangeKind::Float => "float_range",
            RangeKind::Double => "double_range",
            RangeKind::Date => "date_range",
            RangeKind::Ip => "ip_range",
        }
    }

    /// Whether ends are whole numbers (integers, longs and dates in epoch millis).
    pub fn is_integral(self) -> bool {
        matches!(self, RangeKind::Integer | RangeKind::Long | RangeKind::Date)
    }

    /// The smallest and largest keys a value of this type can have (an open end).
    fn extremes(self) -> (u128, u128) {
        match self {
            RangeKind::Integer => (i64_key(i64::from(i32::MIN)), i64_key(i64::from(i32::MAX))),
            RangeKind::Long | RangeKind::Date => (i64_key(i64::MIN), i64_key(i64::MAX)),
            RangeKind::Float => (f64_key(f64::from(f32::NEG_INFINITY)), f64_key(f64::from(f32::INFINITY))),
            RangeKind::Double => (f64_key(f64::NEG_INFINITY), f64_key(f64::INFINITY)),
            RangeKind::Ip => (0, u128::MAX),
        }
    }

    /// The next key up (an exclusive lower end made inclusive); float ends step by a float.
    fn next_up(self, key: u128) -> u128 {
        match self {
            RangeKind::Float => f64_key(f64::from(next_up_f32(key_f64(key) as f32))),
            _ => key.saturating_add(1),
        }
    }

    fn next_down(self, key: u128) -> u128 {
        match self {
            RangeKind::Float => f64_key(f64::from(next_down_f32(key_f64(key) as f32))),
            _ => key.saturating_sub(1),
        }
    }
}

/// A signed 64-bit value in unsigned order.
pub fn i64_key(v: i64) -> u128 {
    u128::from((v as u64) ^ (1 << 63))
}

pub fn key_i64(k: u128) -> i64 {
    ((k as u64) ^ (1 << 63)) as i64
}

/// A double in total order (negatives flipped), as Lucene's sortable bits.
pub fn f64_key(v: f64) -> u128 {
    let bits = v.to_bits();
    u128::from(if bits >> 63 == 1 { !bits } else { bits | (1 << 63) })
}

pub fn key_f64(k: u128) -> f64 {
    let bits = k as u64;
    f64::from_bits(if bits >> 63 == 1 { bits & !(1 << 63) } else { !bits })
}

fn next_up_f32(v: f32) -> f32 {
    if v.is_nan() || v == f32::INFINITY {
        return v;
    }
    if v == 0.0 {
        return f32::from_bits(1);
    }
    f32::from_bits(if v > 0.0 { v.to_bits() + 1 } else { v.to_bits() - 1 })
}

fn next_down_f32(v: f32) -> f32 {
    -next_up_f32(-v)
}

/// An IPv6 (or v4-mapped) address as a number.
pub fn ip_key(addr: Ipv6Addr) -> u128 {
    u128::from(addr)
}

/// An interval's inclusive ends as stored: 32 bytes, lower end first, big-endian.
pub fn encode(lo: u128, hi: u128) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[..16].copy_from_slice(&lo.to_be_bytes());
    out[16..].copy_from_slice(&hi.to_be_bytes());
    out
}

pub fn decode(bytes: &[u8]) -> Option<(u128, u128)> {
    let lo = u128::from_be_bytes(bytes.get(..16)?.try_into().ok()?);
    let hi = u128::from_be_bytes(bytes.get(16..32)?.try_into().ok()?);
    Some((lo, hi))
}

/// One end of an interval as a key, or why the value is not one of this type. `round_up`:
/// a date end that rounds up (`gt`, `lte`) covers the whole unit its text names.
pub fn end_key(
    kind: RangeKind,
    value: &Value,
    formats: &[DateFormat],
    now_ms: i64,
    round_up: bool,
) -> Result<u128, String> {
    let number = || crate::json_source::coerce_f64(value).ok_or_else(|| format!("not a number: {value}"));
    Ok(match kind {
        RangeKind::Integer => {
            let n = crate::json_source::coerce_i64(value).ok_or_else(|| format!("not an integer: {value}"))?;
            let n = i32::try_from(n).map_err(|_| format!("Value [{value}] is out of range for an integer"))?;
            i64_key(i64::from(n))
        }
        RangeKind::Long => {
            i64_key(crate::json_source::coerce_i64(value).ok_or_else(|| format!("not a long: {value}"))?)
        }
        RangeKind::Float => f64_key(f64::from(number()? as f32)),
        RangeKind::Double => f64_key(number()?),
        RangeKind::Date => i64_key(crate::date::bound::parse_date_bound(value, formats, now_ms, round_up)?),
        RangeKind::Ip => {
            let text = value.as_str().ok_or_else(|| format!("not an ip: {value}"))?;
            ip_key(crate::ip::parse_ip(text).ok_or_else(|| crate::ip::addr::not_an_ip(text))?)
        }
    })
}

/// An interval from `gt`/`gte`/`lt`/`lte` ends (missing ends open), inclusive ends out.
pub fn interval(
    kind: RangeKind,
    ends: [Option<&Value>; 4],
    formats: &[DateFormat],
    now_ms: i64,
) -> Result<(u128, u128), String> {
    let [gt, gte, lt, lte] = ends;
    let (min, max) = kind.extremes();
    let lo = match (gt, gte) {
        (Some(v), _) => kind.next_up(end_key(kind, v, formats, now_ms, true)?),
        (None, Some(v)) => end_key(kind, v, formats, now_ms, false)?,
        _ => min,
    };
    let hi = match (lt, lte) {
        (Some(v), _) => kind.next_down(end_key(kind, v, formats, now_ms, false)?),
        (None, Some(v)) => end_key(kind, v, formats, now_ms, true)?,
        _ => max,
    };
    Ok((lo, hi))
}

/// The intervals of one `_source` value of a range field: an object of ends, a CIDR block for
/// `ip_range`, or an array of those; `null` holds none.
pub fn parse_values(
    kind: RangeKind,
    value: &Value,
    formats: &[DateFormat],
    out: &mut Vec<(u128, u128)>,
) -> Result<(), String> {
    match value {
        Value::Null => Ok(()),
        Value::Array(items) => items.iter().try_for_each(|item| parse_values(kind, item, formats, out)),
        Value::Object(obj) => {
            let mut ends = [None; 4];
            for (key, v) in obj {
                let at = match key.as_str() {
                    "gt" => 0,
                    "gte" | "from" => 1,
                    "lt" => 2,
                    "lte" | "to" => 3,
                    other => return Err(format!("error parsing field, with unknown parameter [{other}]")),
                };
                ends[at] = Some(v).filter(|v| !v.is_null());
            }
            let (lo, hi) = interval(kind, ends, formats, 0)?;
            if lo > hi {
                return Err("min value must be less than or equal to max value".into());
            }
            out.push((lo, hi));
            Ok(())
        }
        Value::String(s) if kind == RangeKind::Ip => {
            let block = crate::ip::cidr::parse_cidr(s)?;
            out.push((ip_key(block.first), ip_key(block.last)));
            Ok(())
        }
        other => Err(format!("error parsing field, expected an object but got {other}")),
    }
}

/// A `_source` range as the `fields` option shows it: each end parsed and printed by the type
/// (addresses and dates in their canonical text), keys as given.
pub fn shown(kind: RangeKind, value: &Value, formats: &[DateFormat]) -> Option<Value> {
    let obj = value.as_object()?;
    let mut out = Map::new();
    for (key, v) in obj {
        let shown = match kind {
            RangeKind::Integer | RangeKind::Long => Value::from(crate::json_source::coerce_i64(v)?),
            RangeKind::Float => Value::from(f64::from(crate::json_source::coerce_f64(v)? as f32)),
            RangeKind::Double => Value::from(crate::json_source::coerce_f64(v)?),
            RangeKind::Date => {
                let ms = parse_date_value(v, formats).ok()?;
                Value::String(crate::date::format_millis(ms))
            }
            RangeKind::Ip => Value::String(crate::ip::format_ip(crate::ip::parse_ip(v.as_str()?)?)),
        };
        out.insert(key.clone(), shown);
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(kind: RangeKind, v: Value) -> Vec<(u128, u128)> {
        let mut out = Vec::new();
        parse_values(kind, &v, &crate::date::DEFAULT_FORMATS, &mut out).unwrap();
        out
    }

    #[test]
    fn keys_keep_order() {
        let ints = [i64::MIN, -5, -1, 0, 1, i64::MAX];
        assert!(ints.windows(2).all(|w| i64_key(w[0]) < i64_key(w[1])));
        assert_eq!(key_i64(i64_key(-42)), -42);
        let floats = [f64::NEG_INFINITY, -2.5, -0.0, 0.0, 1e-300, 3.0, f64::INFINITY];
        assert!(floats.windows(2).all(|w| f64_key(w[0]) < f64_key(w[1])));
        assert_eq!(key_f64(f64_key(-2.5)), -2.5);
        assert_eq!(decode(&encode(3, 7)), Some((3, 7)));
    }

    #[test]
    fn exclusive_ends_become_inclusive() {
        assert_eq!(parse(RangeKind::Integer, json!({"gt": 1, "lt": 5})), [(i64_key(2), i64_key(4))]);
        let [(lo, hi)] = parse(RangeKind::Float, json!({"gt": 1.5})).try_into().unwrap();
        assert!(key_f64(lo) > 1.5 && key_f64(lo) < 1.5000002);
        assert_eq!(key_f64(hi), f64::INFINITY);
        assert_eq!(parse(RangeKind::Long, json!([{"gte": 1}, null])).len(), 1);
    }

    #[test]
    fn dates_addresses_and_blocks() {
        let [(lo, hi)] = parse(RangeKind::Date, json!({"gte": "2017-09-01", "lte": "2017-09-01"})).try_into().unwrap();
        assert_eq!(key_i64(lo), 1_504_224_000_000);
        // An end that rounds up covers its whole day.
        assert_eq!(key_i64(hi), 1_504_224_000_000 + 86_400_000 - 1);
        let cidr = parse(RangeKind::Ip, json!("192.168.0.0/16"));
        let [(lo, hi)] = cidr.try_into().unwrap();
        assert_eq!(hi - lo, 65_535);
        let mut out = Vec::new();
        assert!(parse_values(RangeKind::Integer, &json!({"gte": 5, "lte": 1}), &[], &mut out).is_err());
        assert!(parse_values(RangeKind::Integer, &json!(3), &[], &mut out).is_err());
        assert!(parse_values(RangeKind::Integer, &json!({"gte": 3_000_000_000i64}), &[], &mut out).is_err());
    }

    #[test]
    fn sources_show_parsed_ends() {
        let shown = shown(RangeKind::Ip, &json!({"gte": "192.168.0.1", "lt": "::ffff:10.0.0.1"}), &[]).unwrap();
        assert_eq!(shown, json!({"gte": "192.168.0.1", "lt": "10.0.0.1"}));
        assert_eq!(super::shown(RangeKind::Integer, &json!({"gte": "3"}), &[]), Some(json!({"gte": 3})));
    }
}
