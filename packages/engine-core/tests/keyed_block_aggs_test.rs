//! Keyword `terms` and numeric `range` with numeric metric sub-aggregations, collected a block
//! at a time (`aggs/collect/keyed_block.rs`): every bucket's count and metrics must be the ones
//! computed here from the documents (a pipeline beside them), with documents missing the bucketing field or a metric's
//! field (and a `missing` value on one metric), on one large segment and on several small ones,
//! and with deletions (the per-document path). Prices are multiples of 0.25, so their sums are
//! exact whatever the order of segments.
mod common;

use std::collections::BTreeMap;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

const DOCS: usize = 20_000;
const STATUSES: [&str; 5] = ["a", "b", "c", "d", "e"];

/// (status, bytes, price) of document `i`; `None` where the field is left out.
fn fields(i: usize) -> (Option<&'static str>, Option<i64>, Option<f64>) {
    let status = (!i.is_multiple_of(11)).then_some(STATUSES[(i * 7) % 5]);
    let bytes = (!i.is_multiple_of(13)).then_some(((i * 37) % 1_000) as i64);
    let price = (!i.is_multiple_of(17)).then_some(((i * 53) % 400) as f64 * 0.25);
    (status, bytes, price)
}

fn indexed(chunk: usize) -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("t", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> = (0..DOCS)
        .map(|i| {
            let (status, bytes, price) = fields(i);
            let mut doc = json!({ "title": "x" });
            if let Some(s) = status {
                doc["status"] = json!(s);
            }
            if let Some(b) = bytes {
                doc["bytes"] = json!(b);
            }
            if let Some(p) = price {
                doc["price"] = json!(p);
            }
            doc
        })
        .collect();
    for (n, part) in docs.chunks(chunk).enumerate() {
        e.bulk(None, &ndjson_from("t", part, n * chunk + 1), RefreshPolicy::Immediate).unwrap();
    }
    (d, e)
}

/// What a bucket's metric sub-aggregations must show: count, bytes (sum, min, max, n), price
/// (sum, n) and price with `missing: 1000` (sum).
#[derive(Default, Debug, PartialEq)]
struct Want {
    count: u64,
    bytes_sum: i64,
    bytes_n: u64,
    bytes_min: Option<i64>,
    bytes_max: Option<i64>,
    price_sum: f64,
    price_n: u64,
    price_or_missing_sum: f64,
}

impl Want {
    fn add(&mut self, bytes: Option<i64>, price: Option<f64>) {
        self.count += 1;
        if let Some(b) = bytes {
            self.bytes_sum += b;
            self.bytes_n += 1;
            self.bytes_min = Some(self.bytes_min.map_or(b, |m| m.min(b)));
            self.bytes_max = Some(self.bytes_max.map_or(b, |m| m.max(b)));
        }
        if let Some(p) = price {
            self.price_sum += p;
            self.price_n += 1;
        }
        self.price_or_missing_sum += price.unwrap_or(1000.0);
    }
}

fn subs() -> Value {
    json!({
        "bytes_stats": {"stats": {"field": "bytes"}},
        "price_sum": {"sum": {"field": "price"}},
        "price_avg": {"avg": {"field": "price"}},
        "price_n": {"value_count": {"field": "price"}},
        "price_or_missing": {"sum": {"field": "price", "missing": 1000}}
    })
}

/// The sub-aggregations and a pipeline over them (pipelines collect nothing; the block path
/// must still take the bucket).
fn with_pipeline(mut subs: Value) -> Value {
    subs["per_doc"] = json!({"bucket_script": {
        "buckets_path": {"total": "price_sum", "docs": "_count"},
        "script": "params.total / params.docs"
    }});
    subs
}

fn got(bucket: &Value) -> Want {
    let stats = &bucket["bytes_stats"];
    let want = Want {
        count: bucket["doc_count"].as_u64().unwrap(),
        bytes_sum: stats["sum"].as_f64().unwrap() as i64,
        bytes_n: stats["count"].as_u64().unwrap(),
        bytes_min: stats["min"].as_f64().map(|v| v as i64),
        bytes_max: stats["max"].as_f64().map(|v| v as i64),
        price_sum: bucket["price_sum"]["value"].as_f64().unwrap(),
        price_n: bucket["price_n"]["value"].as_u64().unwrap(),
        price_or_missing_sum: bucket["price_or_missing"]["value"].as_f64().unwrap(),
    };
    if want.price_n > 0 {
        let avg = bucket["price_avg"]["value"].as_f64().unwrap();
        let mean = want.price_sum / want.price_n as f64;
        assert!((avg - mean).abs() <= mean.abs() * 1e-12, "avg {avg} against {mean}");
    }
    want
}

#[test]
fn terms_and_range_metric_subs_equal_the_documents() {
    // (key, from, to): overlapping ranges, so a document can count in two buckets.
    let ranges = [("low", None, Some(300)), ("mid", Some(200), Some(700)), ("high", Some(700), None)];
    for chunk in [DOCS, 3_000] {
        let (_dir, engine) = indexed(chunk);
        for deleted in [false, true] {
            if deleted {
                // Deleting documents 1..=50 (ids count from 1) sends collection per document.
                let body: String =
                    (1..=50).map(|id| format!("{{\"delete\":{{\"_index\":\"t\",\"_id\":\"{id}\"}}}}\n")).collect();
                engine.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
            }
            let live = |i: usize| !deleted || i >= 50;
            let mut by_status: BTreeMap<String, Want> = BTreeMap::new();
            let mut by_range: BTreeMap<String, Want> = BTreeMap::new();
            for i in (0..DOCS).filter(|&i| live(i)) {
                let (status, bytes, price) = fields(i);
                if let Some(s) = status {
                    by_status.entry(s.to_string()).or_default().add(bytes, price);
                }
                for (key, from, to) in ranges {
                    if bytes.is_some_and(|b| from.is_none_or(|f| b >= f) && to.is_none_or(|t| b < t)) {
                        by_range.entry(key.to_string()).or_default().add(bytes, price);
                    }
                }
            }
            let range_spec: Vec<Value> = ranges
                .iter()
                .map(|(key, from, to)| {
                    let mut r = json!({"key": key});
                    if let Some(f) = from {
                        r["from"] = json!(f);
                    }
                    if let Some(t) = to {
                        r["to"] = json!(t);
                    }
                    r
                })
                .collect();
            let body = json!({"size": 0, "query": {"match_all": {}}, "aggs": {
                "status": {"terms": {"field": "status", "size": 10}, "aggs": with_pipeline(subs())},
                "bands": {"range": {"field": "bytes", "ranges": range_spec}, "aggs": subs()}
            }});
            let found = search(&engine, "t", body);
            let aggs = &found["aggregations"];
            let at = format!("chunk {chunk} deleted {deleted}");
            let terms: BTreeMap<String, Want> = aggs["status"]["buckets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| (b["key"].as_str().unwrap().to_string(), got(b)))
                .collect();
            assert_eq!(terms, by_status, "terms, {at}");
            for bucket in aggs["status"]["buckets"].as_array().unwrap() {
                let per_doc = bucket["price_sum"]["value"].as_f64().unwrap() / bucket["doc_count"].as_f64().unwrap();
                assert_eq!(bucket["per_doc"]["value"], json!(per_doc), "bucket_script, {at}");
            }
            let bands: BTreeMap<String, Want> = aggs["bands"]["buckets"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| b["doc_count"].as_u64() != Some(0))
                .map(|b| (b["key"].as_str().unwrap().to_string(), got(b)))
                .collect();
            assert_eq!(bands, by_range, "range, {at}");
        }
    }
}
