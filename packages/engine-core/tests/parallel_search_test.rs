//! Aggregation passes collected on the search pool (`search/parallel.rs`) answer exactly as
//! the one-thread pass does. This test binary forces the pool on for any index of two or more
//! segments; a request with a `timeout` takes the sequential, clock-checking pass, so each
//! request is run both ways on the same six-segment index and the aggregations compared.
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
    // The pool exists only once a pass has been judged worth splitting (and then used it).
    let pool_threads = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.unwrap().path().join("comm")).ok())
        .filter(|name| name.starts_with("everycell-searc"))
        .count();
    assert_eq!(pool_threads, 2, "the aggregation passes ran on the search pool");
}
