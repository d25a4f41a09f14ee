//! date_histogram in time zones with bounds, and auto_date_histogram, through a search over
//! two segments: one doc every three hours around New York's 2026-11-01 DST end.
mod common;

use common::*;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const HOUR_MS: i64 = 3_600_000;
/// 2026-10-30T00:00:00Z
const START_MS: i64 = 1_793_318_400_000;

fn docs(from: i64, to: i64) -> Vec<Value> {
    (from..to).map(|i| json!({"ts": START_MS + i * 3 * HOUR_MS, "bytes": i})).collect()
}

fn indexed() -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    // Two refreshes: two segments, whose buckets merge at render.
    bulk(&e, "logs", &docs(0, 20), true);
    let second: Vec<Value> = docs(20, 40);
    let body: Vec<u8> = second
        .iter()
        .enumerate()
        .flat_map(|(i, doc)| {
            format!("{}\n{}\n", json!({"index": {"_index": "logs", "_id": format!("b{i}")}}), doc).into_bytes()
        })
        .collect();
    e.bulk(None, &body, engine_core::engine::RefreshPolicy::Immediate).unwrap();
    (d, e)
}

fn aggs(e: &Engine, aggs: Value) -> Value {
    search(e, "logs", json!({"size": 0, "aggs": aggs}))["aggregations"].clone()
}

#[test]
fn new_york_days_with_extended_bounds() {
    let (_d, e) = indexed();
    let out = aggs(
        &e,
        json!({"d": {"date_histogram": {"field": "ts", "calendar_interval": "day", "time_zone": "America/New_York",
            "min_doc_count": 0, "extended_bounds": {"min": "2026-10-28", "max": "2026-11-06"}}}}),
    );
    let buckets = out["d"]["buckets"].as_array().unwrap();
    let strings: Vec<&str> = buckets.iter().map(|b| b["key_as_string"].as_str().unwrap()).collect();
    assert_eq!(strings.first(), Some(&"2026-10-28T00:00:00.000-04:00"));
    assert_eq!(strings.last(), Some(&"2026-11-06T00:00:00.000-05:00"));
    assert_eq!(buckets.len(), 10);
    let total: u64 = buckets.iter().map(|b| b["doc_count"].as_u64().unwrap()).sum();
    assert_eq!(total, 40);
    // Nov 1 is 25 hours long: 04:00Z to 05:00Z the next day.
    let nov1 = buckets.iter().position(|b| b["key_as_string"] == "2026-11-01T00:00:00.000-04:00").unwrap();
    assert_eq!(buckets[nov1 + 1]["key"].as_i64().unwrap() - buckets[nov1]["key"].as_i64().unwrap(), 25 * HOUR_MS);
}

#[test]
fn auto_date_histogram_with_sub_aggregations_and_derivative() {
    let (_d, e) = indexed();
    let out = aggs(
        &e,
        json!({"a": {"auto_date_histogram": {"field": "ts", "buckets": 6}, "aggs": {
            "sum": {"sum": {"field": "bytes"}}, "change": {"derivative": {"buckets_path": "sum"}}}}}),
    );
    // 40 docs over 5 days of 3-hour steps: 5 days fit 6 buckets.
    assert_eq!(out["a"]["interval"], "1d");
    let buckets = out["a"]["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 5);
    assert_eq!(buckets[0]["doc_count"], 8);
    assert_eq!(buckets[0]["sum"]["value"], 28.0);
    assert_eq!(buckets[1]["change"]["value"], 64.0);
    // Without sub-aggregations segments coarsen while collecting: same answer.
    let plain = aggs(&e, json!({"a": {"auto_date_histogram": {"field": "ts", "buckets": 6}}}));
    assert_eq!(plain["a"]["interval"], "1d");
    let counts: Vec<u64> =
        plain["a"]["buckets"].as_array().unwrap().iter().map(|b| b["doc_count"].as_u64().unwrap()).collect();
    assert_eq!(counts, [8, 8, 8, 8, 8]);
}

#[test]
fn bounds_out_of_order_are_a_400() {
    let (_d, e) = indexed();
    let body = json!({"size": 0, "aggs": {"d": {"date_histogram": {"field": "ts", "calendar_interval": "day",
        "extended_bounds": {"min": 10, "max": 5}}}}});
    let err = e.search("logs", body.to_string().as_bytes(), &Map::new()).unwrap_err();
    assert_eq!(err.status(), 400);
    assert!(err.to_string().contains("[extended_bounds.min][10] cannot be greater than [extended_bounds.max][5]"));
}
