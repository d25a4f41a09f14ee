//! Time zones as ES's `time_zone` option reads them (`java.time.ZoneId.of`): `UTC`/`Z`, fixed
//! offsets (`+05:45`, `-03:00`, `+5`, `UTC+01:00`) and IANA names (`America/New_York`, with
//! their DST rules from `chrono-tz`). Everything here works on epoch milliseconds; "local
//! millis" are the zone's wall-clock time written as if it were UTC.

use chrono::{DateTime, FixedOffset, LocalResult, NaiveDateTime, Offset, TimeZone, Utc};
use chrono_tz::Tz;

use super::iso_text;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateZone {
    Utc,
    /// Seconds east of UTC.
    Fixed(i32),
    Named(Tz),
}

/// Longest span a DST gap or overlap search looks around a local time (offsets stay within
/// +-18 h, as in java.time).
const SEARCH_SPAN_MS: i64 = 36 * 3_600_000;

impl DateZone {
    /// `None` for text `ZoneId.of` rejects.
    pub fn parse(text: &str) -> Option<DateZone> {
        match text {
            "UTC" | "Z" | "GMT" | "UT" | "Etc/UTC" | "Etc/GMT" => return Some(DateZone::Utc),
            _ => {}
        }
        let fixed = ["UTC", "GMT", "UT"].iter().find_map(|p| text.strip_prefix(p)).unwrap_or(text);
        if fixed.starts_with(['+', '-']) {
            return parse_offset(fixed).map(|secs| if secs == 0 { DateZone::Utc } else { DateZone::Fixed(secs) });
        }
        let tz: Tz = text.parse().ok()?;
        Some(DateZone::Named(tz))
    }

    pub fn is_utc(&self) -> bool {
        *self == DateZone::Utc
    }

    /// The zone's offset from UTC at an instant, in milliseconds.
    pub fn offset_ms(&self, utc_ms: i64) -> i64 {
        match self {
            DateZone::Utc => 0,
            DateZone::Fixed(secs) => *secs as i64 * 1000,
            DateZone::Named(tz) => match DateTime::from_timestamp_millis(utc_ms) {
                Some(dt) => tz.offset_from_utc_datetime(&dt.naive_utc()).fix().local_minus_utc() as i64 * 1000,
                None => 0,
            },
        }
    }

    pub fn to_local(&self, utc_ms: i64) -> i64 {
        utc_ms.saturating_add(self.offset_ms(utc_ms))
    }

    /// The instants showing wall time `local_ms`: none inside a DST gap, two inside an
    /// overlap (earlier first).
    pub fn instants_of_local(&self, local_ms: i64) -> Vec<i64> {
        let DateZone::Named(tz) = self else { return vec![local_ms.saturating_sub(self.offset_ms(0))] };
        let Some(naive) = naive(local_ms) else { return vec![local_ms] };
        match tz.from_local_datetime(&naive) {
            LocalResult::Single(dt) => vec![dt.timestamp_millis()],
            LocalResult::Ambiguous(a, b) => {
                let (a, b) = (a.timestamp_millis(), b.timestamp_millis());
                vec![a.min(b), a.max(b)]
            }
            LocalResult::None => Vec::new(),
        }
    }

    /// The first instant at or after wall time `local_ms`, as java.time's `atStartOfDay`
    /// resolves it: the earlier offset in an overlap, the end of the gap inside a gap.
    pub fn local_to_utc(&self, local_ms: i64) -> i64 {
        match self.instants_of_local(local_ms).first() {
            Some(first) => *first,
            None => self
                .transition_between(local_ms.saturating_sub(SEARCH_SPAN_MS), local_ms.saturating_add(SEARCH_SPAN_MS)),
        }
    }

    /// The first instant in `(lo, hi]` whose offset is that of `hi` (assumes one transition).
    pub fn transition_between(&self, lo: i64, hi: i64) -> i64 {
        let target = self.offset_ms(hi);
        let (mut lo, mut hi) = (lo, hi);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.offset_ms(mid) == target {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    /// ES's default date output in this zone: `2026-11-01T00:00:00.000-04:00`, `Z` at UTC.
    pub fn format_iso(&self, utc_ms: i64) -> String {
        let mut out = String::with_capacity(29);
        self.write_iso(utc_ms, &mut out);
        out
    }

    /// `format_iso`, appended to `out`.
    pub fn write_iso(&self, utc_ms: i64, out: &mut String) {
        let offset = self.offset_ms(utc_ms);
        let local_ms = utc_ms.saturating_add(offset);
        if iso_text::write_iso_local(local_ms, offset / 1000, out) {
            return;
        }
        match naive(local_ms) {
            Some(local) => {
                out.push_str(&local.format("%Y-%m-%dT%H:%M:%S%.3f").to_string());
                iso_text::push_offset(out, offset / 1000);
            }
            None => out.push_str(&utc_ms.to_string()),
        }
    }

    /// The instant as a fixed-offset date time, for Java-pattern output with zone letters.
    pub fn fixed_at(&self, utc_ms: i64) -> Option<DateTime<FixedOffset>> {
        let offset = FixedOffset::east_opt((self.offset_ms(utc_ms) / 1000) as i32)?;
        Some(Utc.timestamp_millis_opt(utc_ms).single()?.with_timezone(&offset))
    }
}

fn naive(ms: i64) -> Option<NaiveDateTime> {
    DateTime::from_timestamp_millis(ms).map(|dt| dt.naive_utc())
}

/// `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (ZoneOffset.of), within +-18 h.
fn parse_offset(text: &str) -> Option<i32> {
    let sign = if text.starts_with('-') { -1 } else { 1 };
    let body = &text[1..];
    if !body.chars().all(|c| c.is_ascii_digit() || c == ':') {
        return None;
    }
    let digits: String = body.chars().filter(char::is_ascii_digit).collect();
    let colons = body.matches(':').count();
    let num = |range: std::ops::Range<usize>| digits.get(range).and_then(|d| d.parse::<i32>().ok());
    let (h, m, s) = match (digits.len(), colons) {
        (1 | 2, 0) => (num(0..digits.len())?, 0, 0),
        (4, 0 | 1) => (num(0..2)?, num(2..4)?, 0),
        (6, 0 | 2) => (num(0..2)?, num(2..4)?, num(4..6)?),
        _ => return None,
    };
    if colons > 0 && body.find(':') != Some(2) {
        return None;
    }
    if h > 18 || m > 59 || s > 59 || (h == 18 && (m > 0 || s > 0)) {
        return None;
    }
    Some(sign * (h * 3600 + m * 60 + s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::{parse_date_str, DEFAULT_FORMATS};

    fn ms(s: &str) -> i64 {
        parse_date_str(s, &DEFAULT_FORMATS).unwrap()
    }

    #[test]
    fn parses_names_and_offsets() {
        assert_eq!(DateZone::parse("UTC"), Some(DateZone::Utc));
        assert_eq!(DateZone::parse("+00:00"), Some(DateZone::Utc));
        assert_eq!(DateZone::parse("+05:45"), Some(DateZone::Fixed(5 * 3600 + 45 * 60)));
        assert_eq!(DateZone::parse("-03:00"), Some(DateZone::Fixed(-3 * 3600)));
        assert_eq!(DateZone::parse("+5"), Some(DateZone::Fixed(5 * 3600)));
        assert_eq!(DateZone::parse("UTC+01:00"), Some(DateZone::Fixed(3600)));
        assert!(matches!(DateZone::parse("America/New_York"), Some(DateZone::Named(_))));
        assert_eq!(DateZone::parse("Mars/Olympus"), None);
        assert_eq!(DateZone::parse("+19:00"), None);
    }

    #[test]
    fn offsets_follow_dst() {
        let ny = DateZone::parse("America/New_York").unwrap();
        assert_eq!(ny.offset_ms(ms("2026-11-01T05:59:59Z")), -4 * 3_600_000);
        assert_eq!(ny.offset_ms(ms("2026-11-01T06:00:00Z")), -5 * 3_600_000);
        assert_eq!(ny.format_iso(ms("2026-11-01T04:00:00Z")), "2026-11-01T00:00:00.000-04:00");
        assert_eq!(DateZone::parse("+05:45").unwrap().format_iso(0), "1970-01-01T05:45:00.000+05:45");
        assert_eq!(DateZone::Utc.format_iso(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn local_times_in_gaps_and_overlaps() {
        let berlin = DateZone::parse("Europe/Berlin").unwrap();
        // 02:30 does not exist on 2026-03-29 in Berlin: the gap ends at 01:00Z (03:00 CEST).
        assert_eq!(berlin.local_to_utc(ms("2026-03-29T02:30:00Z")), ms("2026-03-29T01:00:00Z"));
        let ny = DateZone::parse("America/New_York").unwrap();
        // 01:30 happens twice on 2026-11-01 in New York.
        assert_eq!(
            ny.instants_of_local(ms("2026-11-01T01:30:00Z")),
            vec![ms("2026-11-01T05:30:00Z"), ms("2026-11-01T06:30:00Z")]
        );
    }
}
