//! kNN in process: latency and recall@10 of the `knn` query over clustered vectors, the shape
//! of the harness's vector index, after a force merge to one segment (so a large enough index
//! is searched through its HNSW graph, `knn/graph.rs`):
//! `cargo run --release --example knn_bench [-- DOCS [DIMS]]` (default 1,000,000 x 64).
//!
//! Prints the load, merge (graph build) and per-query times, and recall@10 against a brute
//! force over the same vectors, so a change to the graph's parameters is judged on both.

use std::time::Instant;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const CLUSTERS: usize = 80;
const QUERIES: usize = 200;
const K: usize = 10;

/// Timed passes over the queries (`KNN_BENCH_PASSES`, default 1; more for a profiler to attach).
fn passes() -> usize {
    std::env::var("KNN_BENCH_PASSES").ok().and_then(|v| v.parse().ok()).unwrap_or(1)
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// About normal (a sum of uniforms).
    fn normal(&mut self) -> f32 {
        ((0..6).map(|_| self.unit()).sum::<f32>() - 3.0) * std::f32::consts::SQRT_2
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let docs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dims: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let centres: Vec<f32> = (0..CLUSTERS * dims).map(|_| rng.normal() * 4.0).collect();
    let spread: Vec<f32> = (0..CLUSTERS).map(|_| 0.5 + rng.unit() * 1.5).collect();
    let draw = |rng: &mut Rng| {
        let c = (rng.next() as usize) % CLUSTERS;
        (0..dims).map(|d| centres[c * dims + d] + spread[c] * rng.normal()).collect::<Vec<f32>>()
    };
    let vectors: Vec<Vec<f32>> = (0..docs).map(|_| draw(&mut rng)).collect();
    let queries: Vec<Vec<f32>> = (0..QUERIES).map(|_| draw(&mut rng)).collect();

    // KNN_BENCH_DIR keeps the engine's data there (to serve it afterwards); else a temp dir.
    let kept = std::env::var_os("KNN_BENCH_DIR").map(std::path::PathBuf::from);
    let dir = kept
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("everycell-knn-bench-{}", std::process::id())));
    let engine = Engine::open(&dir).unwrap();
    let mapping = json!({
        "settings": {"index": {"knn": true, "number_of_shards": 1, "refresh_interval": "-1"}},
        "mappings": {"properties": {"v": {"type": "knn_vector", "dimension": dims,
            "method": {"name": "hnsw", "engine": "lucene", "space_type": "l2"}}}}
    });
    engine.create_index("k", mapping.to_string().as_bytes()).unwrap();
    let started = Instant::now();
    for (n, chunk) in vectors.chunks(10_000).enumerate() {
        let mut body = String::new();
        for (i, v) in chunk.iter().enumerate() {
            body.push_str(&format!("{{\"index\":{{\"_id\":\"{}\"}}}}\n{}\n", n * 10_000 + i, json!({ "v": v })));
        }
        engine.bulk(Some("k"), body.as_bytes(), RefreshPolicy::None).unwrap();
    }
    engine.refresh("k").unwrap();
    println!("load {docs} x {dims}: {:.1} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    let mut one = Map::new();
    one.insert("max_num_segments".into(), json!("1"));
    engine.force_merge("k", &one).unwrap();
    println!("force merge (with the graph): {:.1} s", started.elapsed().as_secs_f64());

    // Timed first, all queries in a row; recall after, against a brute force.
    let mut times = Vec::with_capacity(QUERIES);
    let mut answers = Vec::with_capacity(QUERIES);
    for _pass in 0..passes() {
        times.clear();
        answers.clear();
        for q in &queries {
            let body = json!({"query": {"knn": {"v": {"vector": q, "k": K}}}, "size": K, "_source": false});
            let started = Instant::now();
            let resp = engine.search("k", body.to_string().as_bytes(), &Map::new()).unwrap();
            times.push(started.elapsed().as_secs_f64() * 1e3);
            answers.push(serde_json::from_str::<Value>(&resp).unwrap());
        }
    }
    let mut found = 0;
    for (q, resp) in queries.iter().zip(&answers) {
        let mut exact: Vec<(f32, usize)> = vectors
            .iter()
            .enumerate()
            .map(|(i, v)| (v.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum::<f32>(), i))
            .collect();
        exact.select_nth_unstable_by(K, |a, b| a.0.total_cmp(&b.0));
        let truth: Vec<String> = exact[..K].iter().map(|(_, i)| i.to_string()).collect();
        found +=
            resp["hits"]["hits"].as_array().unwrap().iter().filter(|h| truth.iter().any(|t| h["_id"] == *t)).count();
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "search: mean {mean:.3} ms, p50 {:.3} ms, p99 {:.3} ms; recall@{K} {:.4}",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        found as f64 / (QUERIES * K) as f64
    );
    drop(engine);
    if kept.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
