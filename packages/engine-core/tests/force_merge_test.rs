mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), Value::String(v.to_string()))).collect()
}

/// Three refreshed bulks leave three segments; a force-merge leaves one, keeps every document
/// (including replacements and deletes applied across segments) and answers like ES.
#[test]
fn force_merge_leaves_one_segment_and_every_live_doc() {
    let (_d, e) = engine();
    e.create_index("m", MAPPING.as_bytes()).unwrap();
    for segment in 0..3 {
        let mut body = String::new();
        for i in 0..50 {
            // Ids overlap between segments, so later bulks replace earlier documents.
            let id = segment * 40 + i;
            body.push_str(&format!(
                "{{\"index\":{{\"_id\":\"{id}\"}}}}\n{{\"status\":\"s{segment}\",\"bytes\":{i}}}\n"
            ));
        }
        e.bulk(Some("m"), body.as_bytes(), RefreshPolicy::Immediate).unwrap();
    }
    let before = e.handle("m").unwrap().searcher().segment_readers().len();
    assert!(before >= 2, "expected several segments, got {before}");
    let count_before = search(&e, "m", json!({"size": 0, "track_total_hits": true}))["hits"]["total"]["value"].clone();

    let reply: Value =
        serde_json::from_str(&e.force_merge("m", &params(&[("max_num_segments", "1")])).unwrap()).unwrap();
    assert_eq!(reply["_shards"]["failed"], 0);
    assert_eq!(e.handle("m").unwrap().searcher().segment_readers().len(), 1);
    let count_after = search(&e, "m", json!({"size": 0, "track_total_hits": true}))["hits"]["total"]["value"].clone();
    assert_eq!(count_before, count_after);
    assert_eq!(count_after, json!(130));
}

#[test]
fn force_merge_rejects_bad_parameters() {
    let (_d, e) = engine();
    e.create_index("m", MAPPING.as_bytes()).unwrap();
    let err = e.force_merge("m", &params(&[("max_num_segments", "0")])).unwrap_err();
    assert_eq!(err.es_type_and_status().0, "illegal_argument_exception");
    let err = e.force_merge("m", &params(&[("only_expunge", "x")])).unwrap_err();
    assert_eq!(err.es_type_and_status().0, "illegal_argument_exception");
    assert!(e.force_merge("missing", &Map::new()).is_err());
}
