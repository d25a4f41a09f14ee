//! `knn_vector` mapping and the `knn` query: exact neighbours and OpenSearch's l2 scores,
//! dimension checks, deletes and updates, filters.

mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const DIM: usize = 8;

fn mapping(dim: usize) -> String {
    json!({
        "settings": {"index": {"knn": true, "refresh_interval": "-1"}},
        "mappings": {"properties": {
            "vec": {"type": "knn_vector", "dimension": dim,
                    "method": {"name": "hnsw", "engine": "lucene", "space_type": "l2"}},
            "tag": {"type": "keyword"}
        }}
    })
    .to_string()
}

fn vectors(n: usize, seed: u64) -> Vec<Vec<f32>> {
    xorshift_vectors(n, DIM, seed)
}

/// Indexes `vecs` with ids `first..`, tagging even ids "even", and refreshes (one segment per call).
fn index(engine: &Engine, vecs: &[Vec<f32>], first: usize) -> Value {
    let mut body = String::new();
    for (i, v) in vecs.iter().enumerate() {
        let id = first + i;
        body.push_str(&json!({"index": {"_index": "v", "_id": id.to_string()}}).to_string());
        body.push('\n');
        let tag = if id.is_multiple_of(2) { "even" } else { "odd" };
        body.push_str(&json!({"vec": v, "tag": tag}).to_string());
        body.push('\n');
    }
    serde_json::from_str(&engine.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap()).unwrap()
}

/// Ids and scores of the `k` nearest by brute force, among `(id, vector)` pairs.
fn brute_force(docs: &[(usize, Vec<f32>)], q: &[f32], k: usize) -> Vec<(String, f32)> {
    let mut scored: Vec<(f32, usize)> = docs.iter().map(|(id, v)| (l2(v, q), *id)).collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(k).map(|(d, id)| (id.to_string(), 1.0 / (1.0 + d))).collect()
}

fn knn(engine: &Engine, q: &[f32], k: usize, size: usize) -> Value {
    search(engine, "v", json!({"query": {"knn": {"vec": {"vector": q, "k": k}}}, "size": size}))
}

fn hits(resp: &Value) -> Vec<(String, f32)> {
    resp["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap() as f32))
        .collect()
}

fn assert_same(got: &[(String, f32)], want: &[(String, f32)]) {
    let ids = |v: &[(String, f32)]| v.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(got), ids(want));
    for ((_, g), (_, w)) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-5 * w.max(1.0), "score {g} vs {w}");
    }
}

/// 300 vectors over three segments.
fn loaded() -> (tempfile::TempDir, Engine, Vec<(usize, Vec<f32>)>) {
    let (dir, engine) = engine();
    engine.create_index("v", mapping(DIM).as_bytes()).unwrap();
    let all = vectors(300, 42);
    for chunk in 0..3 {
        let resp = index(&engine, &all[chunk * 100..(chunk + 1) * 100], chunk * 100);
        assert_eq!(resp["errors"], false, "{resp}");
    }
    let docs = all.into_iter().enumerate().collect();
    (dir, engine, docs)
}

#[test]
fn returns_exactly_the_k_nearest_with_l2_scores() {
    let (_d, e, docs) = loaded();
    for q in vectors(20, 7) {
        let resp = knn(&e, &q, 10, 10);
        assert_same(&hits(&resp), &brute_force(&docs, &q, 10));
        assert_eq!(resp["hits"]["total"]["value"], 10, "total is k, as OpenSearch's lucene engine reports");
    }
    // `size` below k shows the nearest `size`; k below size returns only k.
    let q = &vectors(1, 99)[0];
    assert_same(&hits(&knn(&e, q, 10, 3)), &brute_force(&docs, q, 3));
    assert_same(&hits(&knn(&e, q, 4, 10)), &brute_force(&docs, q, 4));
    // A stored vector is its own nearest neighbour with the top score of 1.
    let own = hits(&knn(&e, &docs[123].1, 1, 1));
    assert_eq!(own[0].0, "123");
    assert!((own[0].1 - 1.0).abs() < 1e-6);
}

#[test]
fn dimension_mismatch_is_a_400_at_index_and_query_time() {
    let (_d, e, _) = loaded();
    let resp = index(&e, &[vec![1.0; DIM - 1]], 1000);
    assert_eq!(resp["errors"], true);
    let item = &resp["items"][0]["index"];
    assert_eq!(item["status"], 400, "{item}");
    assert_eq!(item["error"]["type"], "mapper_parsing_exception");
    assert!(item["error"]["reason"].as_str().unwrap().contains("Vector dimension mismatch. Expected: 8, Given: 7"));
    let bad = json!({"vec": vec!["x"; DIM]}).to_string();
    let body = format!("{{\"index\":{{\"_index\":\"v\",\"_id\":\"x\"}}}}\n{bad}\n");
    let resp: Value = serde_json::from_str(&e.bulk(None, body.as_bytes(), RefreshPolicy::None).unwrap()).unwrap();
    assert_eq!(resp["items"][0]["index"]["status"], 400);

    let err = e.search(
        "v",
        json!({"query": {"knn": {"vec": {"vector": [1.0, 2.0], "k": 3}}}}).to_string().as_bytes(),
        &Map::new(),
    );
    let err = err.unwrap_err();
    assert_eq!(err.status(), 400);
    assert!(err.to_string().contains("Query vector has invalid dimension: 2. Dimension should be: 8"), "{err}");
    let err = e
        .search("v", json!({"query": {"knn": {"tag": {"vector": [1.0], "k": 3}}}}).to_string().as_bytes(), &Map::new())
        .unwrap_err();
    assert!(err.to_string().contains("is not knn_vector type"), "{err}");
}

#[test]
fn bad_mappings_are_refused() {
    let (_d, e) = engine();
    let body = json!({"mappings": {"properties": {"vec": {"type": "knn_vector"}}}}).to_string();
    let err = e.create_index("a", body.as_bytes()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("mapper_parsing_exception", 400));
    let body =
        json!({"mappings": {"properties": {"vec": {"type": "knn_vector", "dimension": 2, "space_type": "linf"}}}});
    assert!(e.create_index("b", body.to_string().as_bytes()).is_err());
}

#[test]
fn deletes_and_updates_are_respected() {
    let (_d, e, mut docs) = loaded();
    let q = vectors(1, 5)[0].clone();
    let nearest = brute_force(&docs, &q, 1)[0].0.clone();
    let body = format!("{{\"delete\":{{\"_index\":\"v\",\"_id\":\"{nearest}\"}}}}\n");
    e.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
    docs.retain(|(id, _)| id.to_string() != nearest);
    let got = hits(&knn(&e, &q, 10, 10));
    assert!(got.iter().all(|(id, _)| *id != nearest), "deleted doc {nearest} came back");
    assert_same(&got, &brute_force(&docs, &q, 10));

    // Moving doc 7 onto the query vector makes it the nearest, and its old vector is gone.
    let old = docs.iter().find(|(id, _)| *id == 7).unwrap().1.clone();
    index(&e, std::slice::from_ref(&q), 7);
    let got = hits(&knn(&e, &q, 10, 10));
    assert_eq!(got[0].0, "7");
    assert!((got[0].1 - 1.0).abs() < 1e-6);
    let around_old = hits(&knn(&e, &old, 1, 1));
    assert_ne!(around_old[0].1, 1.0, "the old vector of doc 7 still matches exactly");
}

#[test]
fn filters_inside_knn_and_around_it() {
    let (_d, e, docs) = loaded();
    let q = vectors(1, 11)[0].clone();
    let even: Vec<_> = docs.iter().filter(|(id, _)| id.is_multiple_of(2)).cloned().collect();
    // Inside the knn query the filter applies first: k nearest among the even docs.
    let inside =
        search(&e, "v", json!({"query": {"knn": {"vec": {"vector": q, "k": 5, "filter": {"term": {"tag": "even"}}}}}}));
    assert_same(&hits(&inside), &brute_force(&even, &q, 5));
    // A bool filter around it applies after: the even docs among the k nearest overall.
    let around = search(
        &e,
        "v",
        json!({"query": {"bool": {"must": [{"knn": {"vec": {"vector": q, "k": 10}}}], "filter": [{"term": {"tag": "even"}}]}}}),
    );
    let want: Vec<_> = brute_force(&docs, &q, 10)
        .into_iter()
        .filter(|(id, _)| id.parse::<usize>().unwrap().is_multiple_of(2))
        .collect();
    assert_same(&hits(&around), &want);
    // `_count` counts the k chosen docs.
    let count: Value = serde_json::from_str(
        &e.count("v", json!({"query": {"knn": {"vec": {"vector": q, "k": 7}}}}).to_string().as_bytes()).unwrap(),
    )
    .unwrap();
    assert_eq!(count["count"], 7);
}

#[test]
fn survives_a_merge_and_a_reopen() {
    let (dir, e, docs) = loaded();
    let q = vectors(1, 3)[0].clone();
    let before = hits(&knn(&e, &q, 10, 10));
    e.force_merge("v", &Map::new()).unwrap();
    assert_same(&hits(&knn(&e, &q, 10, 10)), &before);
    e.close().unwrap();
    drop(e);
    let e = Engine::open(dir.path()).unwrap();
    assert_same(&hits(&knn(&e, &q, 10, 10)), &brute_force(&docs, &q, 10));
}
