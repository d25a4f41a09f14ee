//! Elasticsearch's request limits: each one a 400 (or ES's own status) with ES's error type,
//! and each one just inside its limit still succeeds.

mod common;

use std::time::{Duration, Instant};

use engine_core::Engine;
use serde_json::{json, Map, Value};

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine.create_index("logs", common::MAPPING.as_bytes()).unwrap();
    common::bulk(&engine, "logs", &common::sample_docs(), true);
    (dir, engine)
}

fn error_raw(engine: &Engine, body: &str) -> Value {
    engine.search("logs", body.as_bytes(), &Map::new()).expect_err("the request must fail").to_es_body()
}

fn error(engine: &Engine, body: Value) -> Value {
    error_raw(engine, &body.to_string())
}

fn ok(engine: &Engine, body: Value) -> Value {
    common::search(engine, "logs", body)
}

fn assert_shard_failure(body: &Value, cause: &str, reason_part: &str) {
    assert_eq!(body["status"], 400, "{body}");
    assert_eq!(body["error"]["type"], "search_phase_execution_exception", "{body}");
    assert_eq!(body["error"]["root_cause"][0]["type"], cause, "{body}");
    let reason = body["error"]["root_cause"][0]["reason"].as_str().unwrap();
    assert!(reason.contains(reason_part), "{reason}");
}

#[test]
fn max_result_window_is_10000() {
    let (_dir, engine) = setup();
    ok(&engine, json!({"from": 9990, "size": 10}));
    let body = error(&engine, json!({"from": 9995, "size": 10}));
    assert_shard_failure(&body, "illegal_argument_exception", "Result window is too large");
    assert!(body["error"]["root_cause"][0]["reason"].as_str().unwrap().contains("[10000] but was [10005]"));
}

#[test]
fn max_buckets_stops_a_runaway_histogram() {
    let (_dir, engine) = setup();
    let body = error(&engine, json!({"size": 0, "aggs": {"h": {"histogram": {"field": "price", "interval": 0.0001}}}}));
    assert_eq!(body["error"]["type"], "search_phase_execution_exception");
    assert_eq!(body["error"]["caused_by"]["type"], "too_many_buckets_exception");
    assert_eq!(body["status"], 503, "ES's status for a reduce-phase bucket overflow");
    assert!(body["error"]["caused_by"]["reason"].as_str().unwrap().contains("[search.max_buckets]"));
}

fn bool_should(n: usize) -> Value {
    json!({"bool": {"should": (0..n).map(|i| json!({"term": {"status": format!("s{i}")}})).collect::<Vec<_>>()}})
}

#[test]
fn max_clause_count_is_1024_counting_nested_bools() {
    let (_dir, engine) = setup();
    ok(&engine, json!({"query": bool_should(1024)}));
    let body = error(&engine, json!({"query": bool_should(1025)}));
    assert_shard_failure(&body, "query_shard_exception", "maxClauseCount is set to 1024");
    // Nesting does not get around the limit: two bools of 600 leaves each.
    let nested = json!({"query": {"bool": {"must": [bool_should(600), bool_should(600)]}}});
    let body = error(&engine, nested);
    assert_shard_failure(&body, "query_shard_exception", "Query contains too many nested clauses");
    // A terms query is one clause however many values it has.
    let values: Vec<String> = (0..10_000).map(|i| format!("v{i}")).collect();
    ok(&engine, json!({"query": {"terms": {"status": values}}}));
}

#[test]
fn analyzed_text_expanding_past_the_clause_limit_fails() {
    let (_dir, engine) = setup();
    let words = |n: usize| (0..n).map(|i| format!("w{i}")).collect::<Vec<_>>();
    ok(&engine, json!({"query": {"match": {"title": words(1024).join(" ")}}}));
    let body = error(&engine, json!({"query": {"match": {"title": words(1100).join(" ")}}}));
    assert_shard_failure(&body, "query_shard_exception", "maxClauseCount is set to 1024");
    let qs = words(1100).iter().map(|w| format!("title:{w}")).collect::<Vec<_>>().join(" OR ");
    let body = error(&engine, json!({"query": {"query_string": {"query": qs}}}));
    assert_shard_failure(&body, "query_shard_exception", "maxClauseCount is set to 1024");
}

#[test]
fn max_terms_count_is_65536() {
    let (_dir, engine) = setup();
    let values = |n: usize| (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>();
    ok(&engine, json!({"query": {"terms": {"status": values(65_536)}}}));
    let body = error(&engine, json!({"query": {"terms": {"status": values(65_537)}}}));
    assert_shard_failure(&body, "query_shard_exception", "The number of terms [65537] used in the Terms Query");
    assert!(body["error"]["root_cause"][0]["reason"].as_str().unwrap().contains("[index.max_terms_count]"));
}

#[test]
fn max_regex_length_is_1000() {
    let (_dir, engine) = setup();
    // 1000 characters whose automaton is small: the length limit alone decides.
    let long_ok = format!("ok{}|o", "|ok".repeat(332));
    assert_eq!(long_ok.len(), 1000);
    ok(&engine, json!({"query": {"regexp": {"status": {"value": long_ok}}}}));
    let body = error(&engine, json!({"query": {"regexp": {"status": {"value": "e".repeat(1001)}}}}));
    assert_shard_failure(&body, "query_shard_exception", "The length of regex [1001]");
    assert!(body["error"]["root_cause"][0]["reason"].as_str().unwrap().contains("[index.max_regex_length]"));
}

#[test]
fn pathological_regexps_fail_fast_instead_of_eating_the_cpu() {
    let (_dir, engine) = setup();
    for pattern in [
        "(a|aa)*(b|bb)*(c|cc)*.{0,300}[a-z]{0,300}",
        ".{0,1000}x",
        "((a{0,50}){0,50}){0,50}",
        "(a?){0,999}",
        "(.*.*.*){0,400}",
    ] {
        let started = Instant::now();
        let body = error(&engine, json!({"query": {"regexp": {"status": {"value": pattern}}}}));
        assert_shard_failure(&body, "query_shard_exception", "Determinizing automaton");
        assert!(started.elapsed() < Duration::from_secs(3), "{pattern} took {:?}", started.elapsed());
    }
}

fn nested_bool(depth: usize) -> String {
    let mut body = String::from(r#"{"query":"#);
    body.push_str(&r#"{"bool":{"must":"#.repeat(depth - 1));
    body.push_str(r#"{"term":{"status":"ok"}}"#);
    body.push_str(&"}}".repeat(depth - 1));
    body.push('}');
    body
}

#[test]
fn query_nesting_deeper_than_30_is_rejected_without_recursing() {
    let (_dir, engine) = setup();
    let resp: Value =
        serde_json::from_str(&engine.search("logs", nested_bool(30).as_bytes(), &Map::new()).unwrap()).unwrap();
    assert!(resp["hits"]["total"]["value"].as_u64().unwrap() > 0);
    for depth in [31, 100, 10_000, 1_000_000] {
        let body = error_raw(&engine, &nested_bool(depth));
        assert_eq!(body["status"], 400, "depth {depth}: {body}");
        assert_eq!(body["error"]["type"], "illegal_argument_exception", "depth {depth}");
        let reason = body["error"]["reason"].as_str().unwrap();
        assert!(reason.contains("[indices.query.bool.max_nested_depth]"), "{reason}");
    }
}

#[test]
fn deeply_nested_aggregations_are_rejected() {
    let (_dir, engine) = setup();
    let depth = 10_000;
    let mut body = String::from(r#"{"size":0,"aggs":"#);
    body.push_str(&r#"{"a":{"terms":{"field":"status"},"aggs":"#.repeat(depth));
    body.push_str(r#"{"m":{"max":{"field":"bytes"}}}"#);
    body.push_str(&"}}".repeat(depth));
    body.push('}');
    let err = error_raw(&engine, &body);
    assert_eq!(err["status"], 400, "{err}");
}

#[test]
fn timeout_returns_partial_results_flagged_timed_out() {
    let (_dir, engine) = setup();
    // Ten docs over several segments, so "nothing collected yet" is partial.
    common::bulk(&engine, "logs", &common::sample_docs(), true);
    let late = ok(&engine, json!({"timeout": "1nanos", "size": 100, "aggs": {"s": {"terms": {"field": "status"}}}}));
    assert_eq!(late["timed_out"], true);
    assert!(late["hits"]["total"]["value"].as_u64().unwrap() < 10, "{late}");
    let in_time = ok(&engine, json!({"timeout": "1m", "size": 100}));
    assert_eq!(in_time["timed_out"], false);
    assert_eq!(in_time["hits"]["total"]["value"], 10);
    let body = error(&engine, json!({"timeout": "soon"}));
    assert_eq!(body["error"]["type"], "illegal_argument_exception");
    let via_url: Value =
        serde_json::from_str(&engine.search("logs", b"{}", json!({"timeout": "1nanos"}).as_object().unwrap()).unwrap())
            .unwrap();
    assert_eq!(via_url["timed_out"], true);
}
