//! `random_sampler` (Elasticsearch 8.2+; OpenSearch 2.19 has no such aggregation): one
//! bucket of the matching documents, each kept with probability `p`, whose sub-aggregations
//! see only the kept documents and are then scaled back up by `1/p` as ES's
//! `finalizeSampling` does. The sampler's own `doc_count` is the number kept, unscaled.
//!
//! Which documents are kept: ES walks doc ids with geometric skips drawn from a seeded
//! generator. We make an independent Bernoulli choice per document instead: a SplitMix64
//! hash of (seed, shard_seed, segment id, doc id) below `p * 2^64`. That is the same
//! distribution (each doc kept with probability p, independently), and the same seed over
//! the same segments keeps the same documents. Like ES's sample, which is tied to Lucene doc
//! ids, it can change once segments merge.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use serde_json::{json, Map, Value};
use tantivy::{DocId, SegmentReader};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::FruitBucket;
use crate::aggs::options::SamplerSpec;
use crate::aggs::render::{java_double, single_bucket};
use crate::aggs::request::{AggKind, AggRequest, MetricOp};
use crate::error::{EngineError, Result, ShardCause};

const KIND: &str = "random_sampler";

/// ES's `ObjectParser` wraps a setter's rejection: the outer error names the field and the
/// `caused_by` says what was wrong with the value.
fn rejected(field: &str, why: String) -> EngineError {
    EngineError::XContentParseCaused {
        reason: format!("[{KIND}] failed to parse field [{field}]"),
        cause_type: "illegal_argument_exception",
        cause_reason: why,
    }
}

fn int_of(value: &Value) -> Option<i32> {
    let n = value.as_i64().or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))?;
    i32::try_from(n).ok()
}

pub struct RandomSampler;

impl Aggregation for RandomSampler {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let spec = parse(def.name, def.body, def.has_subs())?;
        Ok((AggKind::RandomSampler(Box::new(spec)), FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::RandomSampler(spec), AggFruit::Buckets(b)) => render(req, spec, b.values().next()),
            _ => Value::Null,
        }
    }
}

fn parse(name: &str, body: &Map<String, Value>, has_subs: bool) -> Result<SamplerSpec> {
    let mut probability = None;
    let mut seed = None;
    let mut shard_seed = None;
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[{KIND}] failed to parse field [{key}]"));
        match key.as_str() {
            "probability" => {
                let p =
                    value.as_f64().or_else(|| value.as_str().and_then(|s| s.trim().parse().ok())).ok_or_else(bad)?;
                if p <= 0.0 {
                    return Err(rejected(
                        key,
                        format!("[probability] must be greater than 0.0, was [{}]", java_double(p)),
                    ));
                }
                if p > 0.5 && p != 1.0 {
                    return Err(rejected(
                        key,
                        format!("[probability] must be between 0.0 and 0.5 or exactly 1.0, was [{}]", java_double(p)),
                    ));
                }
                probability = Some(p);
            }
            "seed" => seed = Some(int_of(value).ok_or_else(bad)?),
            "shard_seed" => shard_seed = Some(int_of(value).ok_or_else(bad)?),
            _ => return Err(EngineError::XContentParse(format!("[{KIND}] unknown field [{key}]"))),
        }
    }
    // ES checks these when building the aggregator on the shard, in this order.
    if !has_subs {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("[{KIND}] aggregation [{name}] must have sub-aggregations"),
        ));
    }
    let probability = probability.ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("[{KIND}] aggregation [{name}] must have [probability] set"),
        )
    })?;
    let seed = seed.unwrap_or_else(random_seed);
    Ok(SamplerSpec { probability, seed, shard_seed })
}

/// A fresh seed per request when none is given (ES: `Randomness.get().nextInt()`).
fn random_seed() -> i32 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    RandomState::new().hash_one(nanos) as i32
}

/// ES builds `random_sampler` only at the top level of the request.
pub(crate) fn check_top_level(reqs: &[AggRequest]) -> Result<()> {
    fn nested(reqs: &[AggRequest]) -> Option<&str> {
        reqs.iter().find_map(|r| if is_sampler(&r.kind) { Some(r.name.as_str()) } else { nested(&r.subs) })
    }
    match reqs.iter().find_map(|r| nested(&r.subs)) {
        Some(name) => Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("[{KIND}] aggregation [{name}] cannot have a parent aggregation"),
        )),
        None => Ok(()),
    }
}

fn is_sampler(kind: &AggKind) -> bool {
    matches!(kind, AggKind::RandomSampler(_))
}

/// One segment's keep-or-skip decision for each document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SegSampler {
    /// Keep a doc whose hash is below this; `None` (p = 1) keeps every doc without hashing.
    threshold: Option<u64>,
    salt: u64,
}

impl SegSampler {
    pub(crate) fn open(kind: &AggKind, reader: &SegmentReader) -> Option<SegSampler> {
        let AggKind::RandomSampler(spec) = kind else { return None };
        // p <= 0.5 here, so p * 2^64 fits a u64.
        let threshold = (spec.probability < 1.0).then_some((spec.probability * 18_446_744_073_709_551_616.0) as u64);
        // Doc ids restart in every segment, so the segment's id joins the seed.
        let segment = fnv1a(reader.segment_id().uuid_string().as_bytes());
        let seeds = (spec.seed as u32 as u64) | (spec.shard_seed.map_or(0, |s| s as u32 as u64) << 32);
        Some(SegSampler { threshold, salt: splitmix64(seeds ^ splitmix64(segment)) })
    }

    pub(crate) fn keeps(&self, doc: DocId) -> bool {
        match self.threshold {
            None => true,
            Some(t) => splitmix64(self.salt.wrapping_add((doc as u64).wrapping_mul(GOLDEN_GAMMA))) < t,
        }
    }
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finalizer: consecutive inputs give independent-looking uniform outputs.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash that does not change between Rust releases (std's `DefaultHasher` may).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01B3))
}

/// `{"seed", "shard_seed"?, "probability", "doc_count", ...sub-aggregations}`.
fn render(req: &AggRequest, spec: &SamplerSpec, bucket: Option<&FruitBucket>) -> Value {
    let mut obj = Map::new();
    obj.insert("seed".into(), json!(spec.seed));
    if let Some(shard_seed) = spec.shard_seed {
        obj.insert("shard_seed".into(), json!(shard_seed));
    }
    obj.insert("probability".into(), json!(spec.probability));
    let scaled = bucket.map(|b| {
        let subs = req.subs.iter().zip(&b.subs).map(|(r, f)| scaled_up(r, f, spec.probability)).collect();
        FruitBucket { count: b.count, subs }
    });
    if let Value::Object(rest) = single_bucket(req, scaled.as_ref()) {
        obj.extend(rest);
    }
    Value::Object(obj)
}

/// ES's `SamplingContext.scaleUp` for counts: `Math.round(count * (1 / p))`.
fn scale_count(count: u64, p: f64) -> u64 {
    (count as f64 * (1.0 / p) + 0.5).floor() as u64
}

/// A sub-aggregation's result as ES's `finalizeSampling` leaves it: bucket doc counts,
/// `sum`, `value_count`, and the count/sum (and sum of squares) of `stats`/`extended_stats`
/// scaled by 1/p; `avg`, `min`, `max`, `cardinality`, the percentiles, `top_hits` and
/// `matrix_stats` values as measured on the sample. Nothing changes at p = 1.
fn scaled_up(req: &AggRequest, fruit: &AggFruit, p: f64) -> AggFruit {
    let mut out = fruit.clone();
    if p < 1.0 {
        scale_in_place(req, &mut out, p);
    }
    out
}

fn scale_in_place(req: &AggRequest, fruit: &mut AggFruit, p: f64) {
    match (&req.kind, fruit) {
        (AggKind::Metric { op, .. }, AggFruit::Metric(m)) => match op {
            MetricOp::Sum => m.sum /= p,
            MetricOp::ValueCount => m.count = scale_count(m.count, p),
            MetricOp::Stats | MetricOp::ExtendedStats => {
                m.count = scale_count(m.count, p);
                m.sum /= p;
                if *op == MetricOp::ExtendedStats {
                    m.sum_of_squares /= p;
                }
            }
            MetricOp::Avg | MetricOp::Min | MetricOp::Max => {}
        },
        // Non-keyword cardinality collects buckets, but its value is their number: unscaled.
        (AggKind::Cardinality, _) => {}
        (_, AggFruit::Buckets(buckets)) => {
            for bucket in buckets.values_mut() {
                bucket.count = scale_count(bucket.count, p);
                for (sub_req, sub) in req.subs.iter().zip(bucket.subs.iter_mut()) {
                    scale_in_place(sub_req, sub, p);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(body: Value) -> Result<SamplerSpec> {
        parse("s", body.as_object().unwrap(), true)
    }

    #[test]
    fn probability_bounds_use_es_texts() {
        assert_eq!(spec(json!({"probability": 0.5, "seed": 7})).unwrap().seed, 7);
        assert_eq!(spec(json!({"probability": 1})).unwrap().probability, 1.0);
        let err = spec(json!({"probability": 0.7})).unwrap_err();
        assert_eq!(err.to_string(), "[random_sampler] failed to parse field [probability]");
        let body = err.to_es_body();
        assert_eq!(body["status"], 400);
        assert_eq!(body["error"]["type"], "x_content_parse_exception");
        assert_eq!(body["error"]["caused_by"]["type"], "illegal_argument_exception");
        assert_eq!(
            body["error"]["caused_by"]["reason"],
            "[probability] must be between 0.0 and 0.5 or exactly 1.0, was [0.7]"
        );
        let zero = spec(json!({"probability": 0})).unwrap_err().to_es_body();
        assert_eq!(zero["error"]["caused_by"]["reason"], "[probability] must be greater than 0.0, was [0.0]");
        let two = spec(json!({"probability": 2})).unwrap_err().to_es_body();
        assert_eq!(
            two["error"]["caused_by"]["reason"],
            "[probability] must be between 0.0 and 0.5 or exactly 1.0, was [2.0]"
        );
    }

    #[test]
    fn other_option_errors() {
        let msg = |body: Value, subs: bool| parse("s", body.as_object().unwrap(), subs).unwrap_err().to_string();
        assert_eq!(msg(json!({"probability": 0.1, "x": 1}), true), "[random_sampler] unknown field [x]");
        assert_eq!(
            msg(json!({"probability": 0.1, "seed": "a"}), true),
            "[random_sampler] failed to parse field [seed]"
        );
        assert_eq!(msg(json!({"seed": 1}), true), "[random_sampler] aggregation [s] must have [probability] set");
        assert_eq!(
            msg(json!({"probability": 0.1}), false),
            "[random_sampler] aggregation [s] must have sub-aggregations"
        );
    }

    #[test]
    fn counts_round_like_java() {
        assert_eq!(scale_count(3, 0.5), 6);
        assert_eq!(scale_count(1, 0.3), 3);
        assert_eq!(scale_count(1, 0.4), 3);
        assert_eq!(scale_count(0, 0.1), 0);
    }
}
