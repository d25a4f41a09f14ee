//! The filter cache (`query_cache.rs`): a `bool` filter used often enough is answered from its
//! cached matches per segment. Every answer, before and after caching, and after deletions and
//! new documents, is checked against counts computed here from the documents.
mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

const FIRST: i64 = 20_000;
const SECOND: i64 = 12_000;

fn status(n: i64) -> &'static str {
    ["ok", "error", "timeout", "ok", "ok"][(n * 7_919 % 5) as usize]
}
fn bytes(n: i64) -> i64 {
    (n * 48_271) % 10_007
}

fn load(e: &engine_core::Engine, from: i64, to: i64) {
    let docs: Vec<Value> = (from..to).map(|n| json!({"status": status(n), "bytes": bytes(n)})).collect();
    e.bulk(None, &ndjson_from("c", &docs, from as usize + 1), RefreshPolicy::Immediate).unwrap();
}

/// Which documents (by number) a query matches.
type Matches = Box<dyn Fn(i64) -> bool>;

/// Bool filters (each usable as a `_count` query) and which documents they match.
fn filters() -> Vec<(Value, Matches)> {
    vec![
        (
            json!({"bool": {"filter": [{"term": {"status": "ok"}}, {"range": {"bytes": {"gte": 2_000, "lt": 7_000}}}]}}),
            Box::new(|n| status(n) == "ok" && (2_000..7_000).contains(&bytes(n))),
        ),
        (
            json!({"bool": {"filter": [{"range": {"bytes": {"lt": 9_000}}}], "must_not": [{"term": {"status": "error"}}]}}),
            Box::new(|n| bytes(n) < 9_000 && status(n) != "error"),
        ),
        // Sparse: cached as a list, not a bit set.
        (
            json!({"bool": {"filter": [{"term": {"status": "timeout"}}, {"range": {"bytes": {"gte": 5_000, "lte": 5_150}}}]}}),
            Box::new(|n| status(n) == "timeout" && (5_000..=5_150).contains(&bytes(n))),
        ),
        (
            json!({"bool": {"should": [{"term": {"status": "error"}}, {"term": {"status": "timeout"}}], "minimum_should_match": 1}}),
            Box::new(|n| status(n) != "ok"),
        ),
        // Not cacheable itself (fuzzy), but its filter is: the cached matches are sought into.
        (
            json!({"bool": {"must": [{"fuzzy": {"status": "tmeout"}}],
                "filter": [{"bool": {"filter": [{"range": {"bytes": {"gte": 1_000}}}, {"range": {"bytes": {"lt": 8_000}}}]}}]}}),
            Box::new(|n| status(n) == "timeout" && (1_000..8_000).contains(&bytes(n))),
        ),
        (
            json!({"bool": {"must": [{"fuzzy": {"status": "tmeout"}}],
                "filter": [{"bool": {"filter": [{"range": {"bytes": {"gte": 3_000}}}, {"range": {"bytes": {"lt": 3_040}}}]}}]}}),
            Box::new(|n| status(n) == "timeout" && (3_000..3_040).contains(&bytes(n))),
        ),
    ]
}

fn count(e: &engine_core::Engine, query: &Value) -> u64 {
    let resp: Value =
        serde_json::from_str(&e.count("c", json!({"query": query}).to_string().as_bytes()).unwrap()).unwrap();
    resp["count"].as_u64().unwrap()
}

fn check_all(e: &engine_core::Engine, alive: &dyn Fn(i64) -> bool, docs: i64, round: &str) {
    for (query, matches) in filters() {
        let want = (0..docs).filter(|n| alive(*n) && matches(*n)).count() as u64;
        assert_eq!(count(e, &query), want, "{round}: _count {query}");
        // A field-sorted page and an aggregation see the same documents.
        let body = json!({"size": 3, "track_total_hits": true, "query": query, "sort": [{"bytes": "desc"}],
            "aggs": {"s": {"sum": {"field": "bytes"}}}});
        let resp = search(e, "c", body);
        assert_eq!(resp["hits"]["total"]["value"], json!(want), "{round}: search {query}");
        let sum: i64 = (0..docs).filter(|n| alive(*n) && matches(*n)).map(bytes).sum();
        assert_eq!(resp["aggregations"]["s"]["value"].as_f64().unwrap(), sum as f64, "{round}: sum {query}");
        let best = (0..docs).filter(|n| alive(*n) && matches(*n)).map(bytes).max();
        assert_eq!(resp["hits"]["hits"][0]["sort"][0].as_i64(), best, "{round}: top {query}");
    }
}

#[test]
fn cached_filters_answer_like_the_documents_through_deletes_and_new_segments() {
    let (_d, e) = engine();
    e.create_index(
        "c",
        r#"{"mappings":{"properties":{"status":{"type":"keyword"},"bytes":{"type":"long"}}}}"#.as_bytes(),
    )
    .unwrap();
    load(&e, 0, FIRST);
    load(&e, FIRST, FIRST + SECOND);
    let before = engine_core::query_cache_entries();
    // Past the uses before caching: later rounds are answered from the cache.
    for round in 0..6 {
        check_all(&e, &|_| true, FIRST + SECOND, &format!("round {round}"));
    }
    assert!(engine_core::query_cache_entries() > before, "the repeated filters were cached");
    // Deletions apply to cached matches.
    let deleted = |n: i64| n % 13 == 0 && n < FIRST + SECOND;
    for n in (0..FIRST + SECOND).filter(|n| deleted(*n)) {
        e.delete_doc("c", &(n + 1).to_string(), &Map::new()).unwrap();
    }
    e.refresh("c").unwrap();
    for round in 0..2 {
        check_all(&e, &|n| !deleted(n), FIRST + SECOND, &format!("after deletes {round}"));
    }
    // A new segment is filtered afresh, beside the cached ones.
    load(&e, FIRST + SECOND, FIRST + SECOND + 11_000);
    for round in 0..6 {
        check_all(&e, &|n| !deleted(n), FIRST + SECOND + 11_000, &format!("after adding {round}"));
    }
}
