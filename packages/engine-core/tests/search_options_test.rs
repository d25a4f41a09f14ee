//! Search body and URL options that used to be refused: hit extras (`version`,
//! `seq_no_primary_term`, `explain`, `stored_fields`, `docvalue_fields`, `fields`,
//! `script_fields`), collection (`min_score`, `post_filter`, `terminate_after`,
//! `indices_boost`, `rescore`, `collapse`, the `script` query), response shape
//! (`rest_total_hits_as_int`, `typed_keys`, `filter_path`), the one-shard no-op parameters,
//! and strict bodies (duplicate keys).

mod common;

use engine_core::Engine;
use serde_json::{json, Map, Value};

/// `common::sample_docs`: ten docs; even ids "Quick brown fox {i}", odd "lazy dog {i}";
/// status "error" on 3, 6, 9; bytes 100 x id; ts one month per three ids.
fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine.create_index("logs", common::MAPPING.as_bytes()).unwrap();
    common::bulk(&engine, "logs", &common::sample_docs(), true);
    (dir, engine)
}

fn search_with(engine: &Engine, body: Value, params: &[(&str, &str)]) -> Value {
    let params: Map<String, Value> = params.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
    serde_json::from_str(&engine.search("logs", body.to_string().as_bytes(), &params).unwrap()).unwrap()
}

fn search(engine: &Engine, body: Value) -> Value {
    common::search(engine, "logs", body)
}

fn total(resp: &Value) -> u64 {
    resp["hits"]["total"]["value"].as_u64().unwrap()
}

fn error(engine: &Engine, raw: &str, params: &[(&str, &str)]) -> Value {
    let params: Map<String, Value> = params.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
    engine.search("logs", raw.as_bytes(), &params).unwrap_err().to_es_body()
}

#[test]
fn hits_show_versions_explanations_and_fields() {
    let (_dir, engine) = setup();
    let ids = json!({"ids": {"values": ["2"]}});
    let resp = search(&engine, json!({"query": ids, "version": true, "seq_no_primary_term": true, "explain": true}));
    let hit = &resp["hits"]["hits"][0];
    assert_eq!((hit["_version"].clone(), hit["_primary_term"].clone()), (json!(1), json!(1)));
    assert!(hit["_seq_no"].is_u64() && hit["_explanation"]["value"].is_number(), "{hit}");
    let resp = search(&engine, json!({"query": ids, "stored_fields": "_none_"}));
    let hit = &resp["hits"]["hits"][0];
    assert!(hit.get("_id").is_none() && hit.get("_source").is_none(), "{hit}");
    let resp = search(&engine, json!({"query": ids, "stored_fields": ["_source"]}));
    assert!(resp["hits"]["hits"][0]["_source"].is_object());
    let resp = search(
        &engine,
        json!({"query": ids, "docvalue_fields": ["status", "b*", {"field": "ts", "format": "yyyy-MM-dd"}]}),
    );
    assert_eq!(resp["hits"]["hits"][0]["fields"], json!({"status": ["ok"], "bytes": [200], "ts": ["2024-01-15"]}));
    let resp = search(&engine, json!({"query": ids, "_source": false, "fields": ["title", "price", "ts"]}));
    let fields = &resp["hits"]["hits"][0]["fields"];
    assert_eq!(fields["title"], json!(["Quick brown fox 2"]));
    assert_eq!((fields["price"].clone(), fields["ts"].clone()), (json!([3.0]), json!(["2024-01-15T12:00:00.000Z"])));
    let resp = search(&engine, json!({"query": ids, "script_fields": {"twice": {"script": "doc['bytes'].value * 2"}}}));
    assert_eq!(resp["hits"]["hits"][0]["fields"]["twice"], json!([400]));
}

#[test]
fn collection_options() {
    let (_dir, engine) = setup();
    let fox = json!({"match": {"title": "fox"}});
    assert_eq!(total(&search(&engine, json!({"query": fox, "min_score": 100}))), 0);
    assert_eq!(total(&search(&engine, json!({"query": fox, "min_score": 0}))), 5);
    let resp = search(&engine, json!({"size": 0, "terminate_after": 3, "track_total_hits": true}));
    assert_eq!((total(&resp), resp["terminated_early"].clone()), (3, json!(true)));
    let resp = search(
        &engine,
        json!({"query": {"term": {"status": "ok"}}, "post_filter": {"term": {"ok": true}},
        "aggs": {"s": {"terms": {"field": "ok"}}}}),
    );
    assert_eq!(total(&resp), 4, "ok and even: 2, 4, 8, 10");
    assert_eq!(
        resp["aggregations"]["s"]["buckets"].as_array().unwrap().len(),
        2,
        "aggregations ignore the post filter"
    );
    let plain = search(&engine, json!({"query": fox}));
    let boosted = search(&engine, json!({"query": fox, "indices_boost": [{"logs": 2}]}));
    let (a, b) = (plain["hits"]["max_score"].as_f64().unwrap(), boosted["hits"]["max_score"].as_f64().unwrap());
    assert!((b - 2.0 * a).abs() < 1e-6, "{a} {b}");
    let script = json!({"script": {"script": {"source": "doc['bytes'].value > params.n", "params": {"n": 700}}}});
    assert_eq!(total(&search(&engine, json!({"query": script}))), 3);
}

#[test]
fn rescore_reorders_the_window() {
    let (_dir, engine) = setup();
    let body = json!({"query": {"match": {"title": "fox lazy"}}, "size": 3,
        "rescore": {"window_size": 10, "query": {"rescore_query": {"range": {"bytes": {"gte": 900}}}, "rescore_query_weight": 100}}});
    let resp = search(&engine, body);
    // The two documents with bytes >= 900 (ids 9 and 10) move to the top.
    let top = common::ids(&resp);
    assert!(top[..2].iter().all(|id| id == "9" || id == "10"), "{top:?}");
    let err = error(&engine, r#"{"rescore": {"query": {"rescore_query": {"match_all": {}}}}, "sort": ["bytes"]}"#, &[]);
    assert_eq!(err["status"], 400);
}

#[test]
fn collapse_keeps_the_best_hit_per_value_with_inner_hits() {
    let (_dir, engine) = setup();
    let resp = search(
        &engine,
        json!({"sort": [{"bytes": "asc"}], "collapse": {"field": "status",
        "inner_hits": {"name": "first", "size": 2, "sort": [{"bytes": "desc"}]}}}),
    );
    assert_eq!(total(&resp), 10);
    assert_eq!(common::ids(&resp), ["1", "3"]);
    let hit = &resp["hits"]["hits"][1];
    assert_eq!(hit["fields"]["status"], json!(["error"]));
    let inner: Vec<&str> = hit["inner_hits"]["first"]["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["_id"].as_str().unwrap())
        .collect();
    assert_eq!(inner, ["9", "6"]);
}

#[test]
fn response_shapes_and_url_parameters() {
    let (_dir, engine) = setup();
    let resp = search_with(&engine, json!({"size": 0}), &[("rest_total_hits_as_int", "true")]);
    assert_eq!(resp["hits"]["total"], json!(10));
    let err = error(&engine, r#"{"track_total_hits": 5}"#, &[("rest_total_hits_as_int", "true")]);
    assert_eq!(err["error"]["type"], "illegal_argument_exception");
    let resp = search_with(
        &engine,
        json!({"size": 0, "aggs": {"m": {"max": {"field": "bytes"}}, "s": {"terms": {"field": "status"}, "aggs": {"a": {"avg": {"field": "price"}}}}}}),
        &[("typed_keys", "true")],
    );
    assert_eq!(resp["aggregations"]["max#m"]["value"], json!(1000.0));
    assert!(resp["aggregations"]["sterms#s"]["buckets"][0]["avg#a"].is_object(), "{resp}");
    let resp = search_with(&engine, json!({"size": 1, "sort": ["bytes"]}), &[("filter_path", "hits.hits._id")]);
    assert_eq!(resp, json!({"hits": {"hits": [{"_id": "1"}]}}));
    for (k, v) in [
        ("search_type", "dfs_query_then_fetch"),
        ("allow_partial_search_results", "false"),
        ("preference", "_local"),
        ("routing", "x"),
        ("pre_filter_shard_size", "1"),
        ("max_concurrent_shard_requests", "3"),
    ] {
        assert_eq!(search_with(&engine, json!({"size": 0}), &[(k, v)])["hits"]["total"]["value"], 10, "{k}");
    }
    assert_eq!(error(&engine, "{}", &[("search_type", "scan")])["status"], 400);
    assert_eq!(error(&engine, "{}", &[("max_concurrent_shard_requests", "0")])["status"], 400);
    assert_eq!(search(&engine, json!({"size": 0, "stats": ["group1"]}))["hits"]["total"]["value"], 10);
}

#[test]
fn strict_bodies_refuse_duplicate_keys() {
    let (_dir, engine) = setup();
    let err = error(&engine, r#"{"size": 1, "size": 2}"#, &[]);
    assert_eq!((err["status"].clone(), err["error"]["type"].clone()), (json!(400), json!("json_parse_exception")));
    let err = error(&engine, r#"{"query": {"term": {"status": "ok", "status": "x"}}}"#, &[]);
    assert_eq!(err["error"]["type"], "json_parse_exception");
    let count = engine.count("logs", br#"{"query": {"match_all": {}}, "query": {"match_none": {}}}"#).unwrap_err();
    assert_eq!(count.es_type_and_status(), ("parsing_exception", 400));
}
