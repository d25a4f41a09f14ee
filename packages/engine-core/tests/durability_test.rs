mod common;

use std::sync::Arc;

use common::*;
use engine_core::store::bulk::{execute_bulk, parse_bulk};
use engine_core::store::index::IndexHandle;
use serde_json::json;

/// Bulk-acknowledged writes live in the translog; dropping the index without a commit
/// (a crash) and reopening replays them.
#[test]
fn translog_replay_after_crash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idx");
    let mappings = json!({"properties": {"status": {"type": "keyword"}}});
    {
        let handle = Arc::new(
            IndexHandle::create(&path, "idx", &json!({"index": {"refresh_interval": "-1"}}), &mappings).unwrap(),
        );
        let body = ndjson("idx", &[json!({"status": "a"}), json!({"status": "b"})]);
        let resp = execute_bulk(parse_bulk(&body, None).unwrap(), &|_: &str| Ok(handle.clone()), false).unwrap();
        assert!(resp.contains("\"errors\":false"));
        assert_eq!(handle.num_docs(), 0, "not refreshed yet");
        // No refresh, no close: the tantivy writer is dropped with nothing committed.
    }
    let reopened = IndexHandle::open(&path).unwrap();
    assert_eq!(reopened.num_docs(), 2);
    // Replaying again (e.g. a crash right after commit, before truncate) must not duplicate.
    drop(reopened);
    assert_eq!(IndexHandle::open(&path).unwrap().num_docs(), 2);
}

#[test]
fn engine_restart_keeps_indices_mappings_and_docs() {
    let dir = tempfile::tempdir().unwrap();
    {
        let e = engine_core::Engine::open(dir.path()).unwrap();
        e.create_index("logs", MAPPING.as_bytes()).unwrap();
        bulk(&e, "logs", &sample_docs(), false);
        e.close().unwrap();
    }
    let e = engine_core::Engine::open(dir.path()).unwrap();
    let resp = search(&e, "logs", json!({"query": {"term": {"status": "error"}}}));
    assert_eq!(resp["hits"]["total"]["value"], 3);
    let index: serde_json::Value = serde_json::from_str(&e.get_index("logs").unwrap()).unwrap();
    assert_eq!(index["logs"]["mappings"]["properties"]["bytes"]["type"], "long");
    // Versions continue after a restart.
    let again = bulk(&e, "logs", &sample_docs()[..1], true);
    assert_eq!(again["items"][0]["index"]["_version"], 2);
}

#[test]
fn scheduled_refresh_makes_writes_visible() {
    let (_d, e) = engine();
    e.create_index(
        "nrt",
        br#"{"settings":{"refresh_interval":"100ms"},"mappings":{"properties":{"k":{"type":"keyword"}}}}"#,
    )
    .unwrap();
    bulk(&e, "nrt", &[json!({"k": "x"})], false);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        if search(&e, "nrt", json!({}))["hits"]["total"]["value"] == 1 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "refresh never happened");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_data_directory_serves_one_engine_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let first = engine_core::Engine::open(dir.path()).unwrap();
    let err = engine_core::Engine::open(dir.path()).err().expect("second open must fail");
    assert!(err.to_string().contains("in use"), "{err}");
    drop(first);
    assert!(engine_core::Engine::open(dir.path()).is_ok());
}
