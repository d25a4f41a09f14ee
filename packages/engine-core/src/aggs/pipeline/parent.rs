//! Parent pipelines: run over the buckets of the multi-bucket aggregation they sit in,
//! adding a value to each bucket (derivative, cumulative_sum, moving_fn, serial_diff,
//! bucket_script) or dropping and reordering buckets (bucket_selector, bucket_sort).

use std::cmp::Ordering;
use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::spec::{GapPolicy, PipelineKind, PipelineSpec};
use super::values::{bucket_value, simple_value};
use crate::error::{EngineError, Result, ShardCause};
use crate::script::Val;

fn obj(b: &mut Value) -> &mut Map<String, Value> {
    if !b.is_object() {
        *b = Value::Object(Map::new());
    }
    b.as_object_mut().expect("made an object above")
}

fn set(b: &mut Value, name: &str, v: Option<f64>) {
    let o = obj(b);
    match v {
        Some(v) => {
            o.insert(name.to_string(), simple_value(v));
        }
        None => {
            o.remove(name);
        }
    }
}

fn input(b: &Value, spec: &PipelineSpec, gap: GapPolicy) -> Result<Option<f64>> {
    let empty = Map::new();
    bucket_value(b.as_object().unwrap_or(&empty), &spec.paths[0].1, gap)
}

/// Script variables from `buckets_path`; a variable whose aggregation is absent is NaN.
fn vars(b: &Value, spec: &PipelineSpec) -> Result<Vec<(String, f64)>> {
    let empty = Map::new();
    spec.paths
        .iter()
        .map(|(var, path)| {
            Ok((var.clone(), bucket_value(b.as_object().unwrap_or(&empty), path, spec.gap)?.unwrap_or(f64::NAN)))
        })
        .collect()
}

fn script_number(name: &str, v: Val) -> Result<Option<f64>> {
    match v {
        Val::Int(i) => Ok(Some(i as f64)),
        Val::Num(n) => Ok(Some(n)),
        Val::Null => Ok(None),
        Val::Bool(_) => Err(EngineError::shard(
            ShardCause::Script,
            format!("bucket_script aggregation [{name}] must return a Number, got a Boolean"),
        )),
    }
}

pub fn run(name: &str, spec: &PipelineSpec, buckets: &mut Vec<Value>) -> Result<()> {
    match &spec.kind {
        PipelineKind::Derivative => {
            let mut last: Option<f64> = None;
            for b in buckets.iter_mut() {
                let this = input(b, spec, spec.gap)?;
                // A gap under `skip` is NaN, so the derivative next to it renders as null.
                set(b, name, last.zip(this).map(|(l, t)| t - l));
                last = this;
            }
        }
        PipelineKind::CumulativeSum => {
            let mut sum = 0.0;
            for b in buckets.iter_mut() {
                let v = input(b, spec, GapPolicy::InsertZeros)?.unwrap_or(f64::NAN);
                if v.is_finite() {
                    sum += v;
                }
                set(b, name, Some(sum));
            }
        }
        PipelineKind::SerialDiff { lag } => {
            let mut window: VecDeque<f64> = VecDeque::with_capacity(*lag);
            for (i, b) in buckets.iter_mut().enumerate() {
                let this = input(b, spec, spec.gap)?.unwrap_or(f64::NAN);
                let lagged = if i < *lag { f64::NAN } else { *window.front().unwrap_or(&f64::NAN) };
                set(b, name, (!this.is_nan() && !lagged.is_nan()).then_some(this - lagged));
                if window.len() == *lag {
                    window.pop_front();
                }
                window.push_back(this);
            }
        }
        PipelineKind::MovingFn { window, shift, script } => {
            let series: Vec<f64> = buckets
                .iter()
                .map(|b| input(b, spec, spec.gap))
                .collect::<Result<Vec<Option<f64>>>>()?
                .into_iter()
                .flatten()
                .filter(|v| !v.is_nan())
                .collect();
            let clamp = |i: i64| i.clamp(0, series.len() as i64) as usize;
            let mut index = 0i64;
            for b in buckets.iter_mut() {
                let this = input(b, spec, spec.gap)?.unwrap_or(f64::NAN);
                if this.is_nan() {
                    set(b, name, None);
                    continue;
                }
                let (from, to) = (clamp(index - *window as i64 + shift), clamp(index + shift));
                let out = script.run(&[], Some(&series[from..to.max(from)]))?;
                set(b, name, Some(script_number(name, out)?.unwrap_or(f64::NAN)));
                index += 1;
            }
        }
        PipelineKind::BucketScript { script } => {
            for b in buckets.iter_mut() {
                let vars = vars(b, spec)?;
                if spec.gap == GapPolicy::Skip && vars.iter().any(|(_, v)| v.is_nan()) {
                    set(b, name, None);
                    continue;
                }
                let out = script_number(name, script.run(&vars, None)?)?;
                set(b, name, out);
            }
        }
        PipelineKind::BucketSelector { script } => {
            let mut kept = Vec::with_capacity(buckets.len());
            for mut b in buckets.drain(..) {
                let vars = vars(&b, spec)?;
                match script.run(&vars, None)? {
                    Val::Bool(true) => {
                        set(&mut b, name, None);
                        kept.push(b);
                    }
                    Val::Bool(false) => {}
                    _ => {
                        return Err(EngineError::shard(
                            ShardCause::Script,
                            format!("bucket_selector aggregation [{name}] must return a boolean"),
                        ))
                    }
                }
            }
            *buckets = kept;
        }
        PipelineKind::BucketSort { sorts, from, size } => {
            for b in buckets.iter_mut() {
                set(b, name, None);
            }
            sort_buckets(spec, sorts, *from, *size, buckets)?;
        }
        _ => unreachable!("only parent kinds reach here"),
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum SortValue {
    Num(f64),
    Str(String),
}

fn cmp_values(a: &SortValue, b: &SortValue) -> Ordering {
    match (a, b) {
        (SortValue::Num(x), SortValue::Num(y)) => x.total_cmp(y),
        (SortValue::Str(x), SortValue::Str(y)) => x.cmp(y),
        (SortValue::Num(_), SortValue::Str(_)) => Ordering::Less,
        (SortValue::Str(_), SortValue::Num(_)) => Ordering::Greater,
    }
}

fn sort_buckets(
    spec: &PipelineSpec,
    sorts: &[(String, bool)],
    from: usize,
    size: Option<usize>,
    buckets: &mut Vec<Value>,
) -> Result<()> {
    let len = buckets.len();
    let size = size.unwrap_or(len);
    if from >= len {
        buckets.clear();
        return Ok(());
    }
    if sorts.is_empty() {
        buckets.truncate(from.saturating_add(size).min(len));
        buckets.drain(..from);
        return Ok(());
    }
    let paths: Vec<Option<super::path::BucketsPath>> = sorts
        .iter()
        .map(|(f, _)| if f == "_key" { Ok(None) } else { super::path::BucketsPath::parse(f).map(Some) })
        .collect::<Result<_>>()?;
    let empty = Map::new();
    let mut keyed: Vec<(Vec<Option<SortValue>>, Value)> = Vec::with_capacity(len);
    for b in buckets.drain(..) {
        let o = b.as_object().unwrap_or(&empty);
        let mut values = Vec::with_capacity(sorts.len());
        for path in &paths {
            values.push(match path {
                None => match o.get("key") {
                    Some(Value::Number(n)) => Some(SortValue::Num(n.as_f64().unwrap_or(f64::NAN))),
                    Some(Value::String(s)) => Some(SortValue::Str(s.clone())),
                    _ => None,
                },
                Some(p) => bucket_value(o, p, spec.gap)?.filter(|v| !v.is_nan()).map(SortValue::Num),
            });
        }
        // ES drops a bucket whose every sort value is a skipped gap.
        if values.iter().any(Option::is_some) {
            keyed.push((values, b));
        }
    }
    // Stable, like Java's Collections.sort; a missing value sorts last in either direction.
    keyed.sort_by(|(a, _), (b, _)| {
        for (i, (_, desc)) in sorts.iter().enumerate() {
            let ord = match (&a[i], &b[i]) {
                (None, None) => continue,
                (None, Some(_)) => return Ordering::Greater,
                (Some(_), None) => return Ordering::Less,
                (Some(x), Some(y)) => {
                    let o = cmp_values(x, y);
                    if *desc {
                        o.reverse()
                    } else {
                        o
                    }
                }
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    });
    *buckets = keyed.into_iter().skip(from).take(size).map(|(_, b)| b).collect();
    Ok(())
}
