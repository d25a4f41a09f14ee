//! The `hdr` method of `percentiles` and `percentile_ranks`: an HDR histogram of doubles.
//!
//! ES records into HdrHistogram's `DoubleHistogram`: an integer HDR histogram (the
//! `hdrhistogram` crate's here) whose integer unit stands for a power of two in doubles. The
//! double histogram auto-ranges so that the smallest positive value it has seen sits in the top
//! half of the first bucket: the unit is the largest power of two not above that value, divided
//! by the sub-bucket half count. Every later value then lands in a bucket `2^floor(log2 v) /
//! half` wide, whatever order the values came in, so building the histogram from the collected
//! values at once answers what ES's recording (and its merge of shard histograms) answers.
//! Percentiles read out as HdrHistogram 2.1.9 (the version ES 7.10 ships) reads them: the
//! count at a percentile rounds to nearest, and the answer is the highest value equivalent to
//! the bucket that count reaches (the lowest for percentile 0).

use hdrhistogram::Histogram;

use crate::error::{EngineError, Result};

/// ES's default `number_of_significant_value_digits`.
pub const DEFAULT_DIGITS: u8 = 3;

/// The `hdr` object's digits, validated as ES validates them.
pub fn parse_digits(hdr: &serde_json::Value, bad: impl Fn() -> EngineError) -> Result<u8> {
    let obj = hdr.as_object().ok_or_else(&bad)?;
    let mut digits = DEFAULT_DIGITS as i64;
    for (key, value) in obj {
        match key.as_str() {
            "number_of_significant_value_digits" => digits = value.as_i64().ok_or_else(&bad)?,
            other => return Err(EngineError::XContentParse(format!("[hdr] unknown field [{other}]"))),
        }
    }
    if !(0..=5).contains(&digits) {
        return Err(EngineError::IllegalArgument(
            "[numberOfSignificantValueDigits] must be between 0 and 5".to_string(),
        ));
    }
    Ok(digits as u8)
}

/// A histogram of double values: integer counts and the double value of one integer unit.
pub struct DoubleHdr {
    counts: Histogram<u64>,
    unit: f64,
}

/// Why values cannot be recorded (HdrHistogram throws `ArrayIndexOutOfBoundsException`).
#[derive(Debug, PartialEq)]
pub struct OutOfBounds(pub f64);

impl DoubleHdr {
    /// Records every value; fails on a negative or non-finite value, or a range too wide for
    /// 64-bit counts indexes, as HdrHistogram does.
    pub fn build(values: &[f64], digits: u8) -> std::result::Result<DoubleHdr, OutOfBounds> {
        if let Some(bad) = values.iter().find(|v| **v < 0.0 || !v.is_finite()) {
            return Err(OutOfBounds(*bad));
        }
        let half = sub_bucket_half_count(digits);
        let min_positive = values.iter().copied().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
        let lowest = if min_positive.is_finite() { 2f64.powi(min_positive.log2().floor() as i32) } else { 1.0 };
        // `log2` of a value just under a power of two can round up to it: step down once.
        let lowest = if lowest > min_positive { lowest / 2.0 } else { lowest };
        let unit = lowest / half as f64;
        let mut counts = Histogram::<u64>::new(digits).map_err(|_| OutOfBounds(f64::NAN))?;
        for v in values {
            let scaled = v / unit;
            if scaled >= (1u64 << 62) as f64 {
                return Err(OutOfBounds(*v));
            }
            counts.record(scaled as u64).map_err(|_| OutOfBounds(*v))?;
        }
        Ok(DoubleHdr { counts, unit })
    }

    pub fn total(&self) -> u64 {
        self.counts.len()
    }

    /// The value at `percentile` in [0, 100]; NaN when empty.
    pub fn value_at_percentile(&self, percentile: f64) -> f64 {
        let total = self.total();
        if total == 0 {
            return f64::NAN;
        }
        let requested = percentile.min(100.0);
        let target = (((requested / 100.0) * total as f64) + 0.5) as u64;
        let target = target.max(1);
        let mut so_far = 0;
        for bucket in self.counts.iter_recorded() {
            so_far += bucket.count_at_value();
            if so_far >= target {
                let at = bucket.value_iterated_to();
                let integer = if percentile == 0.0 {
                    self.counts.lowest_equivalent(at)
                } else {
                    self.counts.highest_equivalent(at)
                };
                return integer as f64 * self.unit;
            }
        }
        0.0
    }

    /// The percentage of values at or below `value`'s bucket; NaN when empty.
    pub fn percentile_at_or_below(&self, value: f64) -> f64 {
        let total = self.total();
        if total == 0 {
            return f64::NAN;
        }
        let integer = (value / self.unit).max(0.0);
        if integer >= (1u64 << 62) as f64 {
            return 100.0;
        }
        let limit = self.counts.highest_equivalent(integer as u64);
        let below: u64 = self
            .counts
            .iter_recorded()
            .take_while(|b| b.value_iterated_to() <= limit)
            .map(|b| b.count_at_value())
            .sum();
        (100.0 * below as f64 / total as f64).min(100.0)
    }
}

/// `(percent, value)` for each percent; every value null (NaN) when HdrHistogram cannot
/// record the values (a negative one).
pub fn percentile_pairs(values: &[f64], percents: &[f64], digits: u8) -> Vec<(f64, f64)> {
    let h = DoubleHdr::build(values, digits).ok();
    percents.iter().map(|p| (*p, h.as_ref().map_or(f64::NAN, |h| h.value_at_percentile(*p)))).collect()
}

/// `(value, rank)` for each target value, as `percentile_pairs`.
pub fn rank_pairs(values: &[f64], targets: &[f64], digits: u8) -> Vec<(f64, f64)> {
    let h = DoubleHdr::build(values, digits).ok();
    targets.iter().map(|x| (*x, h.as_ref().map_or(f64::NAN, |h| h.percentile_at_or_below(*x)))).collect()
}

/// HdrHistogram's sub-bucket half count for `digits` significant digits: half the power of
/// two that resolves `2 * 10^digits` in single units.
fn sub_bucket_half_count(digits: u8) -> u64 {
    let largest_single_unit = 2.0 * 10f64.powi(digits as i32);
    let magnitude = (largest_single_unit.log2().ceil() as u32).max(1);
    1 << (magnitude - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_highest_equivalent_values() {
        let h = DoubleHdr::build(&[1.0, 51.0, 101.0, 151.0], 3).unwrap();
        // Unit 1/1024 (smallest value 1); 51 sits in a bucket 1/32 wide.
        assert_eq!(h.value_at_percentile(1.0), 1.0);
        assert_eq!(h.value_at_percentile(50.0), 51.0302734375);
        assert_eq!(h.value_at_percentile(75.0), 101.0615234375);
        assert_eq!(h.value_at_percentile(99.0), 151.1240234375);
        // Without the 1 the unit is 32/1024.
        let h = DoubleHdr::build(&[51.0, 101.0, 151.0], 3).unwrap();
        assert_eq!(h.value_at_percentile(50.0), 101.03125);
        assert_eq!(h.value_at_percentile(95.0), 151.09375);
        assert_eq!(h.value_at_percentile(0.0), 51.0);
    }

    #[test]
    fn ranks_count_whole_buckets() {
        let h = DoubleHdr::build(&[1.0, 51.0, 101.0, 151.0], 3).unwrap();
        assert_eq!(h.percentile_at_or_below(0.5), 0.0);
        assert_eq!(h.percentile_at_or_below(51.0), 50.0);
        assert_eq!(h.percentile_at_or_below(51.01), 50.0);
        assert_eq!(h.percentile_at_or_below(1e9), 100.0);
        let fewer = DoubleHdr::build(&[1.0, 51.0], 0).unwrap();
        assert_eq!(fewer.percentile_at_or_below(60.0), 100.0);
    }

    #[test]
    fn negative_values_cannot_be_recorded() {
        assert_eq!(DoubleHdr::build(&[3.0, -10.0], 3).err(), Some(OutOfBounds(-10.0)));
        assert!(DoubleHdr::build(&[], 3).unwrap().value_at_percentile(50.0).is_nan());
        assert_eq!(DoubleHdr::build(&[0.0, 0.0], 2).unwrap().value_at_percentile(50.0), 0.0);
    }

    #[test]
    fn digits_are_checked() {
        let bad = || EngineError::XContentParse("bad".into());
        assert_eq!(parse_digits(&serde_json::json!({}), bad).unwrap(), 3);
        assert_eq!(parse_digits(&serde_json::json!({"number_of_significant_value_digits": 0}), bad).unwrap(), 0);
        let err = parse_digits(&serde_json::json!({"number_of_significant_value_digits": 10}), bad).unwrap_err();
        assert!(err.to_string().contains("must be between 0 and 5"));
        assert!(parse_digits(&serde_json::json!({"number_of_significant_value_digits": null}), bad).is_err());
    }
}
