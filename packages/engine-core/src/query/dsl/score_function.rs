//! The score functions `function_score` accepts: `field_value_factor` and the decay functions
//! `gauss`, `exp`, `linear` (`{"<field>": {origin, scale, offset, decay}, "multi_value_mode"}`).
//! `random_score` and `script_score` are refused with a parsing error rather than ignored.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use crate::error::{EngineError, Result};
use crate::query::ast::{DecayAst, DecayCurve, Modifier, MultiValueMode, ScoreFunctionKind};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldValueFactorOptions {
    field: String,
    factor: Option<f64>,
    modifier: Option<String>,
    missing: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecayOptions {
    origin: Option<Value>,
    scale: Option<Value>,
    offset: Option<Value>,
    decay: Option<f64>,
}

pub fn parse_function(name: &str, body: &Value) -> Result<ScoreFunctionKind> {
    match name {
        "field_value_factor" => parse_field_value_factor(body),
        "gauss" => parse_decay(DecayCurve::Gauss, name, body),
        "exp" => parse_decay(DecayCurve::Exp, name, body),
        "linear" => parse_decay(DecayCurve::Linear, name, body),
        "random_score" | "script_score" => {
            Err(EngineError::Parsing(format!("[function_score] function [{name}] is not supported")))
        }
        other => Err(EngineError::Parsing(format!("[function_score] query does not support [{other}]"))),
    }
}

fn parse_modifier(name: &str) -> Result<Modifier> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "none" => Modifier::None,
        "log" => Modifier::Log,
        "log1p" => Modifier::Log1p,
        "log2p" => Modifier::Log2p,
        "ln" => Modifier::Ln,
        "ln1p" => Modifier::Ln1p,
        "ln2p" => Modifier::Ln2p,
        "square" => Modifier::Square,
        "sqrt" => Modifier::Sqrt,
        "reciprocal" => Modifier::Reciprocal,
        other => return Err(EngineError::Parsing(format!("[field_value_factor] illegal modifier [{other}]"))),
    })
}

fn parse_field_value_factor(body: &Value) -> Result<ScoreFunctionKind> {
    let opts: FieldValueFactorOptions = from_value("field_value_factor", body)?;
    Ok(ScoreFunctionKind::FieldValueFactor {
        field: opts.field,
        factor: opts.factor.unwrap_or(1.0),
        modifier: opts.modifier.as_deref().map(parse_modifier).transpose()?.unwrap_or(Modifier::None),
        missing: opts.missing,
    })
}

fn parse_multi_value_mode(v: &Value) -> Result<MultiValueMode> {
    Ok(match v.as_str().map(str::to_ascii_lowercase).as_deref() {
        Some("min") => MultiValueMode::Min,
        Some("max") => MultiValueMode::Max,
        Some("avg") => MultiValueMode::Avg,
        Some("sum") => MultiValueMode::Sum,
        _ => return Err(EngineError::Parsing(format!("Unknown multi_value_mode [{v}]"))),
    })
}

fn parse_decay(curve: DecayCurve, name: &str, body: &Value) -> Result<ScoreFunctionKind> {
    let obj = body
        .as_object()
        .ok_or_else(|| EngineError::Parsing(format!("[{name}] malformed score function, expected an object")))?;
    let mut multi_value_mode = MultiValueMode::Min;
    let mut field = None;
    for (key, value) in obj {
        if key == "multi_value_mode" {
            multi_value_mode = parse_multi_value_mode(value)?;
        } else if field.is_some() {
            return Err(EngineError::Parsing(format!("[{name}] can only decay on one field, found [{key}] as well")));
        } else {
            field = Some((key.clone(), from_value::<DecayOptions>(name, value)?));
        }
    }
    let (field, opts) =
        field.ok_or_else(|| EngineError::Parsing(format!("[{name}] malformed score function: no field given")))?;
    let scale = opts
        .scale
        .filter(|s| !s.is_null())
        .ok_or_else(|| EngineError::Parsing(format!("[{name}] [scale] must be set for decay function")))?;
    let decay = opts.decay.unwrap_or(0.5);
    if !(decay > 0.0 && decay < 1.0) {
        return Err(EngineError::IllegalArgument(format!(
            "decay must be in the range [0..1] (exclusive), got [{decay}]"
        )));
    }
    Ok(ScoreFunctionKind::Decay(DecayAst {
        curve,
        field,
        origin: opts.origin.filter(|o| !o.is_null()),
        scale,
        offset: opts.offset.filter(|o| !o.is_null()),
        decay,
        multi_value_mode,
    }))
}

/// An ES time value (`10d`, `12h`, `30m`, `1.5s`, `500ms`) in milliseconds; a bare number is
/// taken as milliseconds.
pub fn parse_time_value_ms(v: &Value) -> std::result::Result<f64, String> {
    let text = match v {
        Value::Number(n) => return n.as_f64().ok_or_else(|| format!("failed to parse [{n}]")),
        Value::String(s) => s.trim().to_ascii_lowercase(),
        other => return Err(format!("failed to parse [{other}] as a time value")),
    };
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).unwrap_or(text.len());
    let (num, unit) = text.split_at(split);
    let n: f64 = num.parse().map_err(|_| format!("failed to parse [{text}]"))?;
    let factor = match unit.trim() {
        "nanos" => 1e-6,
        "micros" => 1e-3,
        "ms" | "" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => 86_400_000.0,
        _ => return Err(format!("failed to parse [{text}], unit is missing or unrecognized")),
    };
    Ok(n * factor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decay_reads_field_params_and_mode() {
        let kind = parse_function(
            "gauss",
            &json!({"ts": {"origin": "now", "scale": "10d", "decay": 0.3}, "multi_value_mode": "avg"}),
        )
        .unwrap();
        let ScoreFunctionKind::Decay(d) = kind else { panic!() };
        assert_eq!((d.field.as_str(), d.decay, d.multi_value_mode), ("ts", 0.3, MultiValueMode::Avg));
        assert!(parse_function("exp", &json!({"n": {"origin": 1}})).is_err());
        assert!(parse_function("exp", &json!({"n": {"scale": 1, "decay": 1.5}})).is_err());
        assert!(parse_function("random_score", &json!({})).is_err());
    }

    #[test]
    fn time_values() {
        assert_eq!(parse_time_value_ms(&json!("2d")).unwrap(), 172_800_000.0);
        assert_eq!(parse_time_value_ms(&json!("1.5h")).unwrap(), 5_400_000.0);
        assert!(parse_time_value_ms(&json!("3 parsecs")).is_err());
    }
}
