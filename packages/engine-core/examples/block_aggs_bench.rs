//! The block path of numeric aggregations (`aggs/collect/numeric_block.rs`) against the
//! per-document path, in process, in seconds:
//! `cargo run --release --example block_aggs_bench [-- DOCS]` (default 300,000 docs).
//!
//! Each aggregation runs twice over the same matches: unscored (tantivy hands the collector
//! blocks of documents, so the block path runs) and scored (a `must` clause makes tantivy
//! collect one document at a time). The block path must be clearly faster; the run exits 1
//! when any aggregation's block path is not at least `MIN_SPEEDUP` times the per-document one,
//! so a change that silently sends blocks down a slow path (6daa13d made `date_range` 10x
//! slower at 1M) fails here in seconds instead of in a full matrix.

use std::time::{Duration, Instant};

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::Map;

/// The block path reads one bulk column per block; the per-document path makes a dynamic
/// call per document. Measured here: 2-6x. Below this, something sends blocks the slow way.
const MIN_SPEEDUP: f64 = 1.3;
const START_MS: i64 = 1_735_689_600_000; // 2025-01-01
const SPAN_MS: i64 = 30 * 86_400_000;

fn main() {
    let docs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300_000);
    let dir = tempdir();
    let engine = Engine::open(&dir).unwrap();
    engine
        .create_index(
            "b",
            br#"{"mappings":{"properties":{"provider":{"type":"keyword"},"@timestamp":{"type":"date"},"latency_ms":{"type":"long"},"cost":{"type":"double"}}}}"#,
        )
        .unwrap();
    let providers = ["openai", "anthropic", "google", "mistral"];
    let started = Instant::now();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for chunk in (0..docs).collect::<Vec<_>>().chunks(10_000) {
        let mut body = String::new();
        for &i in chunk {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Timestamps in random order, as the harness's corpus has them: runs of equal keys stay short.
            let ts = START_MS + (rng % SPAN_MS as u64) as i64;
            body.push_str(&format!("{{\"index\":{{\"_id\":\"{i}\"}}}}\n"));
            body.push_str(&format!(
                "{{\"provider\":\"{}\",\"@timestamp\":{ts},\"latency_ms\":{},\"cost\":{}}}\n",
                // openai most often (about three in four), the others evenly.
                providers[if (rng >> 30).is_multiple_of(3) { (rng >> 20) as usize % 4 } else { 0 }],
                (rng >> 8) % 20_000,
                ((rng >> 12) % 100_000) as f64 / 1000.0,
            ));
        }
        engine.bulk(Some("b"), body.as_bytes(), RefreshPolicy::None).unwrap();
    }
    engine.refresh("b").unwrap();
    println!("indexed {docs} docs in {:?}", started.elapsed());

    let day = |d: i64| START_MS + d * 86_400_000;
    let aggs = [
        (
            "date_range",
            format!(
                r#"{{"date_range":{{"field":"@timestamp","ranges":[{{"from":{},"to":{}}},{{"from":{},"to":{}}},{{"from":{},"to":{}}}]}}}}"#,
                day(3),
                day(4),
                day(4),
                day(5),
                day(5),
                day(6)
            ),
        ),
        (
            "range",
            r#"{"range":{"field":"latency_ms","ranges":[{"to":100},{"from":100,"to":1000},{"from":1000}]}}"#
                .to_string(),
        ),
        ("histogram", r#"{"histogram":{"field":"latency_ms","interval":500}}"#.to_string()),
        ("avg", r#"{"avg":{"field":"cost"}}"#.to_string()),
    ];
    let mut failed = false;
    println!("{:<12} {:>12} {:>12} {:>8}", "agg", "block", "per-doc", "speedup");
    for (name, agg) in aggs {
        let filter = r#"{"term":{"provider":"openai"}}"#;
        let block = format!(r#"{{"size":0,"query":{{"bool":{{"filter":[{filter}]}}}},"aggs":{{"a":{agg}}}}}"#);
        // Scored (a `must` clause and a page of one hit): tantivy collects document by document.
        let per_doc = format!(r#"{{"size":1,"query":{{"bool":{{"must":[{filter}]}}}},"aggs":{{"a":{agg}}}}}"#);
        let (b, d) = (median_time(&engine, &block), median_time(&engine, &per_doc));
        let speedup = d.as_secs_f64() / b.as_secs_f64();
        let mark = if speedup < MIN_SPEEDUP { "  <- block path not faster" } else { "" };
        failed |= speedup < MIN_SPEEDUP;
        println!("{name:<12} {:>12?} {:>12?} {speedup:>7.2}x{mark}", b, d);
    }
    drop(engine);
    let _ = std::fs::remove_dir_all(&dir);
    if failed {
        eprintln!("block_aggs_bench: an aggregation's block path is under {MIN_SPEEDUP}x its per-document path");
        std::process::exit(1);
    }
}

/// Median of 15 timed searches after 5 untimed ones.
fn median_time(engine: &Engine, body: &str) -> Duration {
    for _ in 0..5 {
        engine.search("b", body.as_bytes(), &Map::new()).unwrap();
    }
    let mut times: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            engine.search("b", body.as_bytes(), &Map::new()).unwrap();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn tempdir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("everycell-block-aggs-{}", std::process::id()))
}
