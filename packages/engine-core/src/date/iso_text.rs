//! ES's default date output (`strict_date_optional_time`: `2026-11-01T00:00:00.000-04:00`)
//! written digit by digit. A date histogram prints one per bucket, thousands per response;
//! chrono's `format` parses its pattern and allocates on every call, which was most of the cost
//! of rendering an empty bucket.

/// Days since 1970-01-01 -> (year, month 1-12, day 1-31) in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

fn push_digits(out: &mut String, value: u32, width: usize) {
    let mut buf = [b'0'; 4];
    let mut v = value;
    for slot in buf[..width].iter_mut().rev() {
        *slot = b'0' + (v % 10) as u8;
        v /= 10;
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[..width]).unwrap_or_default());
}

/// Writes wall time `local_ms` with the zone offset `offset_secs` (`Z` at zero, else `+HH:MM`
/// as java.time prints it). `false` for a year outside 0000-9999, which the caller prints
/// through chrono (java.time adds a sign and more digits there).
pub(crate) fn write_iso_local(local_ms: i64, offset_secs: i64, out: &mut String) -> bool {
    let days = local_ms.div_euclid(86_400_000);
    let ms_of_day = local_ms.rem_euclid(86_400_000) as u32;
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return false;
    }
    push_digits(out, year as u32, 4);
    out.push('-');
    push_digits(out, month, 2);
    out.push('-');
    push_digits(out, day, 2);
    out.push('T');
    push_digits(out, ms_of_day / 3_600_000, 2);
    out.push(':');
    push_digits(out, ms_of_day / 60_000 % 60, 2);
    out.push(':');
    push_digits(out, ms_of_day / 1000 % 60, 2);
    out.push('.');
    push_digits(out, ms_of_day % 1000, 3);
    push_offset(out, offset_secs);
    true
}

/// `Z`, or `+HH:MM` (`appendOffset("+HH:MM", "Z")`: seconds of an offset are not printed).
pub(crate) fn push_offset(out: &mut String, secs: i64) {
    if secs == 0 {
        out.push('Z');
        return;
    }
    out.push(if secs < 0 { '-' } else { '+' });
    let abs = secs.unsigned_abs();
    push_digits(out, (abs / 3600) as u32, 2);
    out.push(':');
    push_digits(out, (abs / 60 % 60) as u32, 2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;

    fn written(local_ms: i64, offset: i64) -> Option<String> {
        let mut out = String::new();
        write_iso_local(local_ms, offset, &mut out).then_some(out)
    }

    #[test]
    fn civil_dates_match_chrono_across_leap_years_and_centuries() {
        // Every 3,989th day from 0000-03-01 to 9999-12-31 (a prime stride, so every month and
        // leap rule is hit), plus the epoch's neighbours.
        let first = DateTime::parse_from_rfc3339("0000-03-01T00:00:00Z").unwrap().timestamp_millis() / 86_400_000;
        let last = DateTime::parse_from_rfc3339("9999-12-31T00:00:00Z").unwrap().timestamp_millis() / 86_400_000;
        let mut days: Vec<i64> = (first..=last).step_by(3989).collect();
        days.extend([-1, 0, 1, 11_016, 10_957, 59, 60, last]);
        for d in days {
            let ms = d * 86_400_000 + 45_296_789; // 12:34:56.789
            let want = DateTime::from_timestamp_millis(ms).unwrap().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
            assert_eq!(written(ms, 0).as_deref(), Some(want.as_str()), "day {d}");
        }
    }

    #[test]
    fn offsets_print_as_java_time_does() {
        assert_eq!(written(0, -4 * 3600).unwrap(), "1970-01-01T00:00:00.000-04:00");
        assert_eq!(written(0, 5 * 3600 + 45 * 60).unwrap(), "1970-01-01T00:00:00.000+05:45");
        assert_eq!(written(-1, 0).unwrap(), "1969-12-31T23:59:59.999Z");
        assert_eq!(written(-30, -(9 * 3600 + 30 * 60 + 15)).unwrap(), "1969-12-31T23:59:59.970-09:30");
    }

    #[test]
    fn years_outside_four_digits_are_left_to_the_caller() {
        let year_10000 = DateTime::parse_from_rfc3339("9999-12-31T23:59:59.999Z").unwrap().timestamp_millis() + 1;
        assert_eq!(written(year_10000, 0), None);
        let before_year_0 = DateTime::parse_from_rfc3339("0000-01-01T00:00:00Z").unwrap().timestamp_millis() - 1;
        assert_eq!(written(before_year_0, 0), None);
    }
}
