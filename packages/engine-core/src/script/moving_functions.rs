//! `MovingFunctions.*` as Elasticsearch defines them for `moving_fn` scripts: NaN values in
//! the window are ignored, an empty window gives NaN (0 for `sum`).

pub fn max(values: &[f64]) -> f64 {
    values.iter().copied().filter(|v| !v.is_nan()).reduce(f64::max).unwrap_or(f64::NAN)
}

pub fn min(values: &[f64]) -> f64 {
    values.iter().copied().filter(|v| !v.is_nan()).reduce(f64::min).unwrap_or(f64::NAN)
}

pub fn sum(values: &[f64]) -> f64 {
    values.iter().filter(|v| !v.is_nan()).sum()
}

pub fn unweighted_avg(values: &[f64]) -> f64 {
    let live: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
    if live.is_empty() {
        f64::NAN
    } else {
        live.iter().sum::<f64>() / live.len() as f64
    }
}

pub fn std_dev(values: &[f64], avg: f64) -> f64 {
    if avg.is_nan() {
        return f64::NAN;
    }
    let live: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
    let squared: f64 = live.iter().map(|v| (v - avg).powi(2)).sum();
    (squared / live.len() as f64).sqrt()
}

/// Weights 1, 2, 3, ... oldest first; ES starts the total weight at 1, which we keep.
pub fn linear_weighted_avg(values: &[f64]) -> f64 {
    let (mut avg, mut total, mut current) = (0.0, 1u64, 1u64);
    for v in values.iter().filter(|v| !v.is_nan()) {
        avg += v * current as f64;
        total += current;
        current += 1;
    }
    if total == 1 {
        f64::NAN
    } else {
        avg / total as f64
    }
}

pub fn ewma(values: &[f64], alpha: f64) -> f64 {
    let mut avg = f64::NAN;
    for v in values.iter().copied().filter(|v| !v.is_nan()) {
        avg = if avg.is_nan() { v } else { v * alpha + avg * (1.0 - alpha) };
    }
    avg
}

/// Double exponential smoothing; the one-step forecast is the last smoothed value.
pub fn holt(values: &[f64], alpha: f64, beta: f64) -> f64 {
    let (mut s, mut last_s, mut last_b) = (0.0, 0.0, 0.0);
    let mut seen = 0usize;
    for v in values.iter().copied().filter(|v| !v.is_nan()) {
        // The first value starts the level with a zero trend.
        let b = if seen == 0 {
            s = v;
            0.0
        } else {
            s = alpha * v + (1.0 - alpha) * (last_s + last_b);
            beta * (s - last_s) + (1.0 - beta) * last_b
        };
        seen += 1;
        last_s = s;
        last_b = b;
    }
    if seen == 0 {
        f64::NAN
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_definitions() {
        let w = [1.0, f64::NAN, 3.0, 5.0];
        assert_eq!(max(&w), 5.0);
        assert_eq!(min(&w), 1.0);
        assert_eq!(sum(&w), 9.0);
        assert_eq!(unweighted_avg(&w), 3.0);
        // (1*1 + 3*2 + 5*3) / (1 + 1 + 2 + 3)
        assert_eq!(linear_weighted_avg(&w), 22.0 / 7.0);
        assert_eq!(ewma(&[2.0, 4.0], 0.5), 3.0);
        assert!((std_dev(&[1.0, 3.0], 2.0) - 1.0).abs() < 1e-12);
        assert!(max(&[]).is_nan() && unweighted_avg(&[]).is_nan() && holt(&[], 0.5, 0.5).is_nan());
        assert_eq!(sum(&[]), 0.0);
        // s1 = 1, b1 = 0; s2 = .5*3 + .5*(1+0) = 2, b2 = .5*(2-1) + .5*0 = .5
        assert_eq!(holt(&[1.0, 3.0], 0.5, 0.5), 2.0);
    }
}
