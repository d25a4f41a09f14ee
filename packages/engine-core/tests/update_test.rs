//! `_update` under contention: threads racing read-modify-write on one document lose no
//! change when they may retry, and fail with ES's 409 when they may not.

mod common;

use std::sync::Arc;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn setup() -> (tempfile::TempDir, Arc<Engine>) {
    let (dir, engine) = common::engine();
    engine.create_index("u", common::MAPPING.as_bytes()).unwrap();
    engine
        .bulk(None, b"{\"index\":{\"_index\":\"u\",\"_id\":\"1\"}}\n{\"bytes\":1}\n", RefreshPolicy::Immediate)
        .unwrap();
    (dir, Arc::new(engine))
}

fn race(engine: &Arc<Engine>, retries: &str) -> Vec<Result<u16, String>> {
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let engine = engine.clone();
            let retries = retries.to_string();
            std::thread::spawn(move || {
                let params: Map<String, Value> =
                    [("retry_on_conflict".to_string(), json!(retries))].into_iter().collect();
                (0..10)
                    .map(|i| {
                        let body = json!({"doc": {format!("t{t}_{i}"): i}}).to_string();
                        engine.update_doc("u", "1", body.as_bytes(), &params).map(|(_, s)| s).map_err(|e| {
                            let (kind, status) = e.es_type_and_status();
                            format!("{kind} {status}")
                        })
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    threads.into_iter().flat_map(|t| t.join().unwrap()).collect()
}

#[test]
fn racing_updates_with_retries_lose_nothing() {
    let (_dir, engine) = setup();
    let results = race(&engine, "1000");
    assert!(results.iter().all(|r| r == &Ok(200)), "{results:?}");
    let (doc, _) = engine.get_doc("u", "1", &Map::new()).unwrap();
    let doc: Value = serde_json::from_str(&doc).unwrap();
    let source = doc["_source"].as_object().unwrap();
    assert_eq!(source.len(), 1 + 4 * 10, "every thread's every field landed");
    assert_eq!(doc["_version"], 41);
}

#[test]
fn racing_updates_without_retries_fail_with_409_not_silently() {
    let (_dir, engine) = setup();
    let results = race(&engine, "0");
    let ok = results.iter().filter(|r| r == &&Ok(200)).count();
    let conflicts = results.iter().filter(|r| r == &&Err("version_conflict_engine_exception 409".into())).count();
    assert_eq!(ok + conflicts, 40, "{results:?}");
    let (doc, _) = engine.get_doc("u", "1", &Map::new()).unwrap();
    let doc: Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(doc["_source"].as_object().unwrap().len(), 1 + ok, "exactly the acknowledged updates landed");
}
