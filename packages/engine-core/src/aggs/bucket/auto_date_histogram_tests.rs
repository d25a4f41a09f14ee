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
    let buckets: HashMap<BucketKey, FruitBucket> =
        segment.into_iter().map(|(raw, count)| (BucketKey::Num(raw), FruitBucket { count, subs: vec![] })).collect();
    render_merged(spec, &buckets)
}

/// Renders merged buckets as the aggregation `a` on field `t`.
fn render_merged(spec: &AutoDateSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    let req = AggRequest {
        name: "a".into(),
        kind: AggKind::AutoDateHistogram(Box::new(spec.clone())),
        field: crate::aggs::request::AggField { name: "t".into(), resolved: None },
        subs: vec![],
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
