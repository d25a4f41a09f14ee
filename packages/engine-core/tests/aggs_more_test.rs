//! stats, extended_stats, cardinality, missing, histogram and range on the ten sample docs
//! (bytes 100..1000, price 1.5 * i, status "error" on 3/6/9) plus one doc without numbers.
mod common;

use common::*;
use serde_json::{json, Value};

fn aggs(aggs: Value) -> Value {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    let mut docs = sample_docs();
    docs.push(json!({"title": "no numbers", "status": "warn"}));
    bulk(&e, "logs", &docs, true);
    search(&e, "logs", json!({"size": 0, "aggs": aggs}))["aggregations"].clone()
}

#[test]
fn stats_and_extended_stats() {
    let out = aggs(json!({"s": {"stats": {"field": "bytes"}}, "x": {"extended_stats": {"field": "bytes"}}}));
    assert_eq!(out["s"], json!({"count": 10, "min": 100.0, "max": 1000.0, "avg": 550.0, "sum": 5500.0}));
    // Population variance of 100..1000 step 100 is 82500.
    assert_eq!(out["x"]["variance"], 82500.0);
    assert_eq!(out["x"]["sum_of_squares"], 3_850_000.0);
    let sampling = out["x"]["variance_sampling"].as_f64().unwrap();
    assert!((sampling - 91_666.666_666).abs() < 1e-3, "{sampling}");
    let upper = out["x"]["std_deviation_bounds"]["upper"].as_f64().unwrap();
    assert!((upper - (550.0 + 2.0 * 82500f64.sqrt())).abs() < 1e-9);
}

#[test]
fn empty_stats_are_null_like_elasticsearch() {
    let out = aggs(json!({"s": {"extended_stats": {"field": "nope"}}}));
    assert_eq!(out["s"]["count"], 0);
    assert_eq!(out["s"]["sum"], 0.0);
    assert_eq!(out["s"]["avg"], Value::Null);
    assert_eq!(out["s"]["std_deviation_bounds"]["upper"], Value::Null);
}

#[test]
fn cardinality_and_missing() {
    let out = aggs(json!({
        "c": {"cardinality": {"field": "status"}},
        "m": {"missing": {"field": "bytes"}, "aggs": {"by": {"terms": {"field": "status"}}}}
    }));
    assert_eq!(out["c"]["value"], 3);
    assert_eq!(out["m"]["doc_count"], 1);
    assert_eq!(out["m"]["by"]["buckets"][0]["key"], "warn");
}

#[test]
fn numeric_histogram_fills_gaps_and_range_buckets_overlap() {
    let out = aggs(json!({
        "h": {"histogram": {"field": "bytes", "interval": 400}},
        "r": {"range": {"field": "price", "ranges": [{"to": 3}, {"from": 1.5, "to": 7.5}, {"key": "top", "from": 12}]}}
    }));
    let keys: Vec<_> = out["h"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_f64().unwrap()).collect();
    assert_eq!(keys, [0.0, 400.0, 800.0]);
    let counts: Vec<_> = out["h"]["buckets"].as_array().unwrap().iter().map(|b| b["doc_count"].clone()).collect();
    assert_eq!(counts, [3, 4, 3]);
    let r = &out["r"]["buckets"];
    assert_eq!((r[0]["key"].clone(), r[0]["doc_count"].clone()), (json!("*-3.0"), json!(1)));
    assert_eq!((r[1]["key"].clone(), r[1]["doc_count"].clone()), (json!("1.5-7.5"), json!(4)));
    assert_eq!(
        (r[2]["key"].clone(), r[2]["from"].clone(), r[2]["doc_count"].clone()),
        (json!("top"), json!(12.0), json!(3))
    );
}

#[test]
fn bad_histogram_and_range_requests_fail() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    for body in [
        json!({"aggs": {"h": {"histogram": {"field": "bytes"}}}}),
        json!({"aggs": {"h": {"histogram": {"field": "status", "interval": 1}}}}),
        json!({"aggs": {"r": {"range": {"field": "bytes", "ranges": [{"from": "x"}]}}}}),
        json!({"aggs": {"c": {"cardinality": {"field": "status"}, "aggs": {"x": {"max": {"field": "bytes"}}}}}}),
    ] {
        assert!(e.search("logs", body.to_string().as_bytes(), &Default::default()).is_err(), "{body}");
    }
}

#[test]
fn range_buckets_sort_by_bounds_and_date_range_formats_keys() {
    let out = aggs(json!({
        "r": {"range": {"field": "bytes", "ranges": [{"from": 500}, {"to": 500}]}},
        "d": {"date_range": {"field": "ts", "ranges": [{"from": "2024-03-01", "to": "2024-01||+4M"}]}},
        "f": {"date_range": {"field": "ts", "format": "yyyy-MM", "ranges": [{"to": "2024-02"}]}}
    }));
    assert_eq!(out["r"]["buckets"][0]["key"], "*-500.0");
    assert_eq!(out["r"]["buckets"][1]["doc_count"], 6);
    let d = &out["d"]["buckets"][0];
    assert_eq!(d["key"], "2024-03-01T00:00:00.000Z-2024-05-01T00:00:00.000Z");
    assert_eq!(d["from_as_string"], "2024-03-01T00:00:00.000Z");
    assert_eq!(d["doc_count"], 4); // March (i = 7, 8, 9) and April (i = 10)
    assert_eq!(out["f"]["buckets"][0]["key"], "*-2024-02");
    assert_eq!(out["f"]["buckets"][0]["doc_count"], 3);
}

#[test]
fn more_than_max_buckets_fails_like_elasticsearch() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    // 1 ms buckets between the first and last sample date: millions, never materialised.
    let body = json!({"size": 0, "aggs": {"h": {"date_histogram": {"field": "ts", "fixed_interval": "1ms"}}}});
    let err = e.search("logs", body.to_string().as_bytes(), &Default::default()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 503));
    assert_eq!(err.to_es_body()["error"]["caused_by"]["type"], "too_many_buckets_exception");
    let ok = json!({"size": 0, "aggs": {"h": {"histogram": {"field": "bytes", "interval": 1}}}});
    let resp = search(&e, "logs", ok); // 901 buckets: under the limit
    assert_eq!(resp["aggregations"]["h"]["buckets"].as_array().unwrap().len(), 901);
}

#[test]
fn filter_and_filters_buckets_by_query() {
    let out = aggs(json!({
        "f": {"filter": {"term": {"status": "error"}}, "aggs": {"b": {"sum": {"field": "bytes"}}}},
        "k": {"filters": {"filters": {"z_ok": {"term": {"status": "ok"}}, "cheap": {"range": {"price": {"lt": 5}}}}}},
        "l": {"filters": {"filters": [{"match": {"title": "fox"}}, {"match_all": {}}]}},
        "t": {"terms": {"field": "status"}, "aggs": {"big": {"filter": {"range": {"bytes": {"gte": 500}}}}}}
    }));
    assert_eq!(out["f"]["doc_count"], 3);
    assert_eq!(out["f"]["b"]["value"], 1800.0); // 300 + 600 + 900
    assert_eq!(out["k"]["buckets"]["z_ok"]["doc_count"], 7);
    assert_eq!(out["k"]["buckets"]["cheap"]["doc_count"], 3); // price 1.5, 3.0, 4.5
    assert_eq!(out["l"]["buckets"][0]["doc_count"], 5);
    assert_eq!(out["l"]["buckets"][1]["doc_count"], 11);
    // ok: ids 1 2 4 5 7 8 10 -> bytes >= 500 for 5 7 8 10; error: 3 6 9 -> 6 9.
    assert_eq!(out["t"]["buckets"][0]["big"]["doc_count"], 4);
    assert_eq!(out["t"]["buckets"][1]["big"]["doc_count"], 2);
}

#[test]
fn filters_other_bucket_holds_the_unmatched_docs() {
    // 11 docs: status ok 7, error 3, warn 1. "error" and "warn" fall in the other bucket.
    let out = aggs(json!({
        "k": {"filters": {"other_bucket": true, "filters": {"ok": {"term": {"status": "ok"}}}}},
        "named": {"filters": {"other_bucket_key": "rest", "filters": {"ok": {"term": {"status": "ok"}}}}},
        "a": {"filters": {"other_bucket": true, "filters": [{"term": {"status": "ok"}}, {"term": {"status": "error"}}]},
              "aggs": {"b": {"sum": {"field": "bytes"}}}},
        "off": {"filters": {"other_bucket": false, "other_bucket_key": "x", "filters": [{"term": {"status": "ok"}}]}}
    }));
    assert_eq!(out["k"]["buckets"]["_other_"]["doc_count"], 4);
    assert_eq!(out["named"]["buckets"]["rest"]["doc_count"], 4);
    assert_eq!(out["named"]["buckets"].as_object().unwrap().len(), 2);
    // Anonymous filters: the other bucket comes last, with its sub-aggregations.
    let anon = out["a"]["buckets"].as_array().unwrap();
    assert_eq!(anon.len(), 3);
    assert_eq!(anon[2]["doc_count"], 1);
    assert_eq!(anon[2]["b"]["value"], 0.0, "the warn doc has no bytes");
    // An explicit `other_bucket: false` wins over a key.
    assert_eq!(out["off"]["buckets"].as_array().unwrap().len(), 1);
}

#[test]
fn keyword_cardinality_is_exact_across_segments() {
    let (_dir, engine) = common::engine();
    engine.create_index("c", common::MAPPING.as_bytes()).unwrap();
    // Three segments with overlapping values; the middle one never has `status` at all.
    let batch = |range: std::ops::Range<usize>, with_status: bool| {
        let mut body = String::new();
        for i in range {
            body.push_str(&json!({"index": {"_index": "c", "_id": i.to_string()}}).to_string());
            body.push('\n');
            let doc =
                if with_status { json!({"status": format!("v{}", i % 700), "bytes": i}) } else { json!({"bytes": i}) };
            body.push_str(&doc.to_string());
            body.push('\n');
        }
        engine.bulk(None, body.as_bytes(), engine_core::engine::RefreshPolicy::Immediate).unwrap();
    };
    batch(0..500, true);
    batch(500..800, false);
    batch(800..1500, true);
    let resp = common::search(&engine, "c", json!({"size": 0, "aggs": {"c": {"cardinality": {"field": "status"}}}}));
    assert_eq!(resp["aggregations"]["c"]["value"], 700);
    let resp = common::search(
        &engine,
        "c",
        json!({"size": 0, "query": {"range": {"bytes": {"lt": 1000}}}, "aggs": {"c": {"cardinality": {"field": "status"}}}}),
    );
    // Docs 0..500 give v0..v499, docs 800..1000 give v100..v299: 500 distinct.
    assert_eq!(resp["aggregations"]["c"]["value"], 500);
    let resp = common::search(
        &engine,
        "c",
        json!({"size": 0, "aggs": {"r": {"range": {"field": "bytes", "ranges": [{"to": 500}, {"from": 500}]},
            "aggs": {"c": {"cardinality": {"field": "status"}}}}}}),
    );
    let buckets = resp["aggregations"]["r"]["buckets"].as_array().unwrap();
    assert_eq!(buckets[0]["c"]["value"], 500);
    assert_eq!(buckets[1]["c"]["value"], 700, "docs 800..1500 cover every v0..v699");
}
