//! Date histograms with sub-aggregations take each run of same-bucket documents at once
//! (`aggs/collect/date_block.rs`): the answers must be the ones computed here from the
//! documents themselves, on segments with a zone map and on segments too small for one, with
//! documents missing the date or the summed field, and with a sub-aggregation the run path
//! cannot take in bulk (terms, collected document by document).
mod common;

use std::collections::BTreeMap;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

const DOCS: i64 = 24_000;
const START_MS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const DAY_MS: i64 = 86_400_000;

/// (timestamp, bytes, price, status) of document `i`; `None` where the field is left out.
fn fields(i: i64) -> (Option<i64>, Option<i64>, Option<f64>, &'static str) {
    // About 2.7 minutes apart, with a shuffled stretch whose blocks straddle many days.
    let step = if (9_000..11_000).contains(&i) { (i * 7_919) % DOCS } else { i };
    let ts = (i % 97 != 0).then_some(START_MS + step * 160_000);
    let bytes = (i % 13 != 0).then_some((i * 37) % 1_000 - 200);
    let price = (i % 7 != 0).then_some(((i * 7_919) % 10_000) as f64 / 100.0);
    (ts, bytes, price, if i % 3 == 0 { "a" } else { "b" })
}

fn indexed(big: bool) -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("h", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> = (0..DOCS)
        .map(|i| {
            let (ts, bytes, price, status) = fields(i);
            let mut doc = json!({ "status": status });
            if let Some(ts) = ts {
                doc["ts"] = json!(ts);
            }
            if let Some(bytes) = bytes {
                doc["bytes"] = json!(bytes);
            }
            if let Some(price) = price {
                doc["price"] = json!(price);
            }
            doc
        })
        .collect();
    // `big`: one bulk, segments with zone maps; else 3,000-doc segments, too small for one.
    let chunk = if big { docs.len() } else { 3_000 };
    for (n, part) in docs.chunks(chunk).enumerate() {
        e.bulk(None, &ndjson_from("h", part, n * chunk + 1), RefreshPolicy::Immediate).unwrap();
    }
    (d, e)
}

/// Per UTC day: (documents, bytes sum, bytes count, min price, max price, documents of "a").
type Day = (u64, i64, u64, f64, f64, u64);

fn expected(only_a: bool) -> BTreeMap<i64, Day> {
    let mut days: BTreeMap<i64, Day> = BTreeMap::new();
    for i in 0..DOCS {
        let (ts, bytes, price, status) = fields(i);
        let Some(ts) = ts else { continue };
        if only_a && status != "a" {
            continue;
        }
        let day = days.entry(ts.div_euclid(DAY_MS) * DAY_MS).or_insert((0, 0, 0, f64::INFINITY, f64::NEG_INFINITY, 0));
        day.0 += 1;
        if let Some(b) = bytes {
            day.1 += b;
            day.2 += 1;
        }
        if let Some(p) = price {
            day.3 = day.3.min(p);
            day.4 = day.4.max(p);
        }
        day.5 += u64::from(status == "a");
    }
    days
}

#[test]
fn daily_sub_aggregations_equal_the_documents() {
    let aggs = json!({"d": {"date_histogram": {"field": "ts", "calendar_interval": "day"}, "aggs": {
        "sum": {"sum": {"field": "bytes"}},
        "count": {"value_count": {"field": "bytes"}},
        "stats": {"stats": {"field": "price"}},
        "status": {"terms": {"field": "status"}}
    }}});
    for big in [true, false] {
        let (_dir, engine) = indexed(big);
        for only_a in [false, true] {
            let query = if only_a { json!({"term": {"status": "a"}}) } else { json!({"match_all": {}}) };
            let body = json!({"size": 0, "query": query, "aggs": aggs});
            let found = search(&engine, "h", body.clone());
            let buckets = found["aggregations"]["d"]["buckets"].as_array().unwrap();
            let want = expected(only_a);
            assert_eq!(buckets.len(), want.len(), "{body}");
            for (bucket, (day, (docs, sum, count, min, max, a))) in buckets.iter().zip(want) {
                let at = format!("big {big} {body} day {day}");
                assert_eq!(bucket["key"], json!(day), "{at}");
                assert_eq!(bucket["doc_count"], json!(docs), "{at}");
                assert_eq!(bucket["sum"]["value"], json!(sum as f64), "{at}");
                assert_eq!(bucket["count"]["value"], json!(count), "{at}");
                assert_eq!(bucket["stats"]["min"], json!(min), "{at}");
                assert_eq!(bucket["stats"]["max"], json!(max), "{at}");
                let status: u64 = bucket["status"]["buckets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|b| b["key"] == "a")
                    .map(|b| b["doc_count"].as_u64().unwrap())
                    .sum();
                assert_eq!(status, a, "{at}");
            }
        }
    }
}
