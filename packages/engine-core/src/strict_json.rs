//! JSON request bodies parsed the way Elasticsearch's Jackson parser reads them: an object
//! with the same key twice is an error (`STRICT_DUPLICATE_DETECTION`), where serde_json
//! would silently keep the last value and so answer a request the client did not send.
//!
//! The check rides on the one parse every body gets anyway: the map visitor below is
//! serde_json's own `Value` building plus the `insert` it already does, whose return value
//! says whether the key was there before. No second pass, no extra allocation.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// What a duplicate's error message starts with (`error::json_syntax_error` looks for it).
pub const DUPLICATE_FIELD: &str = "Duplicate field '";

/// Parses `bytes` as one JSON value, refusing duplicate keys at any depth. Errors carry the
/// position as serde_json's syntax errors do.
pub fn from_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Whether a parse error is a duplicate key (a syntax error for ES, a data error for serde).
pub fn is_duplicate(e: &serde_json::Error) -> bool {
    e.is_data() && e.to_string().starts_with(DUPLICATE_FIELD)
}

struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(Strict)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // JSON has no NaN or infinity, so every parsed float is representable.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(Strict)? {
            out.push(item);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Strict)?;
            if let Some(key) = insert_new(&mut out, key, value) {
                return Err(A::Error::custom(format!("{DUPLICATE_FIELD}{key}'")));
            }
        }
        Ok(Value::Object(out))
    }
}

/// Inserts unless the key is taken; a taken key is handed back for the error message.
fn insert_new(map: &mut Map<String, Value>, key: String, value: Value) -> Option<String> {
    match map.entry(key) {
        serde_json::map::Entry::Vacant(slot) => {
            slot.insert(value);
            None
        }
        serde_json::map::Entry::Occupied(slot) => Some(slot.key().clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_like_serde_json() {
        let text = br#"{"a":[1,-2,3.5,"x",null,true,{"b":{}}],"c":18446744073709551615}"#;
        assert_eq!(from_slice(text).unwrap(), serde_json::from_slice::<Value>(text).unwrap());
        assert_eq!(from_slice(b" 7 ").unwrap(), json!(7));
    }

    #[test]
    fn refuses_duplicate_keys_at_any_depth_with_their_position() {
        for text in [&br#"{"size":1,"size":2}"#[..], br#"{"q":{"term":{"a":1,"a":2}}}"#, br#"[{"x":1,"x":1}]"#] {
            let err = from_slice(text).unwrap_err();
            assert!(is_duplicate(&err), "{err}");
            assert_eq!(err.line(), 1);
        }
        let err = from_slice(br#"{"size":1,"size":2}"#).unwrap_err();
        assert!(err.to_string().starts_with("Duplicate field 'size'"), "{err}");
    }

    #[test]
    fn syntax_errors_stay_syntax_errors() {
        assert!(!is_duplicate(&from_slice(b"{\"a\":").unwrap_err()));
        assert!(from_slice(b"{} {}").is_err());
    }
}
