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

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::metric::hdr;
use crate::aggs::request::{AggKind, AggRequest};
use crate::date::format_millis;
use crate::error::{EngineError, Result, ShardCause};
use crate::number::java_double;
use crate::store::mapping::FieldType;

/// ES's default `percents`.
const DEFAULT_PERCENTS: [f64; 7] = [1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0];

pub struct Percentiles;
pub struct PercentileRanks;
pub struct MedianAbsoluteDeviation;

/// The options of the three; `tdigest` and `compression` are accuracy knobs of ES's sketch:
/// our computation is exact, so they change nothing. `hdr` picks the HDR histogram method
/// (`hdr.rs`), whose answers are its buckets' edges, not the values.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PercentilesOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "percents")]
    _percents: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "tdigest")]
    _tdigest: Option<IgnoredAny>,
    #[serde(rename = "hdr")]
    _hdr: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RanksOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "values")]
    _values: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "tdigest")]
    _tdigest: Option<IgnoredAny>,
    #[serde(rename = "hdr")]
    _hdr: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MadOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "missing")]
    _missing: Option<IgnoredAny>,
    #[serde(rename = "compression")]
    _compression: Option<IgnoredAny>,
}

/// What the three read from their bodies, in the body's key order.
struct Common {
    field: Option<String>,
    numbers: Option<Vec<f64>>,
    keyed: bool,
    missing: Option<f64>,
    /// `hdr`'s significant digits when the HDR method is asked for.
    hdr: Option<u8>,
}

fn read_common(def: &AggDef, numbers_key: &str) -> Result<Common> {
    let mut out = Common { field: None, numbers: None, keyed: true, missing: None, hdr: None };
    for (key, value) in def.body {
        let bad = || def.bad_field(key);
        match key.as_str() {
            "field" => out.field = def.field_option()?,
            k if k == numbers_key => {
                let list = value.as_array().ok_or_else(bad)?;
                out.numbers = Some(list.iter().map(|v| v.as_f64().ok_or_else(bad)).collect::<Result<_>>()?);
            }
            "keyed" => out.keyed = value.as_bool().ok_or_else(bad)?,
            "hdr" => out.hdr = Some(hdr::parse_digits(value, bad)?),
            "missing" => {
                let n = value.as_f64().or_else(|| value.as_str().and_then(|s| s.parse().ok()));
                out.missing = Some(n.ok_or_else(bad)?);
            }
            _ => {}
        }
    }
    if out.hdr.is_some() && def.body.contains_key("tdigest") {
        return Err(EngineError::IllegalArgument("Only one percentiles method should be declared.".to_string()));
    }
    Ok(out)
}

/// Values are kept per bucket to the end: no sub-aggregations, and numbers only.
fn no_subs(def: &AggDef) -> Result<()> {
    if def.has_subs() {
        return Err(EngineError::Parsing(format!(
            "Aggregator [{}] of type [{}] cannot accept sub-aggregations",
            def.name, def.kind_name
        )));
    }
    Ok(())
}

fn values(fruit: &AggFruit) -> &[f64] {
    match fruit {
        AggFruit::Values(v) => v,
        _ => &[],
    }
}

impl Aggregation for Percentiles {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<PercentilesOptions>()?;
        let c = read_common(def, "percents")?;
        let field = def.required_field(c.field)?;
        if let Some(compression) = def.body.get("tdigest").and_then(|t| t.get("compression")) {
            let compression = compression.as_f64().ok_or_else(|| def.bad_field("tdigest"))?;
            if compression < 0.0 {
                return Err(EngineError::IllegalArgument(format!(
                    "[compression] must be greater than or equal to 0. Found [{}] in [{}]",
                    java_double(compression),
                    def.name
                )));
            }
        }
        if c.numbers.as_ref().is_some_and(Vec::is_empty) {
            return Err(EngineError::IllegalArgument(format!("[percents] must not be empty: [{}]", def.name)));
        }
        let percents = c.numbers.unwrap_or_else(|| DEFAULT_PERCENTS.to_vec());
        if let Some(p) = percents.iter().find(|p| !(0.0..=100.0).contains(*p)) {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("percent must be in [0,100], got [{p}]: [{}]", def.name),
            ));
        }
        no_subs(def)?;
        Ok((AggKind::Percentiles { percents, keyed: c.keyed, missing: c.missing, hdr: c.hdr }, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        !matches!(ty, FieldType::Keyword | FieldType::Ip)
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggKind::Percentiles { percents, keyed, hdr, .. } = &req.kind else { unreachable!("dispatched by kind") };
        render_percentiles(req, values(fruit), percents, *keyed, *hdr)
    }
}

impl Aggregation for PercentileRanks {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<RanksOptions>()?;
        let c = read_common(def, "values")?;
        let field = def.required_field(c.field)?;
        let values = c.numbers.filter(|v| !v.is_empty()).ok_or_else(|| {
            EngineError::shard(ShardCause::IllegalArgument, format!("[values] must not be null: [{}]", def.name))
        })?;
        no_subs(def)?;
        Ok((
            AggKind::PercentileRanks { values, keyed: c.keyed, missing: c.missing, hdr: c.hdr },
            FieldRef::Field(field),
        ))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        !matches!(ty, FieldType::Keyword | FieldType::Ip)
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggKind::PercentileRanks { values: targets, keyed, hdr, .. } = &req.kind else {
            unreachable!("dispatched by kind")
        };
        render_percentile_ranks(req, values(fruit), targets, *keyed, *hdr)
    }
}

impl Aggregation for MedianAbsoluteDeviation {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<MadOptions>()?;
        if let Some(compression) = def.body.get("compression") {
            let compression = compression.as_f64().ok_or_else(|| def.bad_field("compression"))?;
            if compression <= 0.0 {
                return Err(EngineError::IllegalArgument(format!(
                    "[compression] must be greater than 0. Found [{}] in [{}]",
                    java_double(compression),
                    def.name
                )));
            }
        }
        let c = read_common(def, "")?;
        let field = def.required_field(c.field)?;
        no_subs(def)?;
        Ok((AggKind::MedianAbsoluteDeviation { missing: c.missing }, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        !matches!(ty, FieldType::Keyword | FieldType::Ip)
    }

    fn render(&self, _req: &AggRequest, fruit: &AggFruit) -> Value {
        render_mad(values(fruit))
    }
}

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

fn render_percentiles(req: &AggRequest, values: &[f64], percents: &[f64], keyed: bool, hdr: Option<u8>) -> Value {
    // ES sorts the requested percents (the order of the `keyed: false` list).
    let mut percents = percents.to_vec();
    percents.sort_by(f64::total_cmp);
    let pairs = match hdr {
        Some(digits) => hdr::percentile_pairs(values, &percents, digits),
        None => {
            let values = sorted(values);
            percents.iter().map(|p| (*p, quantile(&values, p / 100.0))).collect()
        }
    };
    render_values(req, pairs, keyed, is_date(req))
}

fn render_percentile_ranks(req: &AggRequest, values: &[f64], targets: &[f64], keyed: bool, hdr: Option<u8>) -> Value {
    // ES lists ranks in ascending order of the requested values.
    let mut targets = targets.to_vec();
    targets.sort_by(f64::total_cmp);
    let pairs = match hdr {
        Some(digits) => hdr::rank_pairs(values, &targets, digits),
        None => {
            let values = sorted(values);
            targets.iter().map(|x| (*x, rank(&values, *x) * 100.0)).collect()
        }
    };
    render_values(req, pairs, keyed, false)
}

fn render_mad(values: &[f64]) -> Value {
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
