//! Date histograms over segments large enough for a zone map count whole blocks at once
//! (`aggs/collect/date_block.rs`): the answers must equal those of the same documents in
//! segments too small for one (every value read). Time-ordered timestamps with a shuffled
//! stretch, so some blocks lie in one bucket and some straddle many.
mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

const DOCS: usize = 24_000;
const START_MS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

fn docs() -> Vec<Value> {
    (0..DOCS as i64)
        .map(|i| {
            // About 2.7 minutes apart: a 1,024-doc block spans ~46 hours... of 1-day buckets, most
            // blocks straddle none; a shuffled stretch straddles many.
            let step = if (9_000..11_000).contains(&i) { (i * 7_919) % 24_000 } else { i };
            json!({"ts": START_MS + step * 160_000, "status": if i % 3 == 0 { "a" } else { "b" }})
        })
        .collect()
}

/// `big`: one bulk (segments of several thousand docs, each with a zone map). Otherwise
/// 3,000-doc segments, below the zone map's minimum, so every value is read.
fn indexed(big: bool) -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("h", MAPPING.as_bytes()).unwrap();
    let all = docs();
    let chunk = if big { DOCS } else { 3_000 };
    for (n, part) in all.chunks(chunk).enumerate() {
        let body = ndjson_from("h", part, n * chunk + 1);
        e.bulk(None, &body, RefreshPolicy::Immediate).unwrap();
    }
    (d, e)
}

#[test]
fn block_counts_equal_value_counts() {
    let (_a, big) = indexed(true);
    let (_b, small) = indexed(false);
    let window = json!({"range": {"ts": {"gte": "2026-01-10T05:00:00Z", "lt": "2026-02-10T00:00:00Z"}}});
    let requests = [
        json!({"d": {"date_histogram": {"field": "ts", "calendar_interval": "day"}}}),
        json!({"d": {"date_histogram": {"field": "ts", "calendar_interval": "day", "time_zone": "America/New_York"}}}),
        json!({"d": {"date_histogram": {"field": "ts", "fixed_interval": "90m"}}}),
        json!({"d": {"date_histogram": {"field": "ts", "calendar_interval": "week", "hard_bounds": {"min": "2026-01-15", "max": "2026-02-01"}}}}),
        json!({"d": {"auto_date_histogram": {"field": "ts", "buckets": 10}}}),
        json!({"d": {"auto_date_histogram": {"field": "ts", "buckets": 40}}}),
    ];
    for aggs in requests {
        for query in [json!({"match_all": {}}), window.clone(), json!({"term": {"status": "a"}})] {
            let body = json!({"size": 0, "query": query, "aggs": aggs});
            let (x, y) = (search(&big, "h", body.clone()), search(&small, "h", body.clone()));
            assert_eq!(x["aggregations"], y["aggregations"], "{body}");
            let buckets = x["aggregations"]["d"]["buckets"].as_array().unwrap();
            assert!(buckets.len() > 1, "{body}");
        }
    }
}
