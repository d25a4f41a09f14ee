//! `auto_date_histogram`: at most `buckets` buckets, the interval picked from ES's ladder
//! (seconds 1/5/10/30, minutes 1/5/10/30, hours 1/3/12, days 1/7, months 1/3, years
//! 1/5/10/20/50/100). Each segment collects like ES's `FromSingle` collector, moving to a
//! coarser rung when the buckets no longer fit (only without sub-aggregations, whose states
//! cannot be merged mid-collection; with them it stays at the finest rung). Rendering
//! replays the rest on the merged buckets: the shard's rung over all segments, then
//! `InternalAutoDateHistogram`'s final reduce (empty buckets, merging, and grouping
//! consecutive buckets into an inner interval such as `3h`).

use std::cell::Cell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::auto_date_ladder::{decode, encode, Ladder, Merged, LADDER};
use super::date_histogram::{date_bucket_json, parse_key_style, parse_zone};
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket_budget;
use crate::aggs::bucket_budget::MAX_BUCKETS;
use crate::aggs::collect::key_hasher::KeyMap;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::{BucketKey, FruitBucket};
use crate::aggs::options::AutoDateSpec;
use crate::aggs::request::{AggKind, AggRequest};
use crate::date::rounding::{KeyFormat, KeyStyle};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

/// One segment's collection state (ES `AutoDateHistogramAggregator.FromSingle`).
pub(crate) struct AutoCollect {
    ladder: Ladder<'static>,
    rung: Cell<usize>,
    /// Smallest and largest bucket key created so far.
    span: Cell<(i64, i64)>,
    /// The current bucket [start, end): consecutive docs usually share it.
    last: Cell<(i64, i64)>,
    can_coarsen: bool,
}

impl AutoCollect {
    pub(crate) fn new(spec: &AutoDateSpec, has_subs: bool) -> AutoCollect {
        AutoCollect {
            ladder: spec.ladder(),
            rung: Cell::new(0),
            span: Cell::new((i64::MAX, i64::MIN)),
            last: Cell::new((i64::MAX, i64::MIN)),
            can_coarsen: !has_subs,
        }
    }

    pub(crate) fn push_key(&self, ms: i64, keys: &mut Vec<u64>) {
        keys.push(self.bucket(ms).0);
    }

    /// The collected key of `ms` at the current rung, and its bucket's [start, end).
    pub(crate) fn bucket(&self, ms: i64) -> (u64, i64, i64) {
        let rung = self.rung.get();
        let (start, end) = self.last.get();
        if ms >= start && ms < end {
            return (encode(start, rung), start, end);
        }
        let rounding = self.ladder.rounding(rung);
        let start = rounding.round(ms);
        let end = rounding.next(start);
        self.last.set((start, end));
        (encode(start, rung), start, end)
    }

    /// After a doc created bucket `raw`: when the bucket count or the span since the first
    /// bucket no longer fits the rung, re-key every bucket at coarser rungs until they do.
    pub(crate) fn bucket_created<V>(&self, raw: u64, buckets: &mut KeyMap<V>, merge: impl Fn(&mut V, V)) {
        let mut rung = self.rung.get();
        if !self.can_coarsen || rung >= self.ladder.last() {
            return;
        }
        let (key, _) = decode(raw);
        let (min, max) = self.span.get();
        let (min, max) = (min.min(key), max.max(key));
        self.span.set((min, max));
        let fits =
            |rung: usize, count: usize| self.ladder.fits_count(rung, count) && self.ladder.fits_span(rung, max - min);
        if fits(rung, buckets.len()) {
            return;
        }
        loop {
            rung += 1;
            let rounding = self.ladder.rounding(rung);
            for (old, value) in std::mem::take(buckets) {
                match buckets.entry(encode(rounding.round(decode(old).0), rung)) {
                    Entry::Occupied(mut e) => merge(e.get_mut(), value),
                    Entry::Vacant(e) => {
                        e.insert(value);
                    }
                }
            }
            if rung >= self.ladder.last() || fits(rung, buckets.len()) {
                break;
            }
        }
        self.rung.set(rung);
        self.last.set((i64::MAX, i64::MIN));
    }
}

pub struct AutoDateHistogram;

impl Aggregation for AutoDateHistogram {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let (kind, field) = parse(def.name, def.body)?;
        Ok((kind, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty == FieldType::Date || ty.is_i64() || ty.is_f64()
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::AutoDateHistogram(spec), AggFruit::Buckets(buckets)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render(req, spec, buckets)
    }
}

/// `auto_date_histogram` -> (kind, field name).
fn parse(name: &str, body: &Map<String, Value>) -> Result<(AggKind, String)> {
    const KIND: &str = "auto_date_histogram";
    let mut field = None;
    let mut target = 10usize;
    let mut first_rung = 0;
    let mut zone = DateZone::Utc;
    let mut style = KeyStyle::Iso;
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[{KIND}] failed to parse field [{key}]"));
        match key.as_str() {
            "field" => field = Some(value.as_str().ok_or_else(bad)?.to_string()),
            "buckets" => target = value.as_i64().filter(|n| *n > 0).ok_or_else(bad)? as usize,
            "minimum_interval" => {
                if !value.is_null() {
                    let text = value.as_str().ok_or_else(bad)?;
                    first_rung = LADDER.iter().position(|r| r.name == text).ok_or_else(bad)?;
                }
            }
            "time_zone" => zone = parse_zone(KIND, value)?,
            "format" => style = parse_key_style(KIND, value)?.1,
            _ => return Err(EngineError::XContentParse(format!("[{KIND}] unknown field [{key}]"))),
        }
    }
    let field = field.ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        )
    })?;
    // ES keeps the finest rung's buckets below search.max_buckets: the largest inner
    // interval below years is 30.
    let ceiling = (MAX_BUCKETS / 30) as usize;
    if target > ceiling {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("buckets must be less than {ceiling}")));
    }
    let spec = AutoDateSpec { target, first_rung, key_format: KeyFormat { zone, style } };
    Ok((AggKind::AutoDateHistogram(Box::new(spec)), field))
}

fn render(req: &AggRequest, spec: &AutoDateSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    let ladder = spec.ladder();
    let mut collected: Vec<(i64, usize, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Num(raw) => Some((decode(*raw).0, decode(*raw).1, b)),
            BucketKey::Str(_) => None,
        })
        .collect();
    collected.sort_by_key(|(k, _, _)| *k);
    // Segments may have coarsened to different rungs: the shard continues from the coarsest.
    let start = collected.iter().map(|(_, rung, _)| *rung).max().unwrap_or(0);
    let merged: Vec<Merged> =
        collected.into_iter().map(|(key, _, b)| Merged { key, count: b.count, subs: Some(b.subs.clone()) }).collect();
    let merged = ladder.merge_to(start, merged);
    let keys: Vec<i64> = merged.iter().map(|b| b.key).collect();
    let shard_idx = ladder.shard_rung(start, &keys);
    let merged = ladder.merge_to(shard_idx, merged);
    let (idx, merged) = ladder.merge_if_needed(shard_idx, merged);
    let (idx, merged) = ladder.add_empty(idx, merged);
    let (idx, merged) = ladder.merge_if_needed(idx, merged);
    let (inner, merged) = ladder.merge_consecutive(idx, merged);
    let mut rendered = Vec::with_capacity(merged.len());
    for b in merged {
        let bucket = b.subs.map(|subs| FruitBucket { count: b.count, subs });
        let empty = FruitBucket { count: 0, subs: req.subs.iter().map(AggFruit::empty).collect() };
        rendered.push(date_bucket_json(req, &spec.key_format, b.key, Some(bucket.as_ref().unwrap_or(&empty))));
        if bucket_budget::exceeded().is_some() {
            break;
        }
    }
    json!({ "buckets": rendered, "interval": format!("{inner}{}", ladder.rungs[idx].abbreviation) })
}

#[cfg(test)]
mod tests {
    //! Tests of `auto_date_histogram.rs`: the rounding ladder, the interval choice and the segment merge.

    use super::*;
    use crate::aggs::options::AutoDateSpec;
    use crate::date::{parse_date_str, DEFAULT_FORMATS};

    fn ms(s: &str) -> i64 {
        parse_date_str(s, &DEFAULT_FORMATS).unwrap()
    }

    fn spec(body: Value) -> AutoDateSpec {
        match parse("a", body.as_object().unwrap()).unwrap().0 {
            AggKind::AutoDateHistogram(s) => *s,
            _ => unreachable!(),
        }
    }

    /// Renders docs at the given instants, collected as one segment without sub-aggregations.
    fn run(spec: &AutoDateSpec, docs: &[i64]) -> Value {
        let collect = AutoCollect::new(spec, false);
        let mut segment: KeyMap<u64> = KeyMap::default();
        let mut keys = Vec::new();
        for d in docs {
            keys.clear();
            collect.push_key(*d, &mut keys);
            let created = !segment.contains_key(&keys[0]);
            *segment.entry(keys[0]).or_insert(0) += 1;
            if created {
                collect.bucket_created(keys[0], &mut segment, |a, b| *a += b);
            }
        }
        let buckets: HashMap<BucketKey, FruitBucket> = segment
            .into_iter()
            .map(|(raw, count)| (BucketKey::Num(raw), FruitBucket { count, subs: vec![] }))
            .collect();
        render_merged(spec, &buckets)
    }

    /// Renders merged buckets as the aggregation `a` on field `t`.
    fn render_merged(spec: &AutoDateSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
        let req = AggRequest {
            name: "a".into(),
            kind: AggKind::AutoDateHistogram(Box::new(spec.clone())),
            field: crate::aggs::request::AggField::named("t"),
            subs: vec![],
            meta: None,
        };
        bucket_budget::reset();
        render(&req, spec, buckets)
    }

    /// One doc a minute over `hours` hours from `start`.
    fn every_minute(start: &str, hours: i64) -> Vec<i64> {
        let t0 = ms(start);
        (0..hours * 60).map(|i| t0 + i * 60_000).collect()
    }

    #[test]
    fn picks_the_inner_interval_of_the_right_rung() {
        let two_days = every_minute("2026-01-01T00:00:00Z", 48);
        let out = run(&spec(json!({"field": "t", "buckets": 10})), &two_days);
        // 48 hourly buckets: 3h would still give 16, 12h gives 4.
        assert_eq!(out["interval"], "12h");
        assert_eq!(out["buckets"].as_array().unwrap().len(), 4);
        assert_eq!(out["buckets"][0]["doc_count"], 720);
        let out = run(&spec(json!({"field": "t", "buckets": 20})), &two_days);
        assert_eq!(out["interval"], "3h");
        assert_eq!(out["buckets"].as_array().unwrap().len(), 16);
        let six_hours = every_minute("2026-01-01T00:00:00Z", 6);
        let out = run(&spec(json!({"field": "t", "buckets": 20})), &six_hours);
        assert_eq!(out["interval"], "30m");
        assert_eq!(out["buckets"].as_array().unwrap().len(), 12);
    }

    #[test]
    fn ten_days_into_five_buckets_uses_weeks_of_days() {
        let ten_days = every_minute("2026-01-01T06:00:00Z", 240);
        let out = run(&spec(json!({"field": "t", "buckets": 5})), &ten_days);
        assert_eq!(out["interval"], "7d");
        let keys: Vec<&str> =
            out["buckets"].as_array().unwrap().iter().map(|b| b["key_as_string"].as_str().unwrap()).collect();
        // Groups of 7 days start at the first day's bucket, not at a week boundary.
        assert_eq!(keys, ["2026-01-01T00:00:00.000Z", "2026-01-08T00:00:00.000Z"]);
    }

    #[test]
    fn empty_and_zoned() {
        let out = run(&spec(json!({"field": "t"})), &[]);
        assert_eq!(out, json!({"buckets": [], "interval": "1s"}));
        let out = run(&spec(json!({"field": "t", "minimum_interval": "day"})), &[]);
        assert_eq!(out["interval"], "1d");
        let s = spec(json!({"field": "t", "buckets": 3, "time_zone": "Asia/Kolkata"}));
        let out = run(&s, &every_minute("2026-01-01T00:00:00Z", 48));
        assert_eq!(out["interval"], "1d");
        assert_eq!(out["buckets"][0]["key_as_string"], "2026-01-01T00:00:00.000+05:30");
        assert_eq!(out["buckets"][0]["doc_count"], 1110); // 05:30 to midnight IST
    }

    #[test]
    fn segments_that_coarsened_differently_merge() {
        let s = spec(json!({"field": "t", "buckets": 10}));
        // A segment still at seconds and one already at hours, for the same two days.
        let docs = every_minute("2026-01-01T00:00:00Z", 48);
        let mut buckets: HashMap<BucketKey, FruitBucket> = HashMap::new();
        let hours = s.ladder().rounding(2);
        for (i, d) in docs.iter().enumerate() {
            let raw = if i % 2 == 0 { encode(*d, 0) } else { encode(hours.round(*d), 2) };
            buckets.entry(BucketKey::Num(raw)).or_insert(FruitBucket { count: 0, subs: vec![] }).count += 1;
        }
        let out = render_merged(&s, &buckets);
        assert_eq!(out["interval"], "12h");
        assert_eq!(out["buckets"][0]["doc_count"], 720);
    }

    #[test]
    fn rejects_bad_options() {
        let bad = |body: Value| parse("a", body.as_object().unwrap()).unwrap_err().to_string();
        assert!(bad(json!({"field": "t", "buckets": 0})).contains("failed to parse field [buckets]"));
        assert!(bad(json!({"field": "t", "minimum_interval": "week"})).contains("[minimum_interval]"));
        assert_eq!(bad(json!({"field": "t", "buckets": 5000})), "buckets must be less than 2184");
    }
}
