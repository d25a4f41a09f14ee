//! Parsing pipeline aggregation definitions into [`PipelineSpec`].

use serde_json::{Map, Value};

use super::path::BucketsPath;
use crate::error::{EngineError, Result};
use crate::script::Script;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GapPolicy {
    Skip,
    InsertZeros,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PipelineKind {
    SumBucket,
    AvgBucket,
    MaxBucket,
    MinBucket,
    StatsBucket,
    PercentilesBucket { percents: Vec<f64>, keyed: bool },
    Derivative,
    CumulativeSum,
    MovingFn { window: usize, shift: i64, script: Script },
    SerialDiff { lag: usize },
    BucketScript { script: Script },
    BucketSelector { script: Script },
    BucketSort { sorts: Vec<(String, bool)>, from: usize, size: Option<usize> },
}

impl PipelineKind {
    /// Sibling pipelines read a multi-bucket sibling and add one value next to it; the
    /// others run inside a multi-bucket parent, over its buckets.
    pub fn is_sibling(&self) -> bool {
        matches!(
            self,
            PipelineKind::SumBucket
                | PipelineKind::AvgBucket
                | PipelineKind::MaxBucket
                | PipelineKind::MinBucket
                | PipelineKind::StatsBucket
                | PipelineKind::PercentilesBucket { .. }
        )
    }

    /// Pipelines that need their buckets in key order: a histogram parent.
    pub fn needs_histogram_parent(&self) -> bool {
        matches!(
            self,
            PipelineKind::Derivative
                | PipelineKind::CumulativeSum
                | PipelineKind::MovingFn { .. }
                | PipelineKind::SerialDiff { .. }
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PipelineSpec {
    /// The ES type name, for messages.
    pub type_name: String,
    pub kind: PipelineKind,
    /// `(script variable, path)`; single-path pipelines use `_value0`.
    pub paths: Vec<(String, BucketsPath)>,
    pub gap: GapPolicy,
}

pub const PIPELINE_TYPES: [&str; 13] = [
    "sum_bucket",
    "avg_bucket",
    "max_bucket",
    "min_bucket",
    "stats_bucket",
    "percentiles_bucket",
    "derivative",
    "cumulative_sum",
    "moving_fn",
    "serial_diff",
    "bucket_script",
    "bucket_selector",
    "bucket_sort",
];

fn allowed_fields(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "percentiles_bucket" => &["buckets_path", "gap_policy", "percents", "keyed"],
        "cumulative_sum" => &["buckets_path"],
        "moving_fn" => &["buckets_path", "gap_policy", "window", "shift", "script"],
        "serial_diff" => &["buckets_path", "gap_policy", "lag"],
        "bucket_script" | "bucket_selector" => &["buckets_path", "gap_policy", "script"],
        "bucket_sort" => &["sort", "from", "size", "gap_policy"],
        _ => &["buckets_path", "gap_policy"],
    }
}

fn validation(reason: String) -> EngineError {
    EngineError::ActionRequestValidation(format!("Validation Failed: 1: {reason};"))
}

pub fn parse(name: &str, type_name: &str, body: &Map<String, Value>) -> Result<PipelineSpec> {
    let allowed = allowed_fields(type_name);
    for key in body.keys() {
        if key == "format" || key == "unit" {
            return Err(EngineError::IllegalArgument(format!(
                "[{type_name}] option [{key}] is not supported by this engine; remove it"
            )));
        }
        if !allowed.contains(&key.as_str()) {
            return Err(EngineError::XContentParse(format!("[{type_name}] unknown field [{key}]")));
        }
    }
    let bad = |key: &str| EngineError::XContentParse(format!("[{type_name}] failed to parse field [{key}]"));
    let gap = match body.get("gap_policy") {
        None => GapPolicy::Skip,
        Some(v) => match v.as_str().ok_or_else(|| bad("gap_policy"))? {
            "skip" => GapPolicy::Skip,
            "insert_zeros" => GapPolicy::InsertZeros,
            other => {
                return Err(EngineError::Parsing(format!(
                    "Invalid gap policy: [{other}], accepted values: [insert_zeros, skip]"
                )))
            }
        },
    };
    let paths = parse_paths(type_name, body.get("buckets_path"))?;
    if type_name != "bucket_sort" && paths.is_empty() {
        return Err(validation(format!("[buckets_path] must be set for aggregation [{name}]")));
    }
    let script = || -> Result<Script> {
        let v =
            body.get("script").ok_or_else(|| validation(format!("[script] must be set for aggregation [{name}]")))?;
        Script::from_json(v)
    };
    let usize_field = |key: &str| -> Result<Option<usize>> {
        body.get(key).map(|v| v.as_u64().map(|n| n as usize).ok_or_else(|| bad(key))).transpose()
    };
    let kind = match type_name {
        "sum_bucket" => PipelineKind::SumBucket,
        "avg_bucket" => PipelineKind::AvgBucket,
        "max_bucket" => PipelineKind::MaxBucket,
        "min_bucket" => PipelineKind::MinBucket,
        "stats_bucket" => PipelineKind::StatsBucket,
        "percentiles_bucket" => {
            let percents = match body.get("percents") {
                None => vec![1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0],
                Some(v) => v
                    .as_array()
                    .ok_or_else(|| bad("percents"))?
                    .iter()
                    .map(|p| p.as_f64().ok_or_else(|| bad("percents")))
                    .collect::<Result<Vec<f64>>>()?,
            };
            if let Some(p) = percents.iter().find(|p| !(0.0..=100.0).contains(*p)) {
                return Err(EngineError::IllegalArgument(format!(
                    "[percents] must only contain values between 0 and 100: [{p}]"
                )));
            }
            let keyed = match body.get("keyed") {
                None => true,
                Some(v) => v.as_bool().ok_or_else(|| bad("keyed"))?,
            };
            PipelineKind::PercentilesBucket { percents, keyed }
        }
        "derivative" => PipelineKind::Derivative,
        "cumulative_sum" => PipelineKind::CumulativeSum,
        "moving_fn" => {
            let window = body
                .get("window")
                .ok_or_else(|| validation(format!("[window] must be set for aggregation [{name}]")))?
                .as_i64()
                .ok_or_else(|| bad("window"))?;
            if window <= 0 {
                return Err(EngineError::IllegalArgument("[window] must be a positive, non-zero integer.".into()));
            }
            let window = window as usize;
            let shift = match body.get("shift") {
                None => 0,
                Some(v) => v.as_i64().ok_or_else(|| bad("shift"))?,
            };
            PipelineKind::MovingFn { window, shift, script: script()? }
        }
        "serial_diff" => {
            let lag = usize_field("lag")?.unwrap_or(1);
            if lag == 0 {
                return Err(EngineError::IllegalArgument("[lag] must be a positive integer: [serial_diff]".into()));
            }
            PipelineKind::SerialDiff { lag }
        }
        "bucket_script" => PipelineKind::BucketScript { script: script()? },
        "bucket_selector" => PipelineKind::BucketSelector { script: script()? },
        "bucket_sort" => {
            let sorts = parse_sorts(body.get("sort")).ok_or_else(|| bad("sort"))?;
            let from = usize_field("from")?.unwrap_or(0);
            let size = usize_field("size")?;
            if sorts.is_empty() && size.is_none() && from == 0 {
                return Err(validation(format!(
                    "[{name}] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort"
                )));
            }
            PipelineKind::BucketSort { sorts, from, size }
        }
        other => unreachable!("{other} is not in PIPELINE_TYPES"),
    };
    if !matches!(type_name, "bucket_script" | "bucket_selector") && paths.len() > 1 {
        return Err(EngineError::IllegalArgument(format!(
            "[buckets_path] must contain a single path for aggregation [{name}]"
        )));
    }
    Ok(PipelineSpec { type_name: type_name.to_string(), kind, paths, gap })
}

fn parse_paths(type_name: &str, v: Option<&Value>) -> Result<Vec<(String, BucketsPath)>> {
    let bad = || EngineError::XContentParse(format!("[{type_name}] failed to parse field [buckets_path]"));
    let one = |i: usize, p: &Value| -> Result<(String, BucketsPath)> {
        Ok((format!("_value{i}"), BucketsPath::parse(p.as_str().ok_or_else(bad)?)?))
    };
    match v {
        None => Ok(Vec::new()),
        Some(Value::String(_)) => Ok(vec![one(0, v.unwrap_or(&Value::Null))?]),
        Some(Value::Array(a)) => a.iter().enumerate().map(|(i, p)| one(i, p)).collect(),
        Some(Value::Object(o)) if matches!(type_name, "bucket_script" | "bucket_selector") => {
            o.iter().map(|(var, p)| Ok((var.clone(), BucketsPath::parse(p.as_str().ok_or_else(bad)?)?))).collect()
        }
        Some(_) => Err(bad()),
    }
}

/// `sort`: a field name, `{field: "desc"}`, `{field: {"order": "desc"}}`, or an array of them.
fn parse_sorts(v: Option<&Value>) -> Option<Vec<(String, bool)>> {
    let one = |s: &Value| -> Option<(String, bool)> {
        match s {
            Value::String(f) => Some((f.clone(), false)),
            Value::Object(o) if o.len() == 1 => {
                let (field, spec) = o.iter().next()?;
                let order = match spec {
                    Value::String(d) => d.as_str(),
                    Value::Object(so) => so.get("order").and_then(Value::as_str).unwrap_or("asc"),
                    _ => return None,
                };
                match order {
                    "asc" => Some((field.clone(), false)),
                    "desc" => Some((field.clone(), true)),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    match v {
        None => Some(Vec::new()),
        Some(Value::Array(a)) => a.iter().map(one).collect(),
        Some(other) => one(other).map(|s| vec![s]),
    }
}
