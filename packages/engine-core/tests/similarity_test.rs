//! Similarity settings: `index.similarity.default` (`BM25` as ES 8 scores it, `LegacyBM25`
//! as OpenSearch 2.19 scores its `BM25`, `boolean`), custom `k1`/`b`, named similarities and
//! per-field `similarity`. Expected scores are OpenSearch 2.19.1's answers for the same five
//! documents (ES 8's are those divided by `k1 + 1`), the conformance suite's similarity cases.

mod common;

use engine_core::Engine;
use serde_json::{json, Value};

const DOCS: [&str; 5] = [
    "the quick brown fox",
    "quick quick fox jumps over the lazy dog",
    "a fox",
    "brown dogs and brown foxes run",
    "nothing to see here at all really",
];

fn index(settings: Value, body_mapping: Value) -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    let create = json!({"settings": settings, "mappings": {"properties": {"body": body_mapping}}});
    engine.create_index("t", create.to_string().as_bytes()).unwrap();
    let docs: Vec<Value> = DOCS.iter().map(|d| json!({"body": d})).collect();
    common::bulk(&engine, "t", &docs, true);
    (dir, engine)
}

fn scores(engine: &Engine, query: Value) -> Vec<(String, f64)> {
    let resp = common::search(engine, "t", json!({"query": query}));
    resp["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap()))
        .collect()
}

/// `ids` in score order with their `want`ed scores. Equal scores may come in either order:
/// a bulk's documents are split over the writer's indexing threads, so which segment (and
/// doc address) each lands in varies from run to run.
fn assert_scores(got: &[(String, f64)], ids: &[&str], want: &[f64]) {
    assert_eq!(got.len(), ids.len(), "{got:?} vs {ids:?}");
    for (id, w) in ids.iter().zip(want) {
        let g = got.iter().find(|(g, _)| g == id).map(|(_, s)| *s);
        let g = g.unwrap_or_else(|| panic!("{id} missing from {got:?}"));
        assert!((g - w).abs() <= 1e-5 * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
    assert!(got.windows(2).all(|p| p[0].1 >= p[1].1), "not in score order: {got:?}");
}

fn text() -> Value {
    json!({"type": "text"})
}

#[test]
fn bm25_is_es8s_scale_and_legacy_bm25_is_opensearchs() {
    let (_d, es8) = index(json!({"index.similarity.default.type": "BM25"}), text());
    assert_scores(
        &scores(&es8, json!({"match": {"body": "quick fox"}})),
        &["1", "2", "3"],
        &[0.7192197, 0.6865916, 0.3299978],
    );
    let (_d, legacy) = index(json!({"index.similarity.default.type": "LegacyBM25"}), text());
    let q = json!({"match": {"body": "quick fox"}});
    assert_scores(&scores(&legacy, q), &["1", "2", "3"], &[1.5822833, 1.5105016, 0.72599524]);
    assert_scores(&scores(&legacy, json!({"match_phrase": {"body": "brown fox"}})), &["1"], &[1.5822833]);
    // Constant scores stay 1 on the legacy scale: a bool mixing them ranks as OpenSearch does.
    let mixed = json!({"bool": {"should": [{"match": {"body": "brown"}}, {"exists": {"field": "body"}}]}});
    assert_scores(&scores(&legacy, mixed), &["4", "1", "2", "3", "5"], &[2.1672916, 1.9793379, 1.0, 1.0, 1.0]);
}

#[test]
fn custom_k1_and_b_on_both_scales() {
    let (_d, es8) = index(json!({"index": {"similarity": {"default": {"type": "BM25", "k1": 0.9, "b": 0.4}}}}), text());
    let q = json!({"match": {"body": "quick fox dog"}});
    assert_scores(&scores(&es8, q.clone()), &["2", "1", "3"], &[1.498316, 0.7829143, 0.3221095]);
    let legacy_settings = json!({"index.similarity.default.type": "LegacyBM25", "index.similarity.default.k1": 1.5, "index.similarity.default.b": 0.3});
    let (_d, legacy) = index(legacy_settings, text());
    assert_scores(&scores(&legacy, q), &["2", "1", "3"], &[2.9495008, 1.4837048, 0.6078908]);
}

#[test]
fn boolean_named_and_per_field_similarities() {
    let (_d, boolean) = index(json!({"index.similarity.default.type": "boolean"}), text());
    assert_scores(&scores(&boolean, json!({"match": {"body": "quick fox"}})), &["1", "2", "3"], &[2.0, 2.0, 1.0]);
    let (_d, field) = index(json!({}), json!({"type": "text", "similarity": "boolean"}));
    assert_scores(&scores(&field, json!({"match": {"body": "quick fox"}})), &["1", "2", "3"], &[2.0, 2.0, 1.0]);
    let named = json!({"index.similarity.my.type": "BM25", "index.similarity.my.k1": 2});
    let (_d, named) = index(named, json!({"type": "text", "similarity": "my"}));
    assert_scores(
        &scores(&named, json!({"match": {"body": "fox"}})),
        &["3", "1", "2"],
        &[0.2622145, 0.2064242, 0.1448051],
    );
}

#[test]
fn unknown_similarities_are_refused() {
    let (_dir, engine) = common::engine();
    let err = engine.create_index("a", br#"{"settings": {"index.similarity.default.type": "magic"}}"#).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400));
    let err = engine
        .create_index("b", br#"{"mappings": {"properties": {"body": {"type": "text", "similarity": "mine"}}}}"#)
        .unwrap_err();
    assert_eq!(err.es_type_and_status(), ("mapper_parsing_exception", 400));
}
