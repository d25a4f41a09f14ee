//! The shared shape of single-field term-level queries (`prefix`, `wildcard`, `regexp`,
//! `fuzzy`): `{"field": "value"}` or `{"field": {"value": .., options}}`.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{from_value, single_field};
use crate::error::{EngineError, Result};

/// Returns the field and its options; the short form becomes `{"value": <scalar>}`.
pub(crate) fn field_options<T: DeserializeOwned>(kind: &str, body: &Value) -> Result<(String, T)> {
    let (field, spec) = single_field(kind, body)?;
    let opts = match spec {
        Value::Object(_) => from_value::<T>(kind, spec)?,
        Value::String(_) | Value::Number(_) | Value::Bool(_) => {
            from_value::<T>(kind, &serde_json::json!({ "value": spec }))?
        }
        other => return Err(EngineError::Parsing(format!("[{kind}] query does not support [{other}]"))),
    };
    Ok((field.clone(), opts))
}

/// A scalar option as text (`"value": 12` is accepted as "12", as ES does).
pub(crate) fn scalar_text(kind: &str, value: &Value) -> Result<String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(EngineError::Parsing(format!("[{kind}] unknown token [{other}] after [value]"))),
    }
}
