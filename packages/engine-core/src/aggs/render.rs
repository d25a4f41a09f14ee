//! Rendering the merged results as Elasticsearch 8 does: the driver (`render_aggs`: the
//! bucket budget, `top_hits`' searcher, pipelines after the tree), each aggregation through
//! its type (`Aggregation::render`), and what bucket renderers share: a bucket's key,
//! `doc_count` and sub-aggregations (`bucket_json`, `single_bucket`).

use std::cmp::Ordering;

use serde_json::{json, Map, Value};

use super::bucket_budget;
use super::intermediate::{AggFruit, BucketKey, FruitBucket};
use super::metric::top_hits::HitsContext;
use super::request::{AggKind, AggRequest};
use crate::date::format_millis;
use crate::error::{EngineError, Result};
pub(crate) use crate::number::java_double;
use crate::store::mapping::FieldType;

/// Renders the aggregations; `hits` (one context per index rendered) lets `top_hits` read
/// stored documents.
pub fn render_aggs(
    reqs: &[AggRequest],
    fruits: &[AggFruit],
    hits: impl IntoIterator<Item = HitsContext>,
) -> Result<Value> {
    bucket_budget::reset();
    super::metric::top_hits::install(hits);
    let out = render_all(reqs, fruits);
    super::metric::top_hits::install(None);
    out
}

/// `render_aggs` as JSON appended to `out`, with `typed_keys` applied if asked. Pipelines and
/// typed keys rewrite the rendered tree, so with either the tree is built; without them (the
/// common case) every aggregation writes its JSON straight onto `out` (`Aggregation::write_json`).
pub fn write_aggs(
    reqs: &[AggRequest],
    fruits: &[AggFruit],
    hits: impl IntoIterator<Item = HitsContext>,
    typed_keys: bool,
    out: &mut String,
) -> Result<()> {
    if typed_keys || has_pipeline(reqs) {
        let mut rendered = render_aggs(reqs, fruits, hits)?;
        if let (true, Value::Object(level)) = (typed_keys, &mut rendered) {
            super::typed_keys::apply(reqs, level);
        }
        out.push_str(&rendered.to_string());
        return Ok(());
    }
    bucket_budget::reset();
    super::metric::top_hits::install(hits);
    let written = write_all(reqs, fruits, out);
    super::metric::top_hits::install(None);
    written
}

fn has_pipeline(reqs: &[AggRequest]) -> bool {
    reqs.iter().any(|r| matches!(r.kind, AggKind::Pipeline(_)) || has_pipeline(&r.subs))
}

fn write_all(reqs: &[AggRequest], fruits: &[AggFruit], out: &mut String) -> Result<()> {
    crate::aggs::pipeline::validate(reqs, None)?;
    out.push('{');
    for (i, (req, fruit)) in reqs.iter().zip(fruits).enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, &req.name);
        out.push(':');
        match req.meta {
            None => req.kind.aggregation().write_json(req, fruit, out),
            Some(_) => out.push_str(&render_one(req, fruit).to_string()),
        }
        if let Some(n) = bucket_budget::exceeded() {
            return Err(too_many_buckets(n));
        }
    }
    out.push('}');
    Ok(())
}

fn too_many_buckets(n: u64) -> EngineError {
    let max = bucket_budget::limit();
    EngineError::TooManyBuckets {
        reason: format!(
            "Trying to create too many buckets. Must be less than or equal to: [{max}] but was [{n}]. This limit can be set by changing the [search.max_buckets] cluster level setting."
        ),
        max,
    }
}

/// `text` as a JSON string (quoted, escaped as serde_json escapes it).
pub(crate) fn push_json_string(out: &mut String, text: &str) {
    if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        out.push_str(&Value::String(text.to_string()).to_string());
    }
}

fn render_all(reqs: &[AggRequest], fruits: &[AggFruit]) -> Result<Value> {
    crate::aggs::pipeline::validate(reqs, None)?;
    let mut out = Map::new();
    for (req, fruit) in reqs.iter().zip(fruits) {
        out.insert(req.name.clone(), render_one(req, fruit));
        if let Some(n) = bucket_budget::exceeded() {
            return Err(too_many_buckets(n));
        }
    }
    crate::aggs::pipeline::apply(reqs, &mut out)?;
    Ok(Value::Object(out))
}

pub(crate) fn field_type(req: &AggRequest) -> Option<FieldType> {
    req.field.value_type()
}

pub(crate) fn render_one(req: &AggRequest, fruit: &AggFruit) -> Value {
    let mut rendered = req.kind.aggregation().render(req, fruit);
    if let (Some(meta), Value::Object(obj)) = (&req.meta, &mut rendered) {
        obj.insert("meta".into(), (**meta).clone());
    }
    rendered
}

/// A bucket key decoded for sorting and output.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum KeyValue {
    Str(String),
    Int(i64),
    Float(f64),
}

pub(crate) fn decode(key: &BucketKey, ty: Option<FieldType>) -> KeyValue {
    match key {
        BucketKey::Str(s) => KeyValue::Str(s.clone()),
        BucketKey::Num(raw) => match ty {
            Some(t) if t.is_f64() => KeyValue::Float(f64::from_bits(*raw)),
            _ => KeyValue::Int(*raw as i64),
        },
    }
}

pub(crate) fn cmp_keys(a: &KeyValue, b: &KeyValue) -> Ordering {
    match (a, b) {
        (KeyValue::Str(a), KeyValue::Str(b)) => a.cmp(b),
        (KeyValue::Int(a), KeyValue::Int(b)) => a.cmp(b),
        (KeyValue::Float(a), KeyValue::Float(b)) => a.total_cmp(b),
        _ => Ordering::Equal,
    }
}

pub(crate) fn bucket_json(
    req: &AggRequest,
    key: &KeyValue,
    bucket: Option<&FruitBucket>,
    ty: Option<FieldType>,
) -> Value {
    bucket_budget::consume();
    let mut obj = Map::new();
    match key {
        KeyValue::Str(s) if ty == Some(FieldType::Ip) => {
            obj.insert("key".into(), json!(crate::ip::display_key(s)));
        }
        KeyValue::Str(s) => {
            obj.insert("key".into(), json!(s));
        }
        KeyValue::Float(f) => {
            obj.insert("key".into(), json!(f));
        }
        KeyValue::Int(i) => {
            obj.insert("key".into(), json!(i));
            match ty {
                Some(FieldType::Date) => {
                    obj.insert("key_as_string".into(), json!(format_millis(*i)));
                }
                Some(FieldType::Boolean) => {
                    obj.insert("key_as_string".into(), json!(if *i == 1 { "true" } else { "false" }));
                }
                _ if matches!(req.kind, AggKind::DateHistogram { .. }) => {
                    obj.insert("key_as_string".into(), json!(format_millis(*i)));
                }
                _ => {}
            }
        }
    }
    obj.insert("doc_count".into(), json!(bucket.map_or(0, |b| b.count)));
    for (i, sub) in req.subs.iter().enumerate() {
        let value = match bucket.and_then(|b| b.subs.get(i)) {
            Some(fruit) => render_one(sub, fruit),
            None => render_one(sub, &AggFruit::empty(sub)),
        };
        obj.insert(sub.name.clone(), value);
    }
    Value::Object(obj)
}

/// A single-bucket aggregation's body: `doc_count` and the sub-aggregations (`missing`,
/// `global`, `filter`, `nested`, ...; empty ones rendered from empty fruit).
pub(crate) fn single_bucket(req: &AggRequest, bucket: Option<&FruitBucket>) -> Value {
    let mut obj = Map::new();
    obj.insert("doc_count".into(), json!(bucket.map_or(0, |b| b.count)));
    for (i, sub) in req.subs.iter().enumerate() {
        let fruit = bucket.map_or_else(|| AggFruit::empty(sub), |b| b.subs[i].clone());
        obj.insert(sub.name.clone(), render_one(sub, &fruit));
    }
    Value::Object(obj)
}
