//! How ES's reduced-precision number types round what they store: `half_float` keeps an IEEE
//! 754 half (Lucene's `HalfFloatPoint`, round to nearest even), `scaled_float` a long of
//! `round(value * scaling_factor)` read back divided by the factor. Both live in the engine's
//! double column as the value ES would read back, so queries, sorts and aggregations see what
//! ES sees. And how Java prints a double, which ES's keys and messages follow.

/// `value` as ES stores it in a `half_float` field: parsed as a float, rounded to half precision.
pub fn round_to_half(value: f64) -> f64 {
    f64::from(half_to_f32(f32_to_half(value as f32)))
}

/// `value` as ES stores it in a `scaled_float` field with `factor`.
pub fn round_to_scale(value: f64, factor: f64) -> f64 {
    // Java's Math.round: halves round up (towards positive infinity).
    ((value * factor) + 0.5).floor() / factor
}

/// IEEE 754 binary32 -> binary16 bits, rounding to nearest even; overflow is infinity.
fn f32_to_half(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x7f_ffff;
    if exp == 0xff {
        // Infinity or NaN (a NaN keeps a mantissa bit).
        return sign | 0x7c00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    let half_exp = exp - 127 + 15;
    if half_exp >= 0x1f {
        return sign | 0x7c00;
    }
    if half_exp <= 0 {
        // A subnormal half (or zero): shift the mantissa, with its implicit bit, into place.
        if half_exp < -10 {
            return sign;
        }
        let m = mantissa | 0x80_0000;
        let shift = (14 - half_exp) as u32;
        return sign | round_shift(m, shift) as u16;
    }
    // A carry out of the mantissa rounds into the exponent, as the bit layout intends.
    let rounded = round_shift(mantissa, 13);
    sign | (((half_exp as u32) << 10) + rounded) as u16
}

/// `m >> shift`, rounded to nearest with ties to even.
fn round_shift(m: u32, shift: u32) -> u32 {
    let kept = m >> shift;
    let rest = m & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rest > half || (rest == half && kept & 1 == 1) {
        kept + 1
    } else {
        kept
    }
}

/// IEEE 754 binary16 bits -> binary32 (exact).
fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let mantissa = u32::from(h & 0x3ff);
    let bits = match (exp, mantissa) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise the mantissa.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Java's `Double.toString` for plain values (`100.0`, `2.5`): how ES prints range keys,
/// percentiles and geo values in keys and messages.
pub(crate) fn java_double(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e7 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_rounds_as_lucene() {
        assert_eq!(round_to_half(1.0), 1.0);
        assert_eq!(round_to_half(0.1), 0.0999755859375);
        assert_eq!(round_to_half(65504.0), 65504.0);
        assert_eq!(round_to_half(65520.0), f64::INFINITY);
        assert_eq!(round_to_half(-2.5), -2.5);
        // 2049 lies halfway between 2048 and 2050: ties go to the even mantissa.
        assert_eq!(round_to_half(2049.0), 2048.0);
        assert_eq!(round_to_half(2051.0), 2052.0);
        // The smallest subnormal half, and what rounds away below it.
        let smallest = 2f64.powi(-24);
        assert_eq!(round_to_half(smallest), smallest);
        assert_eq!(round_to_half(2e-8), 0.0);
        assert!(round_to_half(f64::NAN).is_nan());
    }

    #[test]
    fn every_half_survives_the_round_trip() {
        for bits in 0..0x7c00u16 {
            assert_eq!(f32_to_half(half_to_f32(bits)), bits, "{bits:#x}");
        }
    }

    #[test]
    fn scaled_values_round_half_up() {
        assert_eq!(round_to_scale(1.234, 100.0), 1.23);
        assert_eq!(round_to_scale(1.235, 10.0), 1.2);
        assert_eq!(round_to_scale(-1.25, 10.0), -1.2);
        assert_eq!(round_to_scale(3.0, 0.5), 4.0);
    }
}
