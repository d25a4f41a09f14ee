//! A date range bound as ES's `DateMathParser` reads it: `now` or `<date>||` followed by
//! date math, or a plain date. Bounds that round up (`gt`, `lte`) extend to the last
//! millisecond of what the text named: `lte: "2024-03-15"` includes that whole day,
//! `lte: "now/d"` the rest of today.

use serde_json::Value;

use crate::date::math::{add_units, apply, CalendarUnit};
use crate::date::zone::DateZone;
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

/// A bound read with a range query's `time_zone`: a date without an offset is that zone's
/// wall-clock time, and date math (`now/d`, `||/M`) rounds in the zone. Instants stay
/// instants: epoch numbers, dates with an offset, `now` itself.
pub fn parse_date_bound_in_zone(
    v: &Value,
    formats: &[DateFormat],
    now_ms: i64,
    round_up: bool,
    zone: &DateZone,
) -> Result<i64, String> {
    let Value::String(s) = v else { return parse_date_value(v, formats) };
    if zone.is_utc() {
        return parse_date_bound(v, formats, now_ms, round_up);
    }
    if let Some(math) = s.strip_prefix("now") {
        if math.is_empty() {
            return Ok(now_ms);
        }
        return Ok(zone.local_to_utc(apply(zone.to_local(now_ms), math, round_up)?));
    }
    if let Some((date, math)) = s.split_once("||") {
        if is_instant(date, formats) {
            return parse_date_bound(v, formats, now_ms, round_up);
        }
        let anchor = parse_date_with_precision(date, formats)?.0;
        return Ok(zone.local_to_utc(apply(anchor, math, round_up)?));
    }
    let wall_clock = parse_date_bound(v, formats, now_ms, round_up)?;
    if is_instant(s, formats) {
        return Ok(wall_clock);
    }
    Ok(zone.local_to_utc(wall_clock))
}

/// Text that names an instant whatever the zone: an offset after the time, or a number read
/// by an epoch format.
fn is_instant(s: &str, formats: &[DateFormat]) -> bool {
    if s.split_once('T').is_some_and(|(_, time)| time.contains(['Z', '+', '-'])) {
        return true;
    }
    let first = formats.iter().find(|f| parse_date_with_precision(s, std::slice::from_ref(*f)).is_ok());
    matches!(first, Some(DateFormat::EpochMillis | DateFormat::EpochSecond))
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
    fn a_time_zone_moves_wall_clock_dates_and_their_rounding() {
        let zoned = |v: Value, round_up: bool, zone: &str| {
            let zone = DateZone::parse(zone).unwrap();
            let now = 1_715_780_000_000; // 2024-05-15T13:33:20Z
            format_millis(parse_date_bound_in_zone(&v, &DEFAULT_FORMATS, now, round_up, &zone).unwrap())
        };
        assert_eq!(zoned(json!("2024-03-01T00:00:00"), false, "+05:00"), "2024-02-29T19:00:00.000Z");
        assert_eq!(zoned(json!("2024-07-03"), false, "America/Los_Angeles"), "2024-07-03T07:00:00.000Z");
        assert_eq!(zoned(json!("2024-03-01||/d"), true, "-08:00"), "2024-03-02T07:59:59.999Z");
        assert_eq!(zoned(json!("now/d"), false, "+02:00"), "2024-05-14T22:00:00.000Z");
        // Instants are not moved.
        assert_eq!(zoned(json!("2024-03-01T00:00:00Z"), false, "+05:00"), "2024-03-01T00:00:00.000Z");
        assert_eq!(zoned(json!(1_709_251_200_000i64), false, "+05:00"), "2024-03-01T00:00:00.000Z");
        assert_eq!(zoned(json!("now"), false, "+05:00"), "2024-05-15T13:33:20.000Z");
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
