mod common;

use common::*;
use engine_core::EngineError;
use serde_json::{json, Map};

fn loaded() -> (tempfile::TempDir, engine_core::Engine) {
    let (dir, engine) = engine();
    engine.create_index("logs", MAPPING.as_bytes()).unwrap();
    let resp = bulk(&engine, "logs", &sample_docs(), true);
    assert_eq!(resp["errors"], false);
    (dir, engine)
}

#[test]
fn term_terms_range_match_and_bool() {
    let (_d, e) = loaded();
    let total = |q| search(&e, "logs", json!({"query": q, "size": 0}))["hits"]["total"]["value"].as_u64().unwrap();
    assert_eq!(total(json!({"match_all": {}})), 10);
    assert_eq!(total(json!({"term": {"status": "error"}})), 3);
    assert_eq!(total(json!({"terms": {"status": ["error", "ok"]}})), 10);
    assert_eq!(total(json!({"term": {"ok": true}})), 5);
    assert_eq!(total(json!({"range": {"bytes": {"gte": 300, "lt": 600}}})), 3);
    assert_eq!(total(json!({"range": {"price": {"gt": 1.5, "lte": 3.0}}})), 1);
    assert_eq!(total(json!({"range": {"ts": {"gte": "2024-02-01", "lt": "2024-03-01"}}})), 3);
    assert_eq!(total(json!({"range": {"ts": {"gte": 1706745600000i64}}})), 7);
    assert_eq!(total(json!({"match": {"title": "QUICK dog"}})), 10);
    assert_eq!(total(json!({"match": {"title": {"query": "quick fox", "operator": "and"}}})), 5);
    assert_eq!(total(json!({"match": {"title.raw": "lazy dog 1"}})), 1);
    assert_eq!(
        total(json!({"bool": {"filter": [{"term": {"status": "ok"}}], "must_not": [{"term": {"ok": true}}]}})),
        3
    );
    assert_eq!(
        total(
            json!({"bool": {"should": [{"term": {"status": "error"}}, {"term": {"ok": true}}], "minimum_should_match": 2}})
        ),
        1
    );
    assert_eq!(total(json!({"bool": {"must_not": {"term": {"status": "ok"}}}})), 3);
    assert_eq!(total(json!({"term": {"unmapped": "x"}})), 0);
}

#[test]
fn sorting_paging_and_hit_shape() {
    let (_d, e) = loaded();
    let resp = search(&e, "logs", json!({"sort": [{"bytes": "desc"}], "size": 3, "from": 2}));
    assert_eq!(ids(&resp), ["8", "7", "6"]);
    let hit = &resp["hits"]["hits"][0];
    assert_eq!(hit["_index"], "logs");
    assert_eq!(hit["_score"], serde_json::Value::Null);
    assert_eq!(hit["sort"], json!([800]));
    assert_eq!(resp["hits"]["max_score"], serde_json::Value::Null);
    let by_date = search(&e, "logs", json!({"sort": ["ts", {"status": {"order": "desc"}}], "size": 2}));
    assert_eq!(by_date["hits"]["hits"][0]["sort"], json!([1705320000000i64, "ok"]));
    let by_kw = search(&e, "logs", json!({"sort": [{"status": "asc"}, {"price": "asc"}], "size": 4}));
    assert_eq!(ids(&by_kw), ["3", "6", "9", "1"]);
    let scored = search(&e, "logs", json!({"query": {"match": {"title": "fox"}}}));
    assert!(scored["hits"]["max_score"].as_f64().unwrap() > 0.0);
    assert!(scored["hits"]["hits"][0].get("sort").is_none());
}

#[test]
fn source_is_returned_verbatim() {
    let (_d, e) = engine();
    e.create_index("raw", MAPPING.as_bytes()).unwrap();
    let source = r#"{ "status" : "ok",  "bytes": 1.50e2, "extra": {"z": [1, 2]} }"#;
    let body = format!("{{\"index\":{{\"_id\":\"a\"}}}}\n{source}\n");
    e.bulk(Some("raw"), body.as_bytes(), engine_core::engine::RefreshPolicy::Immediate).unwrap();
    let text = e.search("raw", b"{}", &Map::new()).unwrap();
    assert!(text.contains(&format!("\"_source\":{source}")), "{text}");
    let none = search(&e, "raw", json!({"_source": false}));
    assert!(none["hits"]["hits"][0].get("_source").is_none());
}

#[test]
fn track_total_hits_modes_and_result_window() {
    let (_d, e) = loaded();
    let off = search(&e, "logs", json!({"track_total_hits": false}));
    assert!(off["hits"].get("total").is_none());
    let capped = search(&e, "logs", json!({"track_total_hits": 4, "size": 0}));
    assert_eq!(capped["hits"]["total"], json!({"value": 4, "relation": "gte"}));
    let err = e.search("logs", br#"{"from": 9995, "size": 10}"#, &Map::new()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400));
    assert!(err.to_string().contains("Result window is too large"));
}

#[test]
fn errors_map_to_elasticsearch_types() {
    let (_d, e) = loaded();
    let unknown = e.search("logs", br#"{"query": {"nope": {}}}"#, &Map::new()).unwrap_err();
    assert_eq!(unknown.es_type_and_status(), ("parsing_exception", 400));
    let malformed = e.search("logs", br#"{"query": "#, &Map::new()).unwrap_err();
    assert_eq!(malformed.es_type_and_status(), ("json_e_o_f_exception", 400));
    assert!(matches!(e.search("missing", b"{}", &Map::new()), Err(EngineError::IndexNotFound(_))));
    assert!(matches!(e.create_index("logs", b"{}"), Err(EngineError::IndexAlreadyExists(_))));
    assert!(matches!(e.create_index("Bad", b"{}"), Err(EngineError::InvalidIndexName { .. })));
    let bad_term = e.search("logs", br#"{"query": {"term": {"bytes": "abc"}}}"#, &Map::new()).unwrap_err();
    assert_eq!(bad_term.es_type_and_status().0, "search_phase_execution_exception");
}

#[test]
fn bulk_create_conflicts_replacements_and_per_item_errors() {
    let (_d, e) = loaded();
    let body = concat!(
        "{\"create\":{\"_index\":\"logs\",\"_id\":\"1\"}}\n{\"status\":\"x\"}\n",
        "{\"index\":{\"_index\":\"logs\",\"_id\":\"2\"}}\n{\"status\":\"replaced\"}\n",
        "{\"index\":{\"_index\":\"logs\"}}\n{\"bytes\":\"not a number\"}\n",
        "{\"index\":{\"_index\":\"No-where\"}}\n{}\n",
        "{\"create\":{\"_index\":\"logs\"}}\n{\"status\":\"auto\"}\n",
        "{\"index\":{\"_index\":\"logs\",\"_id\":\"q\\\"uote\\\\d\"}}\n{\"status\":\"x\"}\n",
    );
    let resp: serde_json::Value =
        serde_json::from_str(&e.bulk(None, body.as_bytes(), engine_core::engine::RefreshPolicy::Immediate).unwrap())
            .unwrap();
    assert_eq!(resp["errors"], true);
    let items = resp["items"].as_array().unwrap();
    assert_eq!(items[0]["create"]["status"], 409);
    assert_eq!(items[0]["create"]["error"]["type"], "version_conflict_engine_exception");
    assert_eq!(items[1]["index"]["result"], "updated");
    assert_eq!(items[1]["index"]["_version"], 2);
    assert_eq!(items[2]["index"]["status"], 400);
    assert_eq!(items[2]["index"]["error"]["type"], "document_parsing_exception");
    // A missing index would be created; an invalid name fails its item.
    assert_eq!(items[3]["index"]["status"], 400);
    assert_eq!(items[3]["index"]["error"]["type"], "invalid_index_name_exception");
    assert_eq!(items[4]["create"]["status"], 201);
    assert_eq!(items[4]["create"]["_id"].as_str().unwrap().len(), 20);
    // Ids are escaped in the hand-written response.
    assert_eq!(items[5]["index"]["_id"], "q\"uote\\d");
    assert_eq!(items[5]["index"]["_shards"], json!({"total": 2, "successful": 1, "failed": 0}));
    let count: serde_json::Value = serde_json::from_str(&e.count("logs", b"").unwrap()).unwrap();
    assert_eq!(count["count"], 12);
    assert_eq!(search(&e, "logs", json!({"query": {"term": {"status": "replaced"}}}))["hits"]["total"]["value"], 1);
}

#[test]
fn scores_follow_elasticsearch_bm25_scale() {
    let (_d, e) = loaded();
    // Constant-score queries score 1.0 as in ES; a keyword term scores idf (no norms, tf 1).
    let all = search(&e, "logs", json!({"query": {"match_all": {}}, "size": 1}));
    assert_eq!(all["hits"]["max_score"], 1.0);
    let range = search(&e, "logs", json!({"query": {"range": {"bytes": {"gte": 100}}}, "size": 1}));
    assert_eq!(range["hits"]["hits"][0]["_score"], 1.0);
    let term = search(&e, "logs", json!({"query": {"term": {"status": "error"}}, "size": 1}));
    // ES: idf = ln(1 + (N - n + 0.5) / (n + 0.5)) with N = 10, n = 3; tf/(tf + k1) = 1/2.2.
    let expected = (1.0f64 + (10.0 - 3.0 + 0.5) / (3.0 + 0.5)).ln() / 2.2;
    let got = term["hits"]["max_score"].as_f64().unwrap();
    assert!((got - expected).abs() < 1e-5, "{got} vs {expected}");
}

#[test]
fn large_bulks_prepared_in_parallel_keep_item_order() {
    let (_d, e) = engine();
    e.create_index("big", MAPPING.as_bytes()).unwrap();
    let docs: Vec<_> =
        (0..2000).map(|i| if i == 1234 { json!({"bytes": "oops"}) } else { json!({"bytes": i}) }).collect();
    let resp = bulk(&e, "big", &docs, true);
    let items = resp["items"].as_array().unwrap();
    assert_eq!(items.len(), 2000);
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item["index"]["_id"], json!((i + 1).to_string()));
        assert_eq!(item["index"]["status"], if i == 1234 { 400 } else { 201 });
    }
    let count: serde_json::Value = serde_json::from_str(&e.count("big", b"{}").unwrap()).unwrap();
    assert_eq!(count["count"], 1999);
}

/// A bulk's documents land in one segment in the bulk's order (as one ES bulk does on one shard),
/// so hits of equal score come in that order, the same on every run.
#[test]
fn equal_scores_come_in_the_order_of_the_bulk() {
    let (_d, e) = common::engine();
    e.create_index("ties", common::MAPPING.as_bytes()).unwrap();
    let ids: Vec<String> = (0..600).map(|i| format!("d{:03}", (i * 7919) % 600)).collect();
    let mut body = String::new();
    for id in &ids {
        body.push_str(&format!("{}\n{}\n", json!({"index": {"_id": id}}), json!({"status": "same"})));
    }
    e.bulk(Some("ties"), body.as_bytes(), engine_core::engine::RefreshPolicy::Immediate).unwrap();
    let out = common::search(&e, "ties", json!({"query": {"term": {"status": "same"}}, "size": 600}));
    let got: Vec<&str> = out["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(got, ids.iter().map(String::as_str).collect::<Vec<_>>());
}
