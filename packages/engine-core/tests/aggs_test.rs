mod common;

use common::*;
use serde_json::json;

/// Three bulks with refreshes in between give three segments whose term distributions
/// differ, which is where approximate terms counts go wrong.
#[test]
fn terms_counts_are_exact_across_segments() {
    let (_d, e) = engine();
    e.create_index("t", MAPPING.as_bytes()).unwrap();
    let mut expected = std::collections::HashMap::new();
    let mut n = 0;
    for segment in 0..3 {
        let mut body = String::new();
        for i in 0..60 {
            // Each segment favours different terms; "rare" terms appear everywhere a little.
            let status = if i % 10 == 0 { format!("rare{}", i % 3) } else { format!("s{}", (i * (segment + 1)) % 7) };
            *expected.entry(status.clone()).or_insert(0u64) += 1;
            n += 1;
            body.push_str(&format!("{{\"index\":{{\"_id\":\"{n}\"}}}}\n{{\"status\":\"{status}\",\"bytes\":{i}}}\n"));
        }
        e.bulk(Some("t"), body.as_bytes(), engine_core::engine::RefreshPolicy::Immediate).unwrap();
    }
    let resp = search(
        &e,
        "t",
        json!({"size": 0, "aggs": {"by_status": {"terms": {"field": "status", "size": 3}, "aggs": {"total": {"sum": {"field": "bytes"}}}}}}),
    );
    let agg = &resp["aggregations"]["by_status"];
    let mut sorted: Vec<_> = expected.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (i, (key, count)) in sorted.iter().take(3).enumerate() {
        assert_eq!(agg["buckets"][i]["key"], json!(key));
        assert_eq!(agg["buckets"][i]["doc_count"], json!(count));
    }
    let shown: u64 = sorted.iter().take(3).map(|(_, c)| **c).sum();
    assert_eq!(agg["sum_other_doc_count"], json!(180 - shown));
    assert_eq!(agg["doc_count_error_upper_bound"], 0);
    assert!(agg["buckets"][0]["total"]["value"].as_f64().is_some());
}

#[test]
fn metrics_and_empty_metrics() {
    let (_d, e) = engine();
    e.create_index("m", MAPPING.as_bytes()).unwrap();
    bulk(&e, "m", &sample_docs(), true);
    let resp = search(
        &e,
        "m",
        json!({"size": 0, "aggs": {
            "avg": {"avg": {"field": "bytes"}}, "sum": {"sum": {"field": "price"}},
            "min": {"min": {"field": "ts"}}, "max": {"max": {"field": "bytes"}}
        }}),
    );
    let a = &resp["aggregations"];
    assert_eq!(a["avg"]["value"], 550.0);
    assert_eq!(a["sum"]["value"], 82.5);
    assert_eq!(a["min"]["value_as_string"], "2024-01-15T12:00:00.000Z");
    assert_eq!(a["max"]["value"], 1000.0);
    let empty = search(
        &e,
        "m",
        json!({"size": 0, "query": {"term": {"status": "none"}}, "aggs": {
            "avg": {"avg": {"field": "bytes"}}, "sum": {"sum": {"field": "bytes"}}, "terms": {"terms": {"field": "status"}}
        }}),
    );
    assert_eq!(empty["aggregations"]["avg"]["value"], serde_json::Value::Null);
    assert_eq!(empty["aggregations"]["sum"]["value"], 0.0);
    assert_eq!(empty["aggregations"]["terms"]["buckets"], json!([]));
}

#[test]
fn calendar_date_histogram_fills_empty_months() {
    let (_d, e) = engine();
    e.create_index("h", MAPPING.as_bytes()).unwrap();
    let docs = vec![
        json!({"ts": "2024-01-31T23:59:59Z", "bytes": 1}),
        json!({"ts": "2024-01-01T00:00:00Z", "bytes": 2}),
        json!({"ts": "2024-04-10T08:00:00Z", "bytes": 3}),
    ];
    bulk(&e, "h", &docs, true);
    let resp = search(
        &e,
        "h",
        json!({"size": 0, "aggs": {"per_month": {"date_histogram": {"field": "ts", "calendar_interval": "month"}, "aggs": {"b": {"max": {"field": "bytes"}}}}}}),
    );
    let buckets = resp["aggregations"]["per_month"]["buckets"].as_array().unwrap();
    let keys: Vec<_> = buckets.iter().map(|b| b["key_as_string"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "2024-01-01T00:00:00.000Z",
            "2024-02-01T00:00:00.000Z",
            "2024-03-01T00:00:00.000Z",
            "2024-04-01T00:00:00.000Z"
        ]
    );
    let counts: Vec<_> = buckets.iter().map(|b| b["doc_count"].as_u64().unwrap()).collect();
    assert_eq!(counts, [2, 0, 0, 1]);
    assert_eq!(buckets[0]["key"], 1704067200000i64);
    assert_eq!(buckets[1]["b"]["value"], serde_json::Value::Null);
    let fixed = search(
        &e,
        "h",
        json!({"size": 0, "aggs": {"d": {"date_histogram": {"field": "ts", "fixed_interval": "30d", "min_doc_count": 1}}}}),
    );
    let fixed_buckets = fixed["aggregations"]["d"]["buckets"].as_array().unwrap();
    assert!(fixed_buckets.iter().all(|b| b["key"].as_i64().unwrap() % (30 * 86_400_000) == 0));
    assert_eq!(fixed_buckets.iter().map(|b| b["doc_count"].as_u64().unwrap()).sum::<u64>(), 3);
}
