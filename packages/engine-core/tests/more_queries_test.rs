//! `boosting` over the ten sample docs (status "error" on ids 3, 6, 9; "Quick brown fox" in
//! the titles of even ids).
mod common;

use common::*;
use serde_json::{json, Value};

fn engine_with_docs() -> (tempfile::TempDir, engine_core::Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    (d, e)
}

fn scores(resp: &Value) -> Vec<(String, f64)> {
    resp["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap()))
        .collect()
}

#[test]
fn boosting_demotes_negative_matches_without_dropping_them() {
    let (_d, e) = engine_with_docs();
    let resp = search(
        &e,
        "logs",
        json!({"size": 20, "query": {"boosting": {
            "positive": {"match_all": {}},
            "negative": {"term": {"status": "error"}},
            "negative_boost": 0.25
        }}}),
    );
    assert_eq!(resp["hits"]["total"]["value"], 10);
    let got = scores(&resp);
    for (id, score) in &got {
        let demoted = ["3", "6", "9"].contains(&id.as_str());
        let want = if demoted { 0.25 } else { 1.0 };
        assert!((score - want).abs() < 1e-6, "doc {id}: {score} != {want}");
    }
    // Demoted docs rank last.
    let last: Vec<&str> = got[7..].iter().map(|(id, _)| id.as_str()).collect();
    assert!(last.iter().all(|id| ["3", "6", "9"].contains(id)), "{last:?}");
}

#[test]
fn boosting_scales_a_scored_positive_and_counts_like_positive() {
    let (_d, e) = engine_with_docs();
    let plain = search(&e, "logs", json!({"query": {"match": {"title": "fox"}}}));
    let boosted = search(
        &e,
        "logs",
        json!({"query": {"boosting": {
            "positive": {"match": {"title": "fox"}},
            "negative": {"term": {"status": "error"}},
            "negative_boost": 0.5
        }}}),
    );
    let plain: std::collections::HashMap<String, f64> = scores(&plain).into_iter().collect();
    for (id, score) in scores(&boosted) {
        let factor = if id == "6" { 0.5 } else { 1.0 };
        assert!((score - plain[&id] * factor).abs() < 1e-5, "doc {id}");
    }
    let count = e
        .count(
            "logs",
            json!({"query": {"bool": {"filter": [{"boosting": {"positive": {"match": {"title": "fox"}}, "negative": {"match_all": {}}, "negative_boost": 0.1}}]}}})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
    assert!(count.contains("\"count\":5"), "{count}");
}

#[test]
fn boosting_without_negative_boost_is_a_parsing_error() {
    let (_d, e) = engine_with_docs();
    let body = json!({"query": {"boosting": {"positive": {"match_all": {}}, "negative": {"match_all": {}}}}});
    let err = e.search("logs", body.to_string().as_bytes(), &serde_json::Map::new()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("parsing_exception", 400));
}
