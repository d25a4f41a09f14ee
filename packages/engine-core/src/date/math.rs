//! Calendar arithmetic in UTC shared by date math (`now-1d/d`) and calendar-interval
//! date histograms: add N units, round down to a unit. Weeks start on Monday, as in ES.

use chrono::{DateTime, Datelike, Months, NaiveDate, TimeZone, Utc};

/// Ordered from finest to coarsest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CalendarUnit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

impl CalendarUnit {
    /// ES unit letters for date math (`M` month, `m` minute).
    pub fn from_math_letter(c: char) -> Option<CalendarUnit> {
        Some(match c {
            's' => CalendarUnit::Second,
            'm' => CalendarUnit::Minute,
            'h' | 'H' => CalendarUnit::Hour,
            'd' => CalendarUnit::Day,
            'w' => CalendarUnit::Week,
            'M' => CalendarUnit::Month,
            'y' => CalendarUnit::Year,
            _ => return None,
        })
    }

    /// `calendar_interval` names: `month`/`1M`, `day`/`1d`, ...
    pub fn from_calendar_interval(s: &str) -> Option<CalendarUnit> {
        Some(match s {
            "second" | "1s" => CalendarUnit::Second,
            "minute" | "1m" => CalendarUnit::Minute,
            "hour" | "1h" => CalendarUnit::Hour,
            "day" | "1d" => CalendarUnit::Day,
            "week" | "1w" => CalendarUnit::Week,
            "month" | "1M" => CalendarUnit::Month,
            "quarter" | "1q" => CalendarUnit::Quarter,
            "year" | "1y" => CalendarUnit::Year,
            _ => return None,
        })
    }
}

fn to_dt(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

fn midnight(date: NaiveDate) -> i64 {
    date.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis()
}

const SECOND: i64 = 1000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

pub fn round_down(ms: i64, unit: CalendarUnit) -> i64 {
    match unit {
        CalendarUnit::Second => ms.div_euclid(SECOND) * SECOND,
        CalendarUnit::Minute => ms.div_euclid(MINUTE) * MINUTE,
        CalendarUnit::Hour => ms.div_euclid(HOUR) * HOUR,
        CalendarUnit::Day => ms.div_euclid(DAY) * DAY,
        CalendarUnit::Week => {
            // 1970-01-01 was a Thursday: shift so buckets start on Mondays.
            let monday_offset = 3 * DAY;
            (ms + monday_offset).div_euclid(7 * DAY) * 7 * DAY - monday_offset
        }
        CalendarUnit::Month | CalendarUnit::Quarter | CalendarUnit::Year => {
            let d = to_dt(ms).date_naive();
            let month = match unit {
                CalendarUnit::Month => d.month(),
                CalendarUnit::Quarter => (d.month0() / 3) * 3 + 1,
                _ => 1,
            };
            midnight(NaiveDate::from_ymd_opt(d.year(), month, 1).unwrap())
        }
    }
}

pub fn add_units(ms: i64, n: i64, unit: CalendarUnit) -> i64 {
    let months = |m: i64| {
        let dt = to_dt(ms);
        let moved = if m >= 0 {
            dt.checked_add_months(Months::new(m as u32))
        } else {
            dt.checked_sub_months(Months::new((-m) as u32))
        };
        moved.map(|d| d.timestamp_millis()).unwrap_or(ms)
    };
    match unit {
        CalendarUnit::Second => ms + n * SECOND,
        CalendarUnit::Minute => ms + n * MINUTE,
        CalendarUnit::Hour => ms + n * HOUR,
        CalendarUnit::Day => ms + n * DAY,
        CalendarUnit::Week => ms + n * 7 * DAY,
        CalendarUnit::Month => months(n),
        CalendarUnit::Quarter => months(3 * n),
        CalendarUnit::Year => months(12 * n),
    }
}

/// Applies the part of a date-math expression after its anchor (`now` or `<date>||`), e.g.
/// `-1d/d` or `+2h`. With `round_up` (range `gt`/`lte` bounds) `/unit` goes to the last
/// millisecond of the unit instead of its first, as ES's `DateMathParser` does.
pub fn apply(anchor_ms: i64, expr: &str, round_up: bool) -> Result<i64, String> {
    let mut ms = anchor_ms;
    let mut chars = expr.chars().peekable();
    while let Some(op) = chars.next() {
        match op {
            '+' | '-' => {
                let mut digits = String::new();
                while let Some(c) = chars.peek().copied().filter(char::is_ascii_digit) {
                    digits.push(c);
                    chars.next();
                }
                let n: i64 = if digits.is_empty() {
                    1
                } else {
                    digits.parse().map_err(|_| format!("bad date math [{expr}]"))?
                };
                let unit = chars
                    .next()
                    .and_then(CalendarUnit::from_math_letter)
                    .ok_or_else(|| format!("unit missing in date math [{expr}]"))?;
                ms = add_units(ms, if op == '-' { -n } else { n }, unit);
            }
            '/' => {
                let unit = chars
                    .next()
                    .and_then(CalendarUnit::from_math_letter)
                    .ok_or_else(|| format!("rounding unit missing in date math [{expr}]"))?;
                ms = if round_up { add_units(round_down(ms, unit), 1, unit) - 1 } else { round_down(ms, unit) };
            }
            _ => return Err(format!("operator not supported for date math [{expr}]")),
        }
    }
    Ok(ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::{format_millis, parse_date_str, DEFAULT_FORMATS};

    fn ms(s: &str) -> i64 {
        parse_date_str(s, &DEFAULT_FORMATS).unwrap()
    }

    #[test]
    fn rounds_to_calendar_units() {
        let t = ms("2024-05-15T13:45:12.345Z");
        assert_eq!(format_millis(round_down(t, CalendarUnit::Hour)), "2024-05-15T13:00:00.000Z");
        assert_eq!(format_millis(round_down(t, CalendarUnit::Week)), "2024-05-13T00:00:00.000Z");
        assert_eq!(format_millis(round_down(t, CalendarUnit::Month)), "2024-05-01T00:00:00.000Z");
        assert_eq!(format_millis(round_down(t, CalendarUnit::Quarter)), "2024-04-01T00:00:00.000Z");
        assert_eq!(format_millis(round_down(t, CalendarUnit::Year)), "2024-01-01T00:00:00.000Z");
        assert_eq!(
            format_millis(round_down(ms("1969-12-31T23:00:00Z"), CalendarUnit::Day)),
            "1969-12-31T00:00:00.000Z"
        );
    }

    #[test]
    fn adds_months_across_lengths() {
        assert_eq!(format_millis(add_units(ms("2024-01-01"), 1, CalendarUnit::Month)), "2024-02-01T00:00:00.000Z");
        assert_eq!(format_millis(add_units(ms("2024-10-01"), 1, CalendarUnit::Quarter)), "2025-01-01T00:00:00.000Z");
    }

    #[test]
    fn date_math_expressions() {
        let now = ms("2024-05-15T13:45:00Z");
        assert_eq!(format_millis(apply(now, "-1d/d", false).unwrap()), "2024-05-14T00:00:00.000Z");
        assert_eq!(format_millis(apply(now, "+2h", false).unwrap()), "2024-05-15T15:45:00.000Z");
        assert!(apply(now, "*3", false).is_err());
    }
}
