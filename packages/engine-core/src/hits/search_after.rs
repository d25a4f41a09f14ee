//! `search_after`: resume a sorted search after the sort values of the last hit seen.
//!
//! The values are parsed once per request into [`AfterValue`]s, then translated per segment
//! into the collector's own key space so the top-k collector can drop every doc at or before
//! the after-key with integer comparisons only (memory stays at `size` per segment however
//! deep a client pages). Keyword values become segment-local term ordinals; a value absent
//! from a segment's dictionary falls *between* two ordinals, which is why the comparison runs
//! in a doubled space: a real key `k` maps to `2k + 1`, a gap to an even number.

use serde_json::Value;
use tantivy::columnar::TermOrdHit;

use crate::error::{EngineError, Result, ShardCause};
use crate::hits::sort::{Order, SortSpec, SortTarget};
use crate::hits::sort_key::{f64_key, i64_key, part, score_key_es, SegSort, SegSource, SortKey};
use crate::store::mapping::{FieldType, Mapping};

/// One parsed `search_after` value, already in the sort's order-independent encoding.
#[derive(Debug, Clone, PartialEq)]
pub enum AfterValue {
    /// Encoded number (`i64_key`/`f64_key`/score key); `None` is "missing" (sorts last).
    Num(Option<u64>),
    Str(Option<String>),
}

fn bad_value(spec: &SortSpec) -> EngineError {
    let field = match &spec.target {
        SortTarget::Score => "_score",
        SortTarget::Doc => "_doc",
        SortTarget::Field { name, .. } => name.as_str(),
        SortTarget::GeoDistance(g) => g.field.as_str(),
    };
    EngineError::shard(ShardCause::IllegalArgument, format!("Failed to parse search_after value for field [{field}]."))
}

fn as_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Validates `search_after` against the sort (arity and value types), as ES does; a date given
/// as text is read with the field's own formats (`mapping`), as ES reads it.
pub fn parse_search_after(values: &[Value], specs: &[SortSpec], mapping: Option<&Mapping>) -> Result<Vec<AfterValue>> {
    if values.len() != specs.len() {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("search_after has {} value(s) but sort has {}.", values.len(), specs.len()),
        ));
    }
    values.iter().zip(specs).map(|(v, spec)| parse_one(v, spec, mapping)).collect()
}

/// The formats a date sort's field reads text with (ES's default when unknown).
fn date_formats<'a>(spec: &SortSpec, mapping: Option<&'a Mapping>) -> &'a [crate::date::DateFormat] {
    let field = match &spec.target {
        SortTarget::Field { name, .. } => mapping.and_then(|m| m.get(name)),
        _ => None,
    };
    field.map_or(&crate::date::DEFAULT_FORMATS[..], |fm| fm.date_formats.as_slice())
}

fn parse_one(v: &Value, spec: &SortSpec, mapping: Option<&Mapping>) -> Result<AfterValue> {
    let bad = || bad_value(spec);
    // Hits show a missing value as the extreme on the side missing sorts to.
    let high = (spec.order == Order::Asc) != spec.opts.missing_first;
    Ok(match &spec.target {
        SortTarget::Score => AfterValue::Num(Some(score_key_es(as_f64(v).ok_or_else(bad)? as f32))),
        SortTarget::Doc => AfterValue::Num(Some(as_i64(v).filter(|d| *d >= 0).ok_or_else(bad)? as u64)),
        SortTarget::GeoDistance(_) => match v {
            Value::String(s) if s == "Infinity" => AfterValue::Num(Some(f64_key(f64::INFINITY))),
            _ => AfterValue::Num(Some(f64_key(as_f64(v).ok_or_else(bad)?))),
        },
        SortTarget::Field { .. } => match spec.value_type().unwrap_or(FieldType::Long) {
            // The echoed address, as the key it sorts by.
            FieldType::Ip => AfterValue::Str(match v {
                Value::Null => None,
                Value::String(s) => Some(crate::ip::to_key(crate::ip::parse_ip(s).ok_or_else(bad)?)),
                _ => return Err(bad()),
            }),
            FieldType::Keyword | FieldType::Text => AfterValue::Str(match v {
                Value::Null => None,
                Value::String(s) => Some(s.clone()),
                Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
                _ => return Err(bad()),
            }),
            // Echoing the "missing" sentinel back must land among the missing docs, not on a
            // real extreme value.
            FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => match v {
                Value::Null => AfterValue::Num(None),
                Value::String(s) if s == if high { "Infinity" } else { "-Infinity" } => AfterValue::Num(None),
                _ => AfterValue::Num(Some(f64_key(as_f64(v).ok_or_else(bad)?))),
            },
            FieldType::GeoPoint | FieldType::Binary | FieldType::Range(_) => return Err(bad()),
            FieldType::Boolean => AfterValue::Num(match v {
                Value::Null => None,
                Value::Bool(b) => Some(u64::from(*b)),
                other => Some(as_i64(other).filter(|n| *n == 0 || *n == 1).ok_or_else(bad)? as u64),
            }),
            ty @ (FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte | FieldType::Date) => {
                match v {
                    Value::Null => AfterValue::Num(None),
                    // A date sort with a `format` shows (and takes back) formatted dates.
                    Value::String(s) if ty == FieldType::Date && as_i64(v).is_none() => AfterValue::Num(Some(i64_key(
                        crate::date::parse_date_str(s, date_formats(spec, mapping)).map_err(|_| bad())?,
                    ))),
                    other => {
                        let n = as_i64(other).ok_or_else(bad)?;
                        let sentinel = if high { i64::MAX } else { i64::MIN };
                        AfterValue::Num((n != sentinel).then(|| i64_key(n)))
                    }
                }
            }
        },
    })
}

/// A collector key part in the doubled comparison space (missing stays at the top).
#[inline]
pub fn doubled(k: u128) -> u128 {
    if k == u128::MAX {
        u128::MAX
    } else {
        2 * k + 1
    }
}

/// Every doc in this segment sorts after the after-key on this part.
const ALL_PASS: u128 = 0;

/// The after-key for one segment, in the doubled space of [`doubled`].
pub(crate) fn segment_after_key(after: &[AfterValue], sources: &[SegSort]) -> tantivy::Result<SortKey> {
    let mut key = [u128::MAX; crate::hits::sort::MAX_SORT_KEYS];
    for (slot, (value, sort)) in key.iter_mut().zip(after.iter().zip(sources)) {
        let (source, order) = (&sort.source, &sort.order);
        let desc = *order == Order::Desc;
        let plain = match value {
            AfterValue::Num(n) => doubled(part(*n, *order)),
            AfterValue::Str(None) => u128::MAX,
            AfterValue::Str(Some(s)) => match source {
                SegSource::Str(col) => {
                    let dict = col.dictionary();
                    match dict.term_ord_or_next(s.as_bytes())? {
                        TermOrdHit::Exact(ord) => doubled(part(Some(ord), *order)),
                        TermOrdHit::Next(next) => {
                            // `next` is the first ordinal whose term sorts after `s`.
                            let next = next.min(dict.num_terms() as u64);
                            if desc {
                                2 * (!next as u128) + 2
                            } else {
                                2 * next as u128
                            }
                        }
                    }
                }
                // The field has no values here: every doc is missing, which sorts last.
                _ => ALL_PASS,
            },
        };
        *slot = sort.shift_doubled(plain);
    }
    Ok(key)
}

/// True when `key` (raw collector parts) sorts strictly after the doubled `after` key.
#[inline]
pub(crate) fn is_after(key: &SortKey, after: &SortKey, parts: usize) -> bool {
    for i in 0..parts {
        let k = doubled(key[i]);
        if k != after[i] {
            return k > after[i];
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(field_type: FieldType, order: Order) -> SortSpec {
        SortSpec::new(SortTarget::Field { name: "f".into(), tantivy_name: "f".into(), field_type }, order)
    }

    #[test]
    fn arity_and_type_errors_are_illegal_arguments() {
        let specs = [spec(FieldType::Long, Order::Asc)];
        let err = parse_search_after(&[Value::from(1), Value::from(2)], &specs, None).unwrap_err();
        assert_eq!(err.to_string(), "search_after has 2 value(s) but sort has 1.");
        let err = parse_search_after(&[Value::from("x")], &specs, None).unwrap_err();
        assert_eq!(err.to_string(), "Failed to parse search_after value for field [f].");
    }

    #[test]
    fn missing_sentinels_round_trip_to_missing() {
        let asc = [spec(FieldType::Long, Order::Asc)];
        assert_eq!(parse_search_after(&[Value::from(i64::MAX)], &asc, None).unwrap(), vec![AfterValue::Num(None)]);
        let desc = [spec(FieldType::Double, Order::Desc)];
        assert_eq!(parse_search_after(&[Value::from("-Infinity")], &desc, None).unwrap(), vec![AfterValue::Num(None)]);
    }

    #[test]
    fn doubled_space_orders_gaps_between_keys() {
        let after = [2 * 5, u128::MAX, u128::MAX, u128::MAX];
        assert!(is_after(&[5, 0, 0, 0], &after, 1));
        assert!(!is_after(&[4, 0, 0, 0], &after, 1));
        let exact = [doubled(5), doubled(7), u128::MAX, u128::MAX];
        assert!(!is_after(&[5, 7, 0, 0], &exact, 2));
        assert!(is_after(&[5, 8, 0, 0], &exact, 2));
        assert!(is_after(&[u128::MAX, 0, 0, 0], &exact, 2));
    }
}
