//! The `missing` and `format` options the value-source aggregations share (`avg` ... `stats`,
//! `terms`, `histogram`): the value a document without one is counted with, and how keys and
//! values are shown as strings (`key_as_string`, `value_as_string`): a Java `DecimalFormat`
//! pattern for numbers, a date format for dates.

use serde_json::Value;

use crate::date::rounding::{KeyFormat, KeyStyle};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

/// `missing`, read as the field's type (a date as epoch millis, a boolean as 0 or 1).
#[derive(Debug, Clone, PartialEq)]
pub enum AggMissing {
    Num(f64),
    /// A `double`/`float` field's (or `value_type`'s) missing value, keyed by its bits.
    Float(f64),
    Str(String),
}

impl AggMissing {
    pub fn parse(value: &Value, ty: Option<FieldType>, field: &str) -> Result<AggMissing> {
        let bad = || {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("failed to parse missing value [{value}] for field [{field}]"),
            )
        };
        Ok(match ty {
            Some(FieldType::Keyword) => AggMissing::Str(text(value)),
            // Held as the key the field's values are, so it sorts and renders among them.
            Some(FieldType::Ip) => {
                AggMissing::Str(crate::ip::to_key(value.as_str().and_then(crate::ip::parse_ip).ok_or_else(bad)?))
            }
            Some(FieldType::Date) => AggMissing::Num(
                crate::date::parse_date_value(value, &crate::date::DEFAULT_FORMATS).map_err(|_| bad())? as f64,
            ),
            Some(FieldType::Boolean) => match value {
                Value::Bool(b) => AggMissing::Num(u8::from(*b) as f64),
                Value::String(s) if s == "true" || s == "false" => AggMissing::Num(u8::from(s == "true") as f64),
                _ => return Err(bad()),
            },
            Some(t) if t.is_f64() => AggMissing::Float(number(value).ok_or_else(bad)?),
            Some(_) => AggMissing::Num(number(value).ok_or_else(bad)?),
            // An unmapped field takes the missing value's own type, as ES does.
            None => match value {
                Value::Number(n) => AggMissing::Num(n.as_f64().ok_or_else(bad)?),
                other => AggMissing::Str(text(other)),
            },
        })
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            AggMissing::Num(v) | AggMissing::Float(v) => Some(*v),
            AggMissing::Str(_) => None,
        }
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// `value_type`'s names (ES's `ValueType`) as the field type they read values as.
pub fn parse_value_type(value: &Value) -> Result<FieldType> {
    Ok(match value.as_str().unwrap_or_default() {
        "string" => FieldType::Keyword,
        "long" => FieldType::Long,
        "double" | "number" | "numeric" => FieldType::Double,
        "date" => FieldType::Date,
        "ip" => FieldType::Ip,
        "boolean" => FieldType::Boolean,
        other => return Err(EngineError::IllegalArgument(format!("Unknown value type [{other}]"))),
    })
}

/// `format`: how a numeric key or value is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueFormat {
    Decimal(DecimalPattern),
    Date(KeyFormat),
}

impl ValueFormat {
    pub fn parse(pattern: &str, ty: Option<FieldType>) -> Result<ValueFormat> {
        if ty == Some(FieldType::Date) {
            let style = KeyStyle::from_format(pattern).map_err(|e| {
                EngineError::shard(ShardCause::IllegalArgument, format!("Invalid format: [{pattern}]: {e}"))
            })?;
            return Ok(ValueFormat::Date(KeyFormat { zone: DateZone::Utc, style }));
        }
        DecimalPattern::compile(pattern).map(ValueFormat::Decimal)
    }

    pub fn format(&self, v: f64) -> String {
        match self {
            ValueFormat::Decimal(p) => p.format(v),
            ValueFormat::Date(f) => f.format(v as i64),
        }
    }
}

/// The subset of `java.text.DecimalFormat` patterns aggregations are given in practice:
/// literal prefix and suffix, `0` (digit, zero-padded) and `#` (digit, dropped when zero),
/// a `.` fraction, `,` grouping, and a `%` suffix (values times 100). Rounding is half-even,
/// `DecimalFormat`'s default.
#[derive(Debug, Clone, PartialEq)]
pub struct DecimalPattern {
    prefix: String,
    suffix: String,
    min_int: usize,
    min_frac: usize,
    max_frac: usize,
    grouping: usize,
    percent: bool,
}

impl DecimalPattern {
    pub fn compile(pattern: &str) -> Result<DecimalPattern> {
        let bad = || EngineError::IllegalArgument(format!("Malformed pattern \"{pattern}\""));
        let is_number = |c: char| matches!(c, '0' | '#' | '.' | ',');
        let start = pattern.find(is_number).ok_or_else(bad)?;
        let end = pattern.rfind(is_number).ok_or_else(bad)? + 1;
        let (prefix, number, suffix) = (&pattern[..start], &pattern[start..end], &pattern[end..]);
        if prefix.contains(['0', '#']) || suffix.contains(['0', '#', '.']) || number.matches('.').count() > 1 {
            return Err(bad());
        }
        let (int_part, frac_part) = number.split_once('.').unwrap_or((number, ""));
        if frac_part.contains(',') {
            return Err(bad());
        }
        Ok(DecimalPattern {
            prefix: prefix.replace('\'', ""),
            suffix: suffix.replace('\'', ""),
            min_int: int_part.matches('0').count(),
            min_frac: frac_part.matches('0').count(),
            max_frac: frac_part.matches(['0', '#']).count(),
            grouping: int_part.rfind(',').map_or(0, |at| int_part.len() - at - 1),
            percent: suffix.contains('%'),
        })
    }

    pub fn format(&self, v: f64) -> String {
        if v.is_nan() {
            return "NaN".into();
        }
        if v.is_infinite() {
            return format!("{}{}∞{}", if v < 0.0 { "-" } else { "" }, self.prefix, self.suffix);
        }
        let v = if self.percent { v * 100.0 } else { v };
        let rounded = format!("{:.*}", self.max_frac, v.abs());
        let (int_digits, frac_digits) = rounded.split_once('.').unwrap_or((&rounded, ""));
        let frac = frac_digits.trim_end_matches('0');
        let frac = if frac.len() < self.min_frac { &frac_digits[..self.min_frac] } else { frac };
        let int_digits = int_digits.trim_start_matches('0');
        let mut int = "0".repeat(self.min_int.saturating_sub(int_digits.len())) + int_digits;
        if int.is_empty() && frac.is_empty() {
            int.push('0');
        }
        if self.grouping > 0 {
            let digits: Vec<char> = int.chars().collect();
            int = digits
                .rchunks(self.grouping)
                .rev()
                .map(|chunk| chunk.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join(",");
        }
        let negative = v < 0.0 && (int.chars().chain(frac.chars()).any(|c| c != '0' && c != ','));
        let mut out = String::new();
        if negative {
            out.push('-');
        }
        out.push_str(&self.prefix);
        out.push_str(&int);
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
        out.push_str(&self.suffix);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fmt(pattern: &str, v: f64) -> String {
        DecimalPattern::compile(pattern).unwrap().format(v)
    }

    #[test]
    fn decimal_patterns_format_like_java() {
        assert_eq!(fmt("0000000", 107.0), "0000107");
        assert_eq!(fmt("0.0", 1335.0), "1335.0");
        assert_eq!(fmt("#,##0.00", 1234567.891), "1,234,567.89");
        assert_eq!(fmt("#.##", 0.5), ".5");
        assert_eq!(fmt("#.##", 0.0), "0");
        assert_eq!(fmt("0.00", -2.005), "-2.00", "the double is just below -2.005");
        assert_eq!(fmt("0.0", 0.25), "0.2", "half-even");
        assert_eq!(fmt("$0.00", 3.0), "$3.00");
        assert_eq!(fmt("0%", 0.25), "25%");
        assert!(DecimalPattern::compile("abc").is_err());
    }

    #[test]
    fn missing_takes_the_field_type() {
        assert_eq!(AggMissing::parse(&json!("5"), Some(FieldType::Long), "n").unwrap(), AggMissing::Num(5.0));
        assert_eq!(AggMissing::parse(&json!(5), Some(FieldType::Keyword), "k").unwrap(), AggMissing::Str("5".into()));
        let date = AggMissing::parse(&json!("2024-01-01"), Some(FieldType::Date), "d").unwrap();
        assert_eq!(date, AggMissing::Num(1_704_067_200_000.0));
        assert_eq!(AggMissing::parse(&json!("x"), None, "u").unwrap(), AggMissing::Str("x".into()));
        assert!(AggMissing::parse(&json!("x"), Some(FieldType::Long), "n").is_err());
    }
}
