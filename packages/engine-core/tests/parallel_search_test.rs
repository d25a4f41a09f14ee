//! Aggregation passes and kNN scans on the search pool (`parallel.rs`) answer exactly
//! as on one thread. This test binary forces the pool on for any index of two or more
//! segments and any number of vectors. A request with a `timeout` takes the sequential,
//! clock-checking pass, so each aggregation is run both ways on the same six-segment index and
//! compared; kNN is checked against the nearest neighbours computed here.
mod common;

use std::sync::Once;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Value};

fn force_parallel() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Before the first search of this process: the pool and its threshold are read once.
        std::env::set_var("EVERYCELL_SEARCH_THREADS", "2");
        std::env::set_var("EVERYCELL_PARALLEL_MIN_DOCS", "0");
    });
}

#[test]
fn parallel_and_sequential_passes_agree() {
    force_parallel();
    let (_d, e) = engine();
    e.create_index("p", MAPPING.as_bytes()).unwrap();
    const PER_SEGMENT: usize = 1_500;
    for part in 0..6 {
        let docs: Vec<Value> = (0..PER_SEGMENT)
            .map(|i| {
                let n = (part * PER_SEGMENT + i) as i64;
                json!({
                    "title": format!("event {} of kind {}", n, n % 13),
                    "status": format!("s{}", (n * 31) % 17),
                    "bytes": (n * 7_919) % 10_007,
                    "price": (n % 211) as f64 / 8.0,
                    "ok": n % 4 == 0,
                    "ts": 1_767_225_600_000i64 + n * 61_000,
                })
            })
            .collect();
        e.bulk(None, &ndjson_from("p", &docs, part * PER_SEGMENT + 1), RefreshPolicy::Immediate).unwrap();
    }
    let requests = [
        json!({"t": {"terms": {"field": "status", "size": 20}, "aggs": {"b": {"avg": {"field": "bytes"}}}}}),
        json!({"s": {"stats": {"field": "price"}}, "c": {"cardinality": {"field": "status"}}}),
        json!({"h": {"date_histogram": {"field": "ts", "fixed_interval": "1h"}}}),
        json!({"a": {"auto_date_histogram": {"field": "ts", "buckets": 12}}}),
        json!({"r": {"range": {"field": "bytes", "ranges": [{"to": 2_000}, {"from": 2_000, "to": 7_000}, {"from": 7_000}]}}}),
        json!({"p": {"percentiles": {"field": "price", "percents": [50, 99]}}}),
        json!({"f": {"filter": {"term": {"ok": true}}, "aggs": {"m": {"max": {"field": "bytes"}}}}}),
        json!({"m": {"adjacency_matrix": {"filters": {"x": {"term": {"ok": true}}, "y": {"range": {"bytes": {"gte": 5_000}}}}}}}),
        json!({"top": {"terms": {"field": "status", "size": 3}, "aggs": {"h": {"top_hits": {"size": 2, "sort": [{"bytes": "desc"}]}}}}}),
    ];
    for aggs in requests {
        for query in [json!({"match_all": {}}), json!({"range": {"bytes": {"gte": 1_000, "lt": 9_000}}})] {
            let parallel = search(&e, "p", json!({"size": 0, "query": query, "aggs": aggs}));
            let sequential = search(&e, "p", json!({"size": 0, "query": query, "aggs": aggs, "timeout": "1h"}));
            assert_eq!(parallel["aggregations"], sequential["aggregations"], "{aggs} {query}");
            assert_eq!(parallel["hits"]["total"], sequential["hits"]["total"], "{aggs} {query}");
            assert_eq!(sequential["timed_out"], json!(false));
        }
    }
    // `_count` counts the segments on the pool too: every 17th status, bytes of the first 6k.
    let count = |q: Value| -> Value {
        let body = json!({"query": q}).to_string();
        serde_json::from_str::<Value>(&e.count("p", body.as_bytes()).unwrap()).unwrap()["count"].clone()
    };
    assert_eq!(count(json!({"term": {"status": "s0"}})), json!(9_000 / 17 + 1));
    assert_eq!(
        count(json!({"range": {"bytes": {"lt": 100}}})),
        json!((0..9_000i64).filter(|n| (n * 7_919) % 10_007 < 100).count())
    );
    // The pool exists only once a pass has been judged worth splitting (and then used it).
    let pool_threads = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.unwrap().path().join("comm")).ok())
        .filter(|name| name.starts_with("everycell-searc"))
        .count();
    assert_eq!(pool_threads, 2, "the aggregation passes ran on the search pool");
}

#[test]
fn a_knn_scan_split_over_the_pool_finds_the_exact_nearest() {
    force_parallel();
    let (_d, e) = engine();
    let mapping =
        json!({"mappings": {"properties": {"v": {"type": "dense_vector", "dims": 4, "similarity": "l2_norm"}}}});
    e.create_index("k", mapping.to_string().as_bytes()).unwrap();
    // 3 segments of 7,000 vectors: each is scanned in several stretches.
    let vector = |n: i64| -> Vec<f64> { (0..4).map(|d| ((n * (d + 3) * 7_919) % 1_000) as f64 / 100.0).collect() };
    const N: i64 = 21_000;
    for part in 0..3 {
        let docs: Vec<Value> = (part * 7_000..(part + 1) * 7_000).map(|n| json!({"v": vector(n)})).collect();
        e.bulk(None, &ndjson_from("k", &docs, (part * 7_000 + 1) as usize), RefreshPolicy::Immediate).unwrap();
    }
    for target in [[1.0, 2.0, 3.0, 4.0], [9.9, 0.1, 5.0, 5.0]] {
        let mut by_distance: Vec<(f64, i64)> =
            (0..N).map(|n| (vector(n).iter().zip(target).map(|(a, b)| (a - b) * (a - b)).sum::<f64>(), n)).collect();
        by_distance.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let body = json!({"size": 10, "knn": {"field": "v", "query_vector": target, "k": 10, "num_candidates": 10}});
        let resp = search(&e, "k", body);
        let got: Vec<f64> = resp["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let id: i64 = h["_id"].as_str().unwrap().parse().unwrap();
                by_distance.iter().find(|(_, n)| *n == id - 1).unwrap().0
            })
            .collect();
        let want: Vec<f64> = by_distance.iter().take(10).map(|(d, _)| *d).collect();
        // Ties may order differently than the f64 distances here: compare the distances kept.
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-3, "{target:?}: got {got:?}, want {want:?}");
        }
        assert_eq!(got.len(), 10);
    }
}
