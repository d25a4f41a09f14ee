//! Date parsing and formatting with Elasticsearch's defaults: dates are held as epoch
//! milliseconds (UTC); the default format is `strict_date_optional_time||epoch_millis` and
//! output uses `yyyy-MM-dd'T'HH:mm:ss.SSSZ` (e.g. `2024-01-01T00:00:00.000Z`).

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};

use crate::date::math::CalendarUnit;
use crate::date::pattern::JavaPattern;

/// One element of a `format: "a||b"` list we know how to parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateFormat {
    /// `strict_date_optional_time`, `date_optional_time`, `strict_date_time`, `date_time`, `iso8601`.
    OptionalTime,
    EpochMillis,
    EpochSecond,
    /// `yyyy-MM-dd`, `strict_date`, `date`.
    Date,
    /// `yyyy-MM-dd HH:mm:ss`.
    SpaceSeparated,
    /// Any other Java pattern built from the letters `date_pattern` supports.
    Pattern(JavaPattern),
}

pub const DEFAULT_FORMATS: [DateFormat; 2] = [DateFormat::OptionalTime, DateFormat::EpochMillis];

/// Parses a mapping's `format` string (`a||b`), rejecting patterns we do not implement.
pub fn parse_format_list(spec: &str) -> Result<Vec<DateFormat>, String> {
    spec.split("||")
        .map(|part| match part.trim() {
            "strict_date_optional_time"
            | "date_optional_time"
            | "strict_date_time"
            | "date_time"
            | "iso8601"
            | "strict_date_optional_time_nanos" => Ok(DateFormat::OptionalTime),
            "epoch_millis" => Ok(DateFormat::EpochMillis),
            "epoch_second" => Ok(DateFormat::EpochSecond),
            "yyyy-MM-dd" | "strict_date" | "date" => Ok(DateFormat::Date),
            "yyyy-MM-dd HH:mm:ss" => Ok(DateFormat::SpaceSeparated),
            other => JavaPattern::compile(other).map(DateFormat::Pattern),
        })
        .collect()
}

/// Parses a JSON date value (string or number) with the field's formats into epoch millis.
pub fn parse_date_value(value: &serde_json::Value, formats: &[DateFormat]) -> Result<i64, String> {
    match value {
        serde_json::Value::Number(n) => {
            // ES accepts a JSON number as epoch millis (or seconds with epoch_second only).
            let only_seconds =
                formats.contains(&DateFormat::EpochSecond) && !formats.contains(&DateFormat::EpochMillis);
            let raw = n
                .as_i64()
                .or_else(|| n.as_f64().map(|f| f as i64))
                .ok_or_else(|| format!("failed to parse date field [{n}]"))?;
            Ok(if only_seconds { raw * 1000 } else { raw })
        }
        serde_json::Value::String(s) => parse_date_str(s, formats),
        other => Err(format!("failed to parse date field [{other}]")),
    }
}

pub fn parse_date_str(s: &str, formats: &[DateFormat]) -> Result<i64, String> {
    parse_date_with_precision(s, formats).map(|(ms, _)| ms)
}

/// Parses with the first format that accepts `s`, also returning the finest unit the text
/// named (`2024-03` -> month): a rounded-up range bound extends to the end of that unit.
/// Epoch values and times with fractions name no unit (nothing to round).
pub fn parse_date_with_precision(s: &str, formats: &[DateFormat]) -> Result<(i64, Option<CalendarUnit>), String> {
    for format in formats {
        let parsed = match format {
            DateFormat::OptionalTime => parse_optional_time(s).map(|ms| (ms, iso_precision(s))),
            DateFormat::EpochMillis => s.parse::<i64>().ok().map(|ms| (ms, None)),
            DateFormat::EpochSecond => s.parse::<i64>().ok().map(|v| (v * 1000, None)),
            DateFormat::Date => NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .ok()
                .map(|d| (d.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis(), Some(CalendarUnit::Day))),
            DateFormat::SpaceSeparated => NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S")
                .ok()
                .map(|d| (d.and_utc().timestamp_millis(), Some(CalendarUnit::Second))),
            DateFormat::Pattern(p) => p.parse(s).map(|ms| (ms, Some(p.precision))),
        };
        if let Some(found) = parsed {
            return Ok(found);
        }
    }
    Err(format!("failed to parse date field [{s}] with format [{}]", describe(formats)))
}

/// The finest unit an ISO-8601 text names: `2024` year … `2024-01-01T10:00:00` second.
fn iso_precision(s: &str) -> Option<CalendarUnit> {
    let (date, time) = match s.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let Some(time) = time else {
        return match date.split('-').count() {
            1 => Some(CalendarUnit::Year),
            2 => Some(CalendarUnit::Month),
            _ => Some(CalendarUnit::Day),
        };
    };
    let clock = time.trim_end_matches('Z').split(['+', '-']).next().unwrap_or("");
    if clock.contains('.') {
        return None;
    }
    match clock.split(':').count() {
        1 => Some(CalendarUnit::Hour),
        2 => Some(CalendarUnit::Minute),
        _ => Some(CalendarUnit::Second),
    }
}

fn describe(formats: &[DateFormat]) -> String {
    formats
        .iter()
        .map(|f| match f {
            DateFormat::OptionalTime => "strict_date_optional_time",
            DateFormat::EpochMillis => "epoch_millis",
            DateFormat::EpochSecond => "epoch_second",
            DateFormat::Date => "yyyy-MM-dd",
            DateFormat::SpaceSeparated => "yyyy-MM-dd HH:mm:ss",
            DateFormat::Pattern(p) => p.source.as_str(),
        })
        .collect::<Vec<_>>()
        .join("||")
}

/// `yyyy[-MM[-dd]][THH[:mm[:ss[.SSS…]]]][Z|±HH:mm]`, as `strict_date_optional_time`.
fn parse_optional_time(s: &str) -> Option<i64> {
    if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        return Some(dt.timestamp_millis());
    }
    let with_offset = ["%Y-%m-%dT%H:%M:%S%.f%:z", "%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%dT%H:%M%:z"];
    for f in with_offset {
        if let Ok(dt) = DateTime::parse_from_str(s, f) {
            return Some(dt.timestamp_millis());
        }
    }
    let local = s.strip_suffix('Z').unwrap_or(s);
    let naive = ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"];
    for f in naive {
        if let Ok(dt) = NaiveDateTime::parse_from_str(local, f) {
            return Some(dt.and_utc().timestamp_millis());
        }
    }
    if let Some(hour) = local.split_once('T').and_then(|(d, h)| {
        let h: u32 = h.parse().ok()?;
        NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()?.and_hms_opt(h, 0, 0)
    }) {
        return Some(hour.and_utc().timestamp_millis());
    }
    if let Ok(d) = NaiveDate::parse_from_str(local, "%Y-%m-%d") {
        return Some(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis());
    }
    if let Ok(d) = NaiveDate::parse_from_str(&format!("{local}-01"), "%Y-%m-%d") {
        return Some(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis());
    }
    if local.len() == 4 {
        let year: i32 = local.parse().ok()?;
        return Some(Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0).single()?.timestamp_millis());
    }
    None
}

/// ES's default output format for dates: `2024-01-01T00:00:00.000Z`.
pub fn format_millis(ms: i64) -> String {
    match Utc.timestamp_millis_opt(ms).single() {
        Some(dt) => dt.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        None => ms.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_iso_variants_and_epoch_millis() {
        let f = &DEFAULT_FORMATS;
        let jan1 = 1_704_067_200_000;
        assert_eq!(parse_date_str("2024-01-01", f), Ok(jan1));
        assert_eq!(parse_date_str("2024-01-01T00:00:00Z", f), Ok(jan1));
        assert_eq!(parse_date_str("2024-01-01T00:00:00.000Z", f), Ok(jan1));
        assert_eq!(parse_date_str("2024-01-01T01:00:00+01:00", f), Ok(jan1));
        assert_eq!(parse_date_str("2024-01-01T00:00:00", f), Ok(jan1));
        assert_eq!(parse_date_str("1704067200000", f), Ok(jan1));
        assert_eq!(parse_date_value(&serde_json::json!(jan1), f), Ok(jan1));
        assert!(parse_date_str("yesterday", f).is_err());
    }

    #[test]
    fn honours_explicit_formats() {
        let f = parse_format_list("yyyy-MM-dd HH:mm:ss||epoch_second").unwrap();
        assert_eq!(parse_date_str("2024-01-01 00:00:01", &f), Ok(1_704_067_201_000));
        assert_eq!(parse_date_str("1704067201", &f), Ok(1_704_067_201_000));
        assert!(parse_format_list("dd/MM/yyyy").is_ok());
        assert!(parse_format_list("yyyy-ww").is_err());
    }

    #[test]
    fn formats_like_elasticsearch() {
        assert_eq!(format_millis(1_704_067_200_000), "2024-01-01T00:00:00.000Z");
        assert_eq!(format_millis(1_704_067_200_123), "2024-01-01T00:00:00.123Z");
    }
}
