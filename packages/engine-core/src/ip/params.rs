//! An ip field's own mapping parameters: `ignore_malformed` (a value that is not an address is
//! skipped instead of failing the document) and `null_value` (what a JSON `null` indexes as).

use std::net::Ipv6Addr;

use serde_json::Value;

use super::addr::{not_an_ip, parse_ip};
use crate::error::{EngineError, Result};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IpParams {
    pub ignore_malformed: bool,
    pub null_value: Option<Ipv6Addr>,
}

impl IpParams {
    /// Reads one parameter of field `field`; the errors are ES's mapping errors.
    pub fn set(&mut self, field: &str, param: &str, value: &Value) -> Result<()> {
        let err = |why: String| {
            EngineError::MapperParsing(format!(
                "Failed to parse mapping: Error parsing [{param}] on field [{field}]: {why}"
            ))
        };
        match (param, value) {
            ("ignore_malformed", Value::Bool(b)) => self.ignore_malformed = *b,
            ("ignore_malformed", Value::String(s)) if s == "true" || s == "false" => {
                self.ignore_malformed = s == "true"
            }
            ("ignore_malformed", other) => return Err(err(format!("Cannot parse [{other}] as a boolean"))),
            ("null_value", Value::Null) => self.null_value = None,
            ("null_value", Value::String(s)) => self.null_value = Some(parse_ip(s).ok_or_else(|| err(not_an_ip(s)))?),
            (_, other) => return Err(err(not_an_ip(&other.to_string()))),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_both_parameters_and_refuses_bad_ones() {
        let mut p = IpParams::default();
        p.set("a", "ignore_malformed", &json!(true)).unwrap();
        p.set("a", "null_value", &json!("0.0.0.0")).unwrap();
        assert!(p.ignore_malformed);
        assert_eq!(p.null_value, parse_ip("0.0.0.0"));
        let err = p.set("a", "null_value", &json!("nope")).unwrap_err();
        assert_eq!(err.es_type_and_status().0, "mapper_parsing_exception");
        assert!(p.set("a", "ignore_malformed", &json!(3)).is_err());
    }
}
