//! A date range bound as ES's `DateMathParser` reads it: `now` or `<date>||` followed by
//! date math, or a plain date. Bounds that round up (`gt`, `lte`) extend to the last
//! millisecond of what the text named: `lte: "2024-03-15"` includes that whole day,
//! `lte: "now/d"` the rest of today.

use serde_json::Value;

use crate::date::math::{add_units, apply, CalendarUnit};
use crate::date::{parse_date_value, parse_date_with_precision, DateFormat};

pub fn parse_date_bound(v: &Value, formats: &[DateFormat], now_ms: i64, round_up: bool) -> Result<i64, String> {
    let Value::String(s) = v else { return parse_date_value(v, formats) };
    if let Some(math) = s.strip_prefix("now") {
        return apply(now_ms, math, round_up);
    }
    if let Some((date, math)) = s.split_once("||") {
        // With math after the anchor, only the math's own `/unit` rounds (as in ES).
        let anchor = parse_date_with_precision(date, formats)?.0;
        return apply(anchor, math, round_up);
    }
    let (ms, precision) = parse_date_with_precision(s, formats)?;
    // ES's round-up parser fills missing *time* fields with their maximum but missing month
    // and day with 01: `lte: "2024-02"` means 2024-02-01T23:59:59.999, not the month's end.
    Ok(match precision {
        Some(unit) if round_up => add_units(ms, 1, unit.min(CalendarUnit::Day)) - 1,
        _ => ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::{format_millis, DEFAULT_FORMATS};
    use serde_json::json;

    fn bound(v: Value, round_up: bool) -> String {
        let now = 1_715_780_000_000; // 2024-05-15T13:33:20Z
        format_millis(parse_date_bound(&v, &DEFAULT_FORMATS, now, round_up).unwrap())
    }

    #[test]
    fn rounds_up_missing_components_only_when_asked() {
        assert_eq!(bound(json!("2024-03-15"), false), "2024-03-15T00:00:00.000Z");
        assert_eq!(bound(json!("2024-03-15"), true), "2024-03-15T23:59:59.999Z");
        assert_eq!(bound(json!("2024-02"), true), "2024-02-01T23:59:59.999Z");
        assert_eq!(bound(json!("2024-03-15T10:00"), true), "2024-03-15T10:00:59.999Z");
        assert_eq!(bound(json!("2024-03-15T10:00:00.000Z"), true), "2024-03-15T10:00:00.000Z");
        assert_eq!(bound(json!(1_710_460_800_000i64), true), "2024-03-15T00:00:00.000Z");
    }

    #[test]
    fn date_math_from_now_and_from_an_anchor() {
        assert_eq!(bound(json!("now-1d/d"), false), "2024-05-14T00:00:00.000Z");
        assert_eq!(bound(json!("now-1d/d"), true), "2024-05-14T23:59:59.999Z");
        assert_eq!(bound(json!("2024-01-31||+1M"), false), "2024-02-29T00:00:00.000Z");
        assert_eq!(bound(json!("2024-01-15||+1M/M"), true), "2024-02-29T23:59:59.999Z");
        assert!(parse_date_bound(&json!("2024-01-01||+1x"), &DEFAULT_FORMATS, 0, false).is_err());
    }
}
