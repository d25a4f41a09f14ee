//! Java `DateTimeFormatter` patterns (`dd/MM/yyyy`, `yyyy-MM-dd'T'HH:mm`) as used in ES
//! mappings and range queries, compiled to chrono format strings. Only the letters ES users
//! write in practice are supported; any other letter is rejected instead of guessed.

use chrono::{DateTime, NaiveDate, NaiveDateTime};

use crate::date::math::CalendarUnit;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaPattern {
    pub source: String,
    chrono: String,
    /// The finest unit the pattern names: how far a rounded-up bound extends.
    pub precision: CalendarUnit,
    has_zone: bool,
    has_time: bool,
}

impl JavaPattern {
    pub fn compile(pattern: &str) -> Result<JavaPattern, String> {
        let unsupported = |what: &str| format!("Invalid format: [{pattern}]: unsupported date pattern {what}");
        let mut chrono = String::new();
        let mut precision = None::<CalendarUnit>;
        let (mut has_zone, mut has_time) = (false, false);
        let mut finer = |unit: CalendarUnit| precision = Some(precision.map_or(unit, |p| p.min(unit)));
        let chars: Vec<char> = pattern.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let run = chars[i..].iter().take_while(|&&x| x == c).count();
            if c == '\'' {
                // A quoted literal: copy up to the closing quote.
                let end = chars[i + 1..].iter().position(|&x| x == '\'').ok_or_else(|| unsupported("(open quote)"))?;
                for &lit in &chars[i + 1..i + 1 + end] {
                    push_literal(&mut chrono, lit);
                }
                i += end + 2;
                continue;
            }
            let spec = match (c, run) {
                ('y' | 'u', 2) => "%y",
                ('y' | 'u', _) => "%Y",
                ('M', 1 | 2) => "%m",
                ('M', 3) => "%b",
                ('d', 1 | 2) => "%d",
                ('H', 1 | 2) => "%H",
                ('m', 1 | 2) => "%M",
                ('s', 1 | 2) => "%S",
                ('S', 3) => "%3f",
                ('X', 1 | 2) | ('Z', _) => "%z",
                ('X', 3) => "%:z",
                (l, _) if l.is_ascii_alphabetic() => return Err(unsupported(&format!("letter [{l}]"))),
                (l, _) => {
                    for _ in 0..run {
                        push_literal(&mut chrono, l);
                    }
                    i += run;
                    continue;
                }
            };
            match c {
                'y' | 'u' => finer(CalendarUnit::Year),
                'M' => finer(CalendarUnit::Month),
                'd' => finer(CalendarUnit::Day),
                'H' => finer(CalendarUnit::Hour),
                'm' => finer(CalendarUnit::Minute),
                's' => finer(CalendarUnit::Second),
                'X' | 'Z' => has_zone = true,
                _ => {}
            }
            has_time |= matches!(c, 'H' | 'm' | 's' | 'S');
            chrono.push_str(spec);
            i += run;
        }
        let precision = precision.ok_or_else(|| unsupported("(no date fields)"))?;
        Ok(JavaPattern { source: pattern.to_string(), chrono, precision, has_zone, has_time })
    }

    /// Formats epoch millis (UTC) with the pattern, as ES renders `*_as_string` values.
    pub fn format(&self, ms: i64) -> String {
        match chrono::DateTime::from_timestamp_millis(ms) {
            Some(dt) => dt.format(&self.chrono).to_string(),
            None => ms.to_string(),
        }
    }

    /// Formats a date in a zone (date_histogram `time_zone`): local fields and its offset.
    pub fn format_at(&self, dt: &DateTime<chrono::FixedOffset>) -> String {
        dt.format(&self.chrono).to_string()
    }

    /// Epoch millis (UTC unless the pattern carries a zone); missing day/month default to 1.
    pub fn parse(&self, s: &str) -> Option<i64> {
        if self.has_zone {
            return DateTime::parse_from_str(s, &self.chrono).ok().map(|d| d.timestamp_millis());
        }
        if self.has_time {
            return NaiveDateTime::parse_from_str(s, &self.chrono).ok().map(|d| d.and_utc().timestamp_millis());
        }
        // chrono needs a full date: supply the missing day (and month) as ES does (01).
        let (fmt, text) = match self.precision {
            CalendarUnit::Year => (format!("{} %m %d", self.chrono), format!("{s} 01 01")),
            CalendarUnit::Month => (format!("{} %d", self.chrono), format!("{s} 01")),
            _ => (self.chrono.clone(), s.to_string()),
        };
        NaiveDate::parse_from_str(&text, &fmt)
            .ok()
            .map(|d| d.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis())
    }
}

fn push_literal(out: &mut String, c: char) {
    if c == '%' {
        out.push_str("%%");
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_common_patterns() {
        let p = JavaPattern::compile("dd/MM/yyyy").unwrap();
        assert_eq!(p.parse("01/06/2024"), Some(1_717_200_000_000));
        assert_eq!(p.precision, CalendarUnit::Day);
        let p = JavaPattern::compile("yyyy-MM-dd'T'HH:mm").unwrap();
        assert_eq!(p.parse("2024-06-01T00:00"), Some(1_717_200_000_000));
        assert_eq!(p.precision, CalendarUnit::Minute);
        let p = JavaPattern::compile("yyyy/MM").unwrap();
        assert_eq!(p.parse("2024/06"), Some(1_717_200_000_000));
        assert_eq!(p.parse("2024-06"), None);
    }

    #[test]
    fn rejects_unknown_letters() {
        assert!(JavaPattern::compile("yyyy-ww").unwrap_err().contains("letter [w]"));
        assert!(JavaPattern::compile("'x").is_err());
    }
}
