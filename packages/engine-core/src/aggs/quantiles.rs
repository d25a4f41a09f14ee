//! `percentiles`, `percentile_ranks` and `median_absolute_deviation`.
//!
//! ES (and OpenSearch 2.19, the baseline) estimate all three with a t-digest of compression
//! 100. We compute them exactly over every collected value instead, reading them out the way
//! that digest does when each centroid holds a single value: a value sits at the middle of
//! its unit of weight, so quantile `q` of `n` sorted values interpolates linearly between the
//! values around position `q * n - 0.5` (min and max at the ends), and the rank of `x`
//! spreads each value's unit of weight over the half gaps to its neighbours. While the
//! baseline's digest keeps every value as its own centroid (small sets, and the tails of
//! large ones) the answers are identical; once it merges neighbours in the middle of a large
//! set its answer is itself an estimate, and ours stays within a few neighbouring values of
//! it (the conformance cases on 300 docs carry a tolerance for that reason).

use serde_json::{json, Map, Value};

use super::render_extra::java_double;
use super::AggRequest;
use crate::date::format_millis;
use crate::store::mapping::FieldType;

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Quantile `q` in [0, 1] of sorted values; NaN when there are none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    match n {
        0 => return f64::NAN,
        1 => return sorted[0],
        _ => {}
    }
    let index = q * n as f64;
    if index <= 0.5 {
        return sorted[0];
    }
    if index >= n as f64 - 0.5 {
        return sorted[n - 1];
    }
    let i = ((index - 0.5).floor() as usize).min(n - 2);
    // The digest's weighted average of the two neighbouring centres (weights are distances).
    let so_far = i as f64 + 0.5;
    let (z1, z2) = (index - so_far, so_far + 1.0 - index);
    let (a, b) = (sorted[i], sorted[i + 1]);
    ((a * z2 + b * z1) / (z1 + z2)).clamp(a.min(b), a.max(b))
}

/// Fraction of the values below `x`: each value's unit of weight spread evenly from half
/// way to its left neighbour to half way to its right one (the last interval mirrors its
/// left half); NaN when there are none.
pub fn rank(sorted: &[f64], x: f64) -> f64 {
    let n = sorted.len();
    match n {
        0 => return f64::NAN,
        1 => return if x < sorted[0] { 0.0 } else { 1.0 },
        _ => {}
    }
    let spread = |lo: f64, hi: f64| if hi > lo { (x - lo) / (hi - lo) } else { 0.0 };
    let mut below = 0.0;
    let mut left = (sorted[1] - sorted[0]) / 2.0;
    let mut right = left;
    for a in 0..n - 2 {
        if x < sorted[a] + right {
            return ((below + spread(sorted[a] - left, sorted[a] + right)) / n as f64).max(0.0);
        }
        below += 1.0;
        left = right;
        right = (sorted[a + 2] - sorted[a + 1]) / 2.0;
    }
    let a = sorted[n - 2];
    if x < a + right {
        ((below + spread(a - right, a + right)) / n as f64).max(0.0)
    } else {
        1.0
    }
}

/// The median of the absolute deviations from the median.
pub fn median_absolute_deviation(values: &[f64]) -> f64 {
    let values = sorted(values);
    let median = quantile(&values, 0.5);
    let deviations: Vec<f64> = values.iter().map(|v| (v - median).abs()).collect();
    quantile(&sorted(&deviations), 0.5)
}

fn is_date(req: &AggRequest) -> bool {
    matches!(req.field.resolved, Some((_, FieldType::Date)))
}

/// ES renders NaN (no values) as null, and dates also as `<key>_as_string`.
fn number(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

/// `{"values": {"<key>": v, ...}}` (keyed) or `{"values": [{"key": k, "value": v}, ...]}`.
fn render_values(req: &AggRequest, pairs: Vec<(f64, f64)>, keyed: bool, dates: bool) -> Value {
    if keyed {
        let mut obj = Map::new();
        for (key, v) in pairs {
            let name = java_double(key);
            obj.insert(name.clone(), number(v));
            if dates && v.is_finite() {
                obj.insert(format!("{name}_as_string"), json!(format_millis(v as i64)));
            }
        }
        return json!({ "values": obj });
    }
    let _ = req;
    let list: Vec<Value> = pairs
        .into_iter()
        .map(|(key, v)| {
            let mut obj = Map::new();
            obj.insert("key".into(), json!(key));
            obj.insert("value".into(), number(v));
            if dates && v.is_finite() {
                obj.insert("value_as_string".into(), json!(format_millis(v as i64)));
            }
            Value::Object(obj)
        })
        .collect();
    json!({ "values": list })
}

pub(super) fn render_percentiles(req: &AggRequest, values: &[f64], percents: &[f64], keyed: bool) -> Value {
    let values = sorted(values);
    // ES sorts the requested percents (the order of the `keyed: false` list).
    let mut percents = percents.to_vec();
    percents.sort_by(f64::total_cmp);
    let pairs = percents.iter().map(|p| (*p, quantile(&values, p / 100.0))).collect();
    render_values(req, pairs, keyed, is_date(req))
}

pub(super) fn render_percentile_ranks(req: &AggRequest, values: &[f64], targets: &[f64], keyed: bool) -> Value {
    let values = sorted(values);
    // ES lists ranks in ascending order of the requested values.
    let mut targets = targets.to_vec();
    targets.sort_by(f64::total_cmp);
    let pairs = targets.iter().map(|x| (*x, rank(&values, *x) * 100.0)).collect();
    render_values(req, pairs, keyed, false)
}

pub(super) fn render_mad(values: &[f64]) -> Value {
    json!({ "value": number(median_absolute_deviation(values)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_centres() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 0.05), 1.0);
        // Position 5 lies half way between the 5th and 6th centres.
        assert_eq!(quantile(&v, 0.5), 5.5);
        assert_eq!(quantile(&v, 0.25), 3.0);
        assert!((quantile(&v, 0.27) - 3.2).abs() < 1e-12);
        assert_eq!(quantile(&v, 1.0), 10.0);
        assert_eq!(quantile(&[4.0], 0.3), 4.0);
        assert!(quantile(&[], 0.5).is_nan());
    }

    #[test]
    fn ranks_spread_each_value_over_half_gaps() {
        // OpenSearch answers 40 and 80 for 3 and 7 on these fifteen values.
        let v = [0.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 6.0, 7.0, 7.0, 7.0, 9.0, 9.0];
        assert_eq!(rank(&v, 3.0) * 100.0, 40.0);
        assert_eq!(rank(&v, 7.0) * 100.0, 80.0);
        assert_eq!(rank(&v, -10.0), 0.0);
        assert_eq!(rank(&v, 100.0), 1.0);
        let even = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(rank(&even, 2.0), 1.5 / 4.0);
        assert_eq!(rank(&even, 2.25), 1.75 / 4.0);
    }

    #[test]
    fn mad_of_a_small_set() {
        // Median 5.5; deviations 0.5,0.5,1.5,1.5,...,4.5,4.5: their median is 2.5.
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(median_absolute_deviation(&v), 2.5);
    }
}
