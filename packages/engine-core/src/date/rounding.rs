//! Date bucket rounding as ES's `Rounding` does it: calendar units and fixed intervals
//! rounded in the requested time zone's wall-clock time (so a New York day is 23 or 25 hours
//! long around DST), then shifted by `offset`. Bucket keys stay UTC epoch millis.

use std::cell::Cell;

use crate::date::math::{add_units, round_down, CalendarUnit};
use crate::date::pattern::JavaPattern;
use crate::date::zone::DateZone;
use crate::date::{parse_format_list, DateFormat};

/// A histogram's step: a calendar unit (months vary in length) or a fixed number of millis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interval {
    Calendar(CalendarUnit),
    FixedMs(i64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rounding {
    pub interval: Interval,
    pub zone: DateZone,
    /// `offset`: buckets start this many ms after the zone's boundaries.
    pub offset_ms: i64,
}

/// How far a doc's rounding may walk back across DST transitions before giving up (one
/// step per transition between the value and its bucket start; calendar units cross at most
/// two a year).
const MAX_TRANSITION_STEPS: usize = 4;

impl Rounding {
    pub fn new(interval: Interval, zone: DateZone) -> Rounding {
        Rounding { interval, zone, offset_ms: 0 }
    }

    /// The start of the bucket holding `ms`. Arithmetic saturates: a `long` field may hold
    /// values no calendar reaches.
    pub fn round(&self, ms: i64) -> i64 {
        self.round_unshifted(ms.saturating_sub(self.offset_ms)).saturating_add(self.offset_ms)
    }

    /// The start of the bucket after the one starting at `key`; `i64::MAX` past the end of
    /// time, so loops walking buckets always end.
    pub fn next(&self, key: i64) -> i64 {
        let next = self.next_unshifted(key.saturating_sub(self.offset_ms)).saturating_add(self.offset_ms);
        if next > key {
            next
        } else {
            i64::MAX
        }
    }

    fn round_local(&self, local: i64) -> i64 {
        match self.interval {
            Interval::FixedMs(step) => local.div_euclid(step) * step,
            Interval::Calendar(unit) => round_down(local, unit),
        }
    }

    fn round_unshifted(&self, ms: i64) -> i64 {
        match self.zone {
            DateZone::Utc => self.round_local(ms),
            DateZone::Fixed(_) => {
                let offset = self.zone.offset_ms(ms);
                self.round_local(ms.saturating_add(offset)).saturating_sub(offset)
            }
            DateZone::Named(_) => match self.interval {
                // Days and longer start at the local midnight, wherever DST moved it
                // (java.time `atStartOfDay`, as ES's "to midnight" rounding).
                Interval::Calendar(unit) if unit >= CalendarUnit::Day => {
                    self.zone.local_to_utc(round_down(self.zone.to_local(ms), unit))
                }
                _ => self.round_within_day(ms),
            },
        }
    }

    /// Hours, minutes, seconds and fixed intervals in a DST zone: the latest local boundary
    /// at or before `ms`; when a transition lies between the two, ES rounds the instant just
    /// before the transition instead, so a bucket never straddles an offset change backwards.
    fn round_within_day(&self, ms: i64) -> i64 {
        let mut at = ms;
        for _ in 0..MAX_TRANSITION_STEPS {
            let offset = self.zone.offset_ms(at);
            let local = self.round_local(at.saturating_add(offset));
            let instants = self.zone.instants_of_local(local);
            let Some(candidate) = instants.iter().rev().find(|i| **i <= at).or(instants.first()).copied() else {
                // The boundary falls in a DST gap: the bucket starts when the gap ends.
                return self.zone.local_to_utc(local);
            };
            if self.zone.offset_ms(candidate) == offset {
                return candidate;
            }
            at = self.zone.transition_between(candidate, at) - 1;
        }
        let offset = self.zone.offset_ms(ms);
        self.round_local(ms.saturating_add(offset)).saturating_sub(offset)
    }

    fn next_unshifted(&self, key: i64) -> i64 {
        let step = match self.interval {
            Interval::Calendar(unit) if unit >= CalendarUnit::Day || self.zone.is_utc() => {
                let local = round_down(self.zone.to_local(key), unit);
                return match self.zone {
                    DateZone::Utc => add_units(local, 1, unit),
                    _ => self.zone.local_to_utc(add_units(local, 1, unit)),
                };
            }
            Interval::Calendar(unit) => add_units(0, 1, unit),
            Interval::FixedMs(step) => step,
        };
        let next = self.round_unshifted(key.saturating_add(step));
        if next > key {
            next
        } else {
            self.round_unshifted(key.saturating_add(step.saturating_mul(2)))
        }
    }
}

/// A bounds pair (`extended_bounds`, `hard_bounds`) after parsing and rounding.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl Bounds {
    /// `hard_bounds`: `[min, max)` on bucket keys, as ES's `LongBounds.contain`.
    pub fn contain(&self, key: i64) -> bool {
        self.min.is_none_or(|m| key >= m) && self.max.is_none_or(|m| key < m)
    }
}

/// `key_as_string` of date buckets: ES's ISO form or the `format`, in the zone.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyFormat {
    pub zone: DateZone,
    pub style: KeyStyle,
}

#[derive(Debug, Clone, PartialEq)]
pub enum KeyStyle {
    /// `strict_date_optional_time` (the default): `2026-11-01T00:00:00.000-04:00`.
    Iso,
    Pattern(JavaPattern),
    EpochMillis,
    EpochSecond,
}

impl KeyStyle {
    /// The first format of a `format: "a||b"` option prints (as ES's `DateFormatter`).
    pub fn from_format(text: &str) -> Result<KeyStyle, String> {
        KeyStyle::first_of(&parse_format_list(text)?)
    }

    /// How the first of a field's formats prints (`epoch_second` prints seconds).
    pub fn first_of(formats: &[DateFormat]) -> Result<KeyStyle, String> {
        let first = formats.first().cloned();
        Ok(match first {
            None | Some(DateFormat::OptionalTime) => KeyStyle::Iso,
            Some(DateFormat::EpochMillis) => KeyStyle::EpochMillis,
            Some(DateFormat::EpochSecond) => KeyStyle::EpochSecond,
            Some(DateFormat::Date) => KeyStyle::Pattern(JavaPattern::compile("yyyy-MM-dd")?),
            Some(DateFormat::SpaceSeparated) => KeyStyle::Pattern(JavaPattern::compile("yyyy-MM-dd HH:mm:ss")?),
            Some(DateFormat::Pattern(p)) => KeyStyle::Pattern(p),
        })
    }
}

impl KeyFormat {
    pub fn iso(zone: DateZone) -> KeyFormat {
        KeyFormat { zone, style: KeyStyle::Iso }
    }

    /// `format`, appended to `out` (the ISO default without an allocation).
    pub fn write(&self, ms: i64, out: &mut String) {
        match &self.style {
            KeyStyle::Iso => self.zone.write_iso(ms, out),
            _ => out.push_str(&self.format(ms)),
        }
    }

    pub fn format(&self, ms: i64) -> String {
        match &self.style {
            KeyStyle::Iso => self.zone.format_iso(ms),
            KeyStyle::EpochMillis => ms.to_string(),
            KeyStyle::EpochSecond => ms.div_euclid(1000).to_string(),
            KeyStyle::Pattern(p) => match self.zone.fixed_at(ms) {
                Some(dt) => p.format_at(&dt),
                None => ms.to_string(),
            },
        }
    }
}

/// Per-segment keying of date values: rounding, `hard_bounds`, and the last bucket seen
/// (consecutive docs usually share it, and a zone rounding costs an offset lookup).
pub(crate) struct DateKeyer {
    rounding: Rounding,
    hard: Option<Bounds>,
    last: Cell<(i64, i64)>,
}

impl DateKeyer {
    pub(crate) fn new(rounding: Rounding, hard: Option<Bounds>) -> DateKeyer {
        DateKeyer { rounding, hard, last: Cell::new((i64::MAX, i64::MIN)) }
    }

    pub(crate) fn push_key(&self, ms: i64, keys: &mut Vec<u64>) {
        if let Some((key, _, _)) = self.bucket(ms) {
            keys.push(key);
        }
    }

    /// The key of `ms` and its bucket's [start, end); `None` past `hard_bounds`.
    pub(crate) fn bucket(&self, ms: i64) -> Option<(u64, i64, i64)> {
        let (mut start, mut end) = self.last.get();
        if ms < start || ms >= end {
            start = self.rounding.round(ms);
            end = self.rounding.next(start);
            self.last.set((start, end));
        }
        self.hard.is_none_or(|b| b.contain(start)).then_some((start as u64, start, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::{format_millis, parse_date_str, DEFAULT_FORMATS};

    fn ms(s: &str) -> i64 {
        parse_date_str(s, &DEFAULT_FORMATS).unwrap()
    }

    fn day_in(zone: &str) -> Rounding {
        Rounding::new(Interval::Calendar(CalendarUnit::Day), DateZone::parse(zone).unwrap())
    }

    #[test]
    fn new_york_fall_back_day_is_25_hours() {
        let r = day_in("America/New_York");
        let start = r.round(ms("2026-11-01T12:00:00Z"));
        assert_eq!(format_millis(start), "2026-11-01T04:00:00.000Z");
        assert_eq!(r.next(start) - start, 25 * 3_600_000);
        assert_eq!(r.round(ms("2026-11-02T04:59:59.999Z")), start);
        assert_eq!(format_millis(r.round(ms("2026-11-02T05:00:00Z"))), "2026-11-02T05:00:00.000Z");
    }

    #[test]
    fn berlin_spring_forward_day_is_23_hours() {
        let r = day_in("Europe/Berlin");
        let start = r.round(ms("2026-03-29T12:00:00Z"));
        assert_eq!(format_millis(start), "2026-03-28T23:00:00.000Z");
        assert_eq!(r.next(start) - start, 23 * 3_600_000);
        assert_eq!(format_millis(r.next(start)), "2026-03-29T22:00:00.000Z");
    }

    #[test]
    fn fixed_offsets_and_offset_option() {
        let r = day_in("+05:45");
        assert_eq!(format_millis(r.round(ms("2026-01-01T20:00:00Z"))), "2026-01-01T18:15:00.000Z");
        let shifted = Rounding { offset_ms: 6 * 3_600_000, ..day_in("UTC") };
        assert_eq!(format_millis(shifted.round(ms("2026-01-02T03:00:00Z"))), "2026-01-01T06:00:00.000Z");
        assert_eq!(format_millis(shifted.next(ms("2026-01-01T06:00:00Z"))), "2026-01-02T06:00:00.000Z");
    }

    #[test]
    fn hours_and_fixed_intervals_in_local_time() {
        let ny = DateZone::parse("America/New_York").unwrap();
        let hour = Rounding::new(Interval::Calendar(CalendarUnit::Hour), ny);
        // Both 01:xx hours of the fall-back night are buckets of their own.
        let first = hour.round(ms("2026-11-01T05:30:00Z"));
        let second = hour.round(ms("2026-11-01T06:30:00Z"));
        assert_eq!(
            (format_millis(first), format_millis(second)),
            ("2026-11-01T05:00:00.000Z".into(), "2026-11-01T06:00:00.000Z".into())
        );
        assert_eq!(hour.next(first), second);
        let kolkata = Rounding::new(Interval::FixedMs(3 * 3_600_000), DateZone::parse("Asia/Kolkata").unwrap());
        // Local 03:00 IST is 21:30Z the day before.
        assert_eq!(format_millis(kolkata.round(ms("2026-01-01T23:00:00Z"))), "2026-01-01T21:30:00.000Z");
        let day = Rounding::new(Interval::FixedMs(86_400_000), ny);
        assert_eq!(format_millis(day.round(ms("2026-11-01T12:00:00Z"))), "2026-11-01T04:00:00.000Z");
    }

    #[test]
    fn key_format_in_zone() {
        let f = KeyFormat::iso(DateZone::parse("America/New_York").unwrap());
        assert_eq!(f.format(ms("2026-11-01T04:00:00Z")), "2026-11-01T00:00:00.000-04:00");
        let p = KeyFormat { style: KeyStyle::from_format("yyyy-MM-dd HH:mm").unwrap(), ..f };
        assert_eq!(p.format(ms("2026-11-02T05:00:00Z")), "2026-11-02 00:00");
        let e = KeyFormat { style: KeyStyle::from_format("epoch_millis").unwrap(), ..p };
        assert_eq!(e.format(5), "5");
    }
}
