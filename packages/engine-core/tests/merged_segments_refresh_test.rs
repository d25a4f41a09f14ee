//! tantivy merges in the background and commits the merged segment; like Lucene's reader after a
//! merge, searches' reader is then not current, and a refresh (asked for or scheduled) opens the
//! merged segment although no write is pending.

mod common;

use std::time::{Duration, Instant};

use common::*;
use engine_core::engine::{Engine, RefreshPolicy};
use serde_json::json;

const BULKS: usize = 8;

/// Eight refreshed bulks: eight small segments of the same size, the number at which tantivy's
/// merge policy merges one level, in the background, after the eighth bulk's commit. Returns the
/// engine once searches still read all eight (the merge has not finished before that bulk's
/// reload, the usual order: a merge takes milliseconds, a reload microseconds); a few attempts.
fn index_in_small_segments(body: &str) -> (tempfile::TempDir, Engine) {
    for _ in 0..10 {
        let (dir, e) = engine();
        e.create_index("m", body.as_bytes()).unwrap();
        for segment in 0..BULKS {
            let mut bulk = String::new();
            for i in 0..20 {
                let id = segment * 20 + i;
                bulk.push_str(&format!(
                    "{{\"index\":{{\"_id\":\"{id}\"}}}}\n{{\"status\":\"s{segment}\",\"bytes\":{i}}}\n"
                ));
            }
            e.bulk(Some("m"), bulk.as_bytes(), RefreshPolicy::Immediate).unwrap();
        }
        if searched_segments(&e) == BULKS {
            return (dir, e);
        }
    }
    panic!("in ten attempts the merge always finished before the last bulk's reload");
}

fn searched_segments(e: &Engine) -> usize {
    e.handle("m").unwrap().searcher().segment_readers().len()
}

fn committed_segments(e: &Engine) -> usize {
    e.handle("m").unwrap().searcher().index().searchable_segment_ids().unwrap().len()
}

/// Waits (at most `limit`) until `done` holds; false if it never did.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

fn total(e: &Engine) -> serde_json::Value {
    search(e, "m", json!({"size": 0, "track_total_hits": true}))["hits"]["total"]["value"].clone()
}

#[test]
fn an_asked_refresh_opens_segments_merged_in_the_background() {
    // refresh_interval -1: nothing refreshes on its own, so only the asked refresh can reload.
    let (_d, e) = index_in_small_segments(MAPPING);
    assert!(
        within(Duration::from_secs(60), || committed_segments(&e) == 1),
        "tantivy never merged: {} committed segments",
        committed_segments(&e)
    );
    assert_eq!(searched_segments(&e), BULKS, "searches reloaded without a refresh");
    let before = total(&e);

    e.refresh("m").unwrap();
    assert_eq!(searched_segments(&e), 1);
    assert_eq!(total(&e), before);
    assert_eq!(before, json!(BULKS * 20));
}

#[test]
fn the_scheduled_refresh_opens_segments_merged_in_the_background() {
    let body = MAPPING.replace(r#""refresh_interval":"-1""#, r#""refresh_interval":"200ms""#);
    assert_ne!(body, MAPPING);
    let (_d, e) = index_in_small_segments(&body);
    assert!(
        within(Duration::from_secs(60), || searched_segments(&e) == 1),
        "searches still read {} segments, {} committed",
        searched_segments(&e),
        committed_segments(&e)
    );
    assert_eq!(committed_segments(&e), 1);
    assert_eq!(total(&e), json!(BULKS * 20));
}
