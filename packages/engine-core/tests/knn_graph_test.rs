//! kNN over a segment large enough for an HNSW graph (`knn::graph`): the graph is built by
//! the force merge that makes the segment (reported as the index's `warmer` stats), searches
//! find nearly the exact neighbours with their exact scores, deleted documents never come
//! back, and filtered searches stay exact.

mod common;

use std::collections::HashSet;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

const DIM: usize = 8;
/// One more than the fewest rows a segment needs for a graph.
const DOCS: usize = 100_001;

fn vectors(n: usize, seed: u64) -> Vec<Vec<f32>> {
    xorshift_vectors(n, DIM, seed)
}

/// Ids of the `k` nearest by brute force among the docs `keep` accepts (ties to the lower id).
fn brute_force(docs: &[Vec<f32>], q: &[f32], k: usize, keep: impl Fn(usize) -> bool) -> Vec<String> {
    let mut scored: Vec<(f32, usize)> =
        docs.iter().enumerate().filter(|(id, _)| keep(*id)).map(|(id, v)| (l2(v, q), id)).collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(k).map(|(_, id)| id.to_string()).collect()
}

fn hits(resp: &Value) -> Vec<(String, f32)> {
    resp["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap() as f32))
        .collect()
}

fn load(engine: &engine_core::Engine, docs: &[Vec<f32>]) {
    let mapping = json!({
        "settings": {"index": {"knn": true, "refresh_interval": "-1"}},
        "mappings": {"properties": {
            "vec": {"type": "knn_vector", "dimension": DIM,
                    "method": {"name": "hnsw", "engine": "lucene", "space_type": "l2"}},
            "tag": {"type": "keyword"}
        }}
    });
    engine.create_index("v", mapping.to_string().as_bytes()).unwrap();
    for (chunk_no, chunk) in docs.chunks(20_000).enumerate() {
        let mut body = String::new();
        for (i, v) in chunk.iter().enumerate() {
            let id = chunk_no * 20_000 + i;
            body.push_str(&json!({"index": {"_index": "v", "_id": id.to_string()}}).to_string());
            body.push('\n');
            let tag = if id.is_multiple_of(2) { "even" } else { "odd" };
            body.push_str(&json!({"vec": v, "tag": tag}).to_string());
            body.push('\n');
        }
        let resp: Value =
            serde_json::from_str(&engine.bulk(None, body.as_bytes(), RefreshPolicy::None).unwrap()).unwrap();
        assert_eq!(resp["errors"], false);
    }
    engine.refresh("v").unwrap();
    let mut one = Map::new();
    one.insert("max_num_segments".into(), json!("1"));
    engine.force_merge("v", &one).unwrap();
}

fn warmer(engine: &engine_core::Engine) -> Value {
    let stats: Value = serde_json::from_str(&engine.indices_stats("v", None, &Map::new()).unwrap()).unwrap();
    stats["indices"]["v"]["total"]["warmer"].clone()
}

#[test]
fn a_large_segment_is_searched_through_its_graph() {
    let (_dir, engine) = engine();
    let docs = vectors(DOCS, 7);
    load(&engine, &docs);

    // The force merge returned once the merged segment's graph was built.
    let warm = warmer(&engine);
    assert!(warm["total"].as_u64().unwrap() >= 1, "no graph was built: {warm}");
    assert_eq!(warm["current"], 0, "{warm}");

    let queries = vectors(40, 99);
    let mut found = 0;
    for q in &queries {
        let resp = search(&engine, "v", json!({"query": {"knn": {"vec": {"vector": q, "k": 10}}}, "size": 10}));
        let got = hits(&resp);
        assert_eq!(got.len(), 10);
        // Every hit carries its exact score, best first.
        for (id, score) in &got {
            let d = l2(&docs[id.parse::<usize>().unwrap()], q);
            assert!((score - 1.0 / (1.0 + d)).abs() <= 1e-5, "hit {id}: score {score}, exact distance {d}");
        }
        assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
        let want: HashSet<String> = brute_force(&docs, q, 10, |_| true).into_iter().collect();
        found += got.iter().filter(|(id, _)| want.contains(id)).count();
    }
    let recall = found as f64 / (queries.len() * 10) as f64;
    assert!(recall >= 0.95, "recall@10 {recall}");

    // A filtered search scans: exactly the nearest even docs.
    let q = &queries[0];
    let resp = search(
        &engine,
        "v",
        json!({"query": {"knn": {"vec": {"vector": q, "k": 10, "filter": {"term": {"tag": "even"}}}}}, "size": 10}),
    );
    let got: Vec<String> = hits(&resp).into_iter().map(|(id, _)| id).collect();
    assert_eq!(got, brute_force(&docs, q, 10, |id| id % 2 == 0));
}

#[test]
fn deleted_documents_never_come_back_from_the_graph() {
    let (_dir, engine) = engine();
    let docs = vectors(DOCS, 11);
    load(&engine, &docs);
    assert!(warmer(&engine)["total"].as_u64().unwrap() >= 1);

    let q = &vectors(1, 5)[0];
    let nearest = brute_force(&docs, q, 5, |_| true);
    for id in &nearest {
        engine.delete_doc("v", id, &Map::new()).unwrap();
    }
    engine.refresh("v").unwrap();
    let resp = search(&engine, "v", json!({"query": {"knn": {"vec": {"vector": q, "k": 10}}}, "size": 10}));
    let got: Vec<String> = hits(&resp).into_iter().map(|(id, _)| id).collect();
    assert_eq!(got.len(), 10);
    for id in &nearest {
        assert!(!got.contains(id), "deleted doc {id} came back: {got:?}");
    }
    assert_eq!(resp["hits"]["total"]["value"], 10);
}
