//! In-process timing of bulk and a few searches, without HTTP: `cargo run --release --example micro_bench`.

use std::time::Instant;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::Map;

fn main() {
    let dir = std::env::temp_dir().join(format!("everycell-bench-{}", std::process::id()));
    let engine = Engine::open(&dir).unwrap();
    engine
        .create_index("b", br#"{"mappings":{"properties":{"status":{"type":"keyword"},"bytes":{"type":"long"},"ts":{"type":"date"},"msg":{"type":"text"},"tenant":{"type":"keyword"},"model":{"type":"keyword"},"uid":{"type":"keyword"}}}}"#)
        .unwrap();
    let statuses = ["ok", "warn", "error", "debug", "info"];
    let models = ["gpt", "claude", "llama", "mistral"];
    let started = Instant::now();
    for chunk in 0..20 {
        let mut body = String::new();
        for i in chunk * 5000..(chunk + 1) * 5000 {
            body.push_str(&format!("{{\"index\":{{\"_id\":\"{i}\"}}}}\n"));
            body.push_str(&format!(
                "{{\"status\":\"{}\",\"bytes\":{i},\"ts\":{},\"msg\":\"message number {i} from host{}\",\"tenant\":\"tenant-{:03}\",\"model\":\"{}-{}.{}\",\"uid\":\"u-{i}\"}}\n",
                statuses[i % 5],
                1_704_067_200_000i64 + i as i64 * 60_000,
                i % 50,
                (i * 7) % 500,
                models[i % 4],
                i % 13,
                i % 7
            ));
        }
        engine.bulk(Some("b"), body.as_bytes(), RefreshPolicy::None).unwrap();
    }
    println!("bulk 100k: {:?}", started.elapsed());
    engine.refresh("b").unwrap();
    for (name, body) in [
        ("term", r#"{"query":{"term":{"status":"warn"}}}"#),
        ("term size0", r#"{"size":0,"query":{"term":{"status":"warn"}}}"#),
        ("match", r#"{"query":{"match":{"msg":"host7"}}}"#),
        (
            "aggs",
            r#"{"size":0,"aggs":{"s":{"terms":{"field":"status"}},"h":{"date_histogram":{"field":"ts","calendar_interval":"day"}}}}"#,
        ),
        ("sort", r#"{"size":100,"query":{"range":{"bytes":{"gte":1000,"lt":90000}}},"sort":[{"ts":"desc"}]}"#),
        // The scorecard's three slow rows, in the harness's request shapes.
        ("regexp", r#"{"query":{"regexp":{"model":"gpt(-[a-z0-9.]+)+"}}}"#),
        (
            "cardinality",
            r#"{"size":0,"query":{"range":{"ts":{"gte":1704067200000,"lt":1706659200000}}},"aggs":{"t":{"cardinality":{"field":"tenant"}}}}"#,
        ),
        ("cardinality 100k distinct", r#"{"size":0,"aggs":{"u":{"cardinality":{"field":"uid"}}}}"#),
    ] {
        let n = if name.contains("100k") { 5 } else { 200 };
        let t = Instant::now();
        for _ in 0..n {
            engine.search("b", body.as_bytes(), &Map::new()).unwrap();
        }
        println!("{name}: {:?} per query", t.elapsed() / n);
    }
    let n = 500;
    let t = Instant::now();
    for q in 0..n {
        let ids: Vec<String> = (0..20).map(|k| format!("\"{}\"", (q * 7919 + k * 4973) % 100_000)).collect();
        let body = format!("{{\"ids\":[{}]}}", ids.join(","));
        engine.mget(Some("b"), body.as_bytes(), &Map::new()).unwrap();
    }
    println!("mget 20 ids: {:?} per request", t.elapsed() / n);
    engine.close().unwrap();
    drop(engine);
    let _ = std::fs::remove_dir_all(&dir);
}
