//! Elasticsearch 8's `dense_vector` mapping and top-level `knn` search section: scores per
//! similarity against hand-computed values, filters, k against size, the union with `query`,
//! the `similarity` threshold, and ES's errors.
//!
//! OpenSearch 2.19 has neither `dense_vector` nor a top-level `knn`, so the differential
//! conformance suite (which checks every case against a real OpenSearch) cannot cover these:
//! the expected values here come from ES's documented formulas, worked by hand.

mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

/// Creates index `name` with `vec` mapped as `vec_def` (plus a keyword `tag`) and indexes
/// `docs` as `(id, vec, tag)`.
fn index_with(engine: &Engine, name: &str, vec_def: Value, docs: &[(&str, Value, &str)]) {
    let body = json!({"mappings": {"properties": {"vec": vec_def, "tag": {"type": "keyword"}}}});
    engine.create_index(name, body.to_string().as_bytes()).unwrap();
    let mut bulk = String::new();
    for (id, vec, tag) in docs {
        bulk.push_str(&format!(
            "{}\n{}\n",
            json!({"index": {"_index": name, "_id": id}}),
            json!({"vec": vec, "tag": tag})
        ));
    }
    let resp: Value =
        serde_json::from_str(&engine.bulk(None, bulk.as_bytes(), RefreshPolicy::Immediate).unwrap()).unwrap();
    assert_eq!(resp["errors"], false, "{resp}");
}

fn scored(resp: &Value) -> Vec<(String, f64)> {
    resp["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap()))
        .collect()
}

fn assert_scores(resp: &Value, want: &[(&str, f64)]) {
    let got = scored(resp);
    assert_eq!(got.len(), want.len(), "{resp}");
    for ((id, score), (want_id, want_score)) in got.iter().zip(want) {
        assert_eq!(id, want_id, "{resp}");
        assert!((score - want_score).abs() < 1e-5, "doc {id}: score {score}, want {want_score}");
    }
}

fn search_err(engine: &Engine, index: &str, body: Value) -> engine_core::error::EngineError {
    engine.search(index, body.to_string().as_bytes(), &Map::new()).unwrap_err()
}

#[test]
fn each_similarity_scores_as_es_does() {
    let (_d, e) = engine();
    // l2_norm: 1 / (1 + d²). [3, 4] is at distance 5 from the origin.
    index_with(
        &e,
        "l2",
        json!({"type": "dense_vector", "dims": 2, "similarity": "l2_norm"}),
        &[("a", json!([0, 0]), "x"), ("b", json!([3, 4]), "x")],
    );
    let resp = search(&e, "l2", json!({"knn": {"field": "vec", "query_vector": [0, 0], "k": 2}}));
    assert_scores(&resp, &[("a", 1.0), ("b", 1.0 / 26.0)]);

    // cosine: (1 + cos) / 2, whatever the lengths.
    index_with(
        &e,
        "cos",
        json!({"type": "dense_vector", "dims": 2}),
        &[
            ("same", json!([1, 0]), "x"),
            ("diag", json!([5, 5]), "x"),
            ("right", json!([0, 1]), "x"),
            ("opposite", json!([-3, 0]), "x"),
        ],
    );
    let resp = search(&e, "cos", json!({"knn": {"field": "vec", "query_vector": [2, 0], "k": 4}}));
    let half_sqrt2 = std::f64::consts::FRAC_1_SQRT_2;
    assert_scores(&resp, &[("same", 1.0), ("diag", (1.0 + half_sqrt2) / 2.0), ("right", 0.5), ("opposite", 0.0)]);

    // dot_product on unit vectors: (1 + dot) / 2.
    index_with(
        &e,
        "dot",
        json!({"type": "dense_vector", "dims": 2, "similarity": "dot_product"}),
        &[("a", json!([0.6, 0.8]), "x"), ("b", json!([1, 0]), "x")],
    );
    let resp = search(&e, "dot", json!({"knn": {"field": "vec", "query_vector": [1, 0], "k": 2}}));
    assert_scores(&resp, &[("b", 1.0), ("a", 0.8)]);

    // max_inner_product: dot + 1, or 1 / (1 - dot) below zero.
    index_with(
        &e,
        "mip",
        json!({"type": "dense_vector", "dims": 2, "similarity": "max_inner_product"}),
        &[("pos", json!([1, 2]), "x"), ("neg", json!([-1, -2]), "x")],
    );
    let resp = search(&e, "mip", json!({"knn": {"field": "vec", "query_vector": [1, 1], "k": 2}}));
    assert_scores(&resp, &[("pos", 4.0), ("neg", 0.25)]);

    // byte dot_product: 0.5 + dot / (dims * 2^15); no unit-length rule for bytes.
    let def = json!({"type": "dense_vector", "dims": 2, "element_type": "byte", "similarity": "dot_product"});
    index_with(&e, "bytes", def, &[("a", json!([10, 20]), "x")]);
    let resp = search(&e, "bytes", json!({"knn": {"field": "vec", "query_vector": [1, 2], "k": 1}}));
    assert_scores(&resp, &[("a", 0.5 + 50.0 / 65536.0)]);
}

fn points(e: &Engine) {
    // Five points on a line: doc i at [i, 0]; odd ones tagged "odd".
    let docs: Vec<(String, Value, &str)> =
        (1..=5).map(|i| (i.to_string(), json!([i, 0]), if i % 2 == 1 { "odd" } else { "even" })).collect();
    let docs: Vec<(&str, Value, &str)> = docs.iter().map(|(id, v, t)| (id.as_str(), v.clone(), *t)).collect();
    index_with(e, "p", json!({"type": "dense_vector", "dims": 2, "similarity": "l2_norm"}), &docs);
}

#[test]
fn k_size_filter_threshold_and_boost() {
    let (_d, e) = engine();
    points(&e);
    let q = |knn: Value| search(&e, "p", json!({ "knn": knn }));
    // k below the default size: k hits, and hits.total counts the k matches.
    let resp = q(json!({"field": "vec", "query_vector": [0, 0], "k": 2}));
    assert_scores(&resp, &[("1", 0.5), ("2", 0.2)]);
    assert_eq!(resp["hits"]["total"]["value"], 2);
    // size below k: size hits shown, total still k.
    let resp = search(&e, "p", json!({"size": 1, "knn": {"field": "vec", "query_vector": [0, 0], "k": 3}}));
    assert_eq!(scored(&resp).len(), 1);
    assert_eq!(resp["hits"]["total"]["value"], 3);
    // No k: it defaults to size.
    let resp = search(&e, "p", json!({"size": 4, "knn": {"field": "vec", "query_vector": [0, 0]}}));
    assert_eq!(resp["hits"]["total"]["value"], 4);
    // The filter applies before the k nearest are chosen (one object or an array).
    let resp = q(json!({"field": "vec", "query_vector": [0, 0], "k": 2, "filter": {"term": {"tag": "odd"}}}));
    assert_scores(&resp, &[("1", 0.5), ("3", 0.1)]);
    let both = json!([{"term": {"tag": "odd"}}, {"ids": {"values": ["3", "5"]}}]);
    let resp = q(json!({"field": "vec", "query_vector": [0, 0], "k": 2, "filter": both}));
    assert_scores(&resp, &[("3", 0.1), ("5", 1.0 / 26.0)]);
    // similarity: for l2_norm a largest distance. Docs 1 and 2 are within 2 of the origin.
    let resp = q(json!({"field": "vec", "query_vector": [0, 0], "k": 5, "similarity": 2.0}));
    assert_scores(&resp, &[("1", 0.5), ("2", 0.2)]);
    // boost scales the kNN scores.
    let resp = q(json!({"field": "vec", "query_vector": [0, 0], "k": 1, "boost": 3.0}));
    assert_scores(&resp, &[("1", 1.5)]);
}

#[test]
fn knn_hits_join_the_query_hits_and_scores_add_up() {
    let (_d, e) = engine();
    points(&e);
    // The query matches only doc 4 (score 1); kNN's nearest two are 1 and 2.
    let only_4 = json!({"constant_score": {"filter": {"ids": {"values": ["4"]}}, "boost": 1.0}});
    let resp = search(&e, "p", json!({"query": only_4, "knn": {"field": "vec", "query_vector": [0, 0], "k": 2}}));
    assert_scores(&resp, &[("4", 1.0), ("1", 0.5), ("2", 0.2)]);
    assert_eq!(resp["hits"]["total"]["value"], 3);
    // A doc matched by both gets the sum.
    let only_2 = json!({"constant_score": {"filter": {"ids": {"values": ["2"]}}, "boost": 1.0}});
    let resp = search(&e, "p", json!({"query": only_2, "knn": {"field": "vec", "query_vector": [0, 0], "k": 2}}));
    assert_scores(&resp, &[("2", 1.2), ("1", 0.5)]);
    // Two kNN searches: union, and a doc found by both sums both scores. (No ties: which of
    // two equidistant docs wins depends on segment order, which bulk indexing does not fix.)
    let resp = search(
        &e,
        "p",
        json!({"knn": [
            {"field": "vec", "query_vector": [0, 0], "k": 2},
            {"field": "vec", "query_vector": [2.1, 0], "k": 2}
        ]}),
    );
    // First: doc 1 (d² 1) and doc 2 (d² 4). Second: doc 2 (d² 0.01) and doc 3 (d² 0.81).
    let (near, next) = (1.0 / 1.01, 1.0 / 1.81);
    assert_scores(&resp, &[("2", 0.2 + near), ("3", next), ("1", 0.5)]);
}

#[test]
fn mapping_prints_as_es_and_learns_dims() {
    let (dir, e) = engine();
    let body = json!({"mappings": {"properties": {
        "v": {"type": "dense_vector"},
        "b": {"type": "dense_vector", "dims": 2, "element_type": "byte", "similarity": "l2_norm",
              "index_options": {"type": "hnsw", "m": 8}},
        "raw": {"type": "dense_vector", "dims": 2, "index": false}
    }}});
    e.create_index("m", body.to_string().as_bytes()).unwrap();
    let mappings = |e: &Engine| -> Value {
        let got: Value = serde_json::from_str(&e.get_index("m").unwrap()).unwrap();
        got["m"]["mappings"]["properties"].clone()
    };
    let props = mappings(&e);
    assert_eq!(
        props["v"],
        json!({"type": "dense_vector", "index": true, "similarity": "cosine",
               "index_options": {"type": "int8_hnsw", "m": 16, "ef_construction": 100}})
    );
    assert_eq!(
        props["b"],
        json!({"type": "dense_vector", "element_type": "byte", "dims": 2, "index": true, "similarity": "l2_norm",
               "index_options": {"type": "hnsw", "m": 8, "ef_construction": 100}})
    );
    assert_eq!(props["raw"], json!({"type": "dense_vector", "dims": 2, "index": false}));

    // The first vector sets `dims`; later ones must match it.
    bulk(&e, "m", &[json!({"v": [1, 2, 3]})], true);
    assert_eq!(mappings(&e)["v"]["dims"], 3);
    let resp = bulk(&e, "m", &[json!({"v": [1, 2]})], false);
    let error = &resp["items"][0]["index"]["error"];
    assert_eq!(error["type"], "document_parsing_exception");
    assert_eq!(
        error["reason"],
        "failed to parse: The [dense_vector] field [v] in doc [document with id '1'] has a different number of dimensions [2] than defined in the mapping [3]"
    );
    // The learnt dims survive a reopen (they are read back from the stored vectors).
    e.close().unwrap();
    drop(e);
    let e = Engine::open(dir.path()).unwrap();
    assert_eq!(mappings(&e)["v"]["dims"], 3);
    let resp = search(&e, "m", json!({"knn": {"field": "v", "query_vector": [1, 2, 3], "k": 1}}));
    assert_eq!(scored(&resp).len(), 1);
}

#[test]
fn documents_and_queries_get_es_errors() {
    let (_d, e) = engine();
    let dot = json!({"type": "dense_vector", "dims": 2, "similarity": "dot_product"});
    index_with(&e, "d", dot, &[("a", json!([1, 0]), "x")]);
    let item = bulk(&e, "d", &[json!({"vec": [1, 1]})], false)["items"][0]["index"].clone();
    assert_eq!(item["status"], 400);
    assert_eq!(
        item["error"]["reason"],
        "failed to parse: The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: [1.0, 1.0]"
    );
    let item = bulk(&e, "d", &[json!({"vec": [1, 0, 0]})], false)["items"][0]["index"].clone();
    assert!(item["error"]["reason"].as_str().unwrap().contains("has more dimensions than defined in the mapping [2]"));

    let shard_reason =
        |err: engine_core::error::EngineError| err.to_es_body()["error"]["root_cause"][0]["reason"].clone();
    let err = search_err(&e, "d", json!({"knn": {"field": "vec", "query_vector": [1, 0, 0], "k": 1}}));
    assert_eq!(err.status(), 400);
    assert_eq!(
        shard_reason(err),
        "failed to create query: The query vector has a different number of dimensions [3] than the document vectors [2]."
    );
    let err = search_err(&e, "d", json!({"knn": {"field": "vec", "query_vector": [2, 0], "k": 1}}));
    assert!(shard_reason(err).as_str().unwrap().contains("can only be used with unit-length vectors"));
    let err = search_err(&e, "d", json!({"knn": {"field": "tag", "query_vector": [1, 0], "k": 1}}));
    assert_eq!(shard_reason(err), "failed to create query: [knn] queries are only supported on [dense_vector] fields");
    let err =
        search_err(&e, "d", json!({"knn": {"field": "vec", "query_vector": [1, 0], "k": 3, "num_candidates": 2}}));
    assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400));
    assert_eq!(err.to_string(), "[num_candidates] cannot be less than [k]");
    // An unmapped field matches nothing, as in ES.
    let resp = search(&e, "d", json!({"knn": {"field": "nope", "query_vector": [1, 0], "k": 1}}));
    assert_eq!(resp["hits"]["total"]["value"], 0);

    index_with(&e, "r", json!({"type": "dense_vector", "dims": 2, "index": false}), &[("a", json!([1, 0]), "x")]);
    let err = search_err(&e, "r", json!({"knn": {"field": "vec", "query_vector": [1, 0], "k": 1}}));
    assert!(shard_reason(err).as_str().unwrap().contains("its mapping must have [index] set to [true]"));

    let body = json!({"mappings": {"properties": {"v": {"type": "dense_vector", "dims": 5000}}}});
    let err = e.create_index("bad", body.to_string().as_bytes()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("mapper_parsing_exception", 400));
    assert!(err.to_string().contains("The number of dimensions should be in the range [1, 4096] but was [5000]"));
}
