//! Aliases and index expressions: reads and writes through an alias (write index, filters),
//! atomic `_aliases` actions, and searches and counts over lists and wildcards.

mod common;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, e) = common::engine();
    for (index, tags) in [("a1", ["x", "y"]), ("a2", ["y", "z"])] {
        e.create_index(index, common::MAPPING.as_bytes()).unwrap();
        let docs: Vec<Value> = tags.iter().enumerate().map(|(i, t)| json!({"status": t, "bytes": i})).collect();
        e.bulk(None, &common::ndjson(index, &docs), RefreshPolicy::Immediate).unwrap();
    }
    (dir, e)
}

fn count(e: &Engine, name: &str, body: Value) -> u64 {
    let reply: Value =
        serde_json::from_str(&e.count_with(name, body.to_string().as_bytes(), &Map::new()).unwrap()).unwrap();
    reply["count"].as_u64().unwrap()
}

#[test]
fn lists_wildcards_and_exclusions() {
    let (_dir, e) = setup();
    assert_eq!(count(&e, "a1,a2", json!({})), 4);
    assert_eq!(count(&e, "a*", json!({})), 4);
    assert_eq!(count(&e, "a*,-a2", json!({})), 2);
    assert_eq!(count(&e, "_all", json!({"query": {"term": {"status": "y"}}})), 2);
    let hits = common::search(&e, "a*", json!({"sort": [{"bytes": "desc"}], "size": 3}));
    assert_eq!(hits["hits"]["total"]["value"], 4);
    assert_eq!(hits["hits"]["hits"].as_array().unwrap().len(), 3);
    assert_eq!(hits["hits"]["hits"][0]["sort"][0], 1);
    assert!(e.count_with("a1,nope", b"{}", &Map::new()).is_err());
    let lenient: Map<String, Value> = [("ignore_unavailable".to_string(), json!("true"))].into_iter().collect();
    assert!(e.count_with("a1,nope", b"{}", &lenient).is_ok());
}

#[test]
fn aliases_read_write_and_filter() {
    let (_dir, e) = setup();
    e.put_alias("a1", "one", b"").unwrap();
    e.update_aliases(br#"{"actions":[{"add":{"index":"a1","alias":"both","is_write_index":true}},{"add":{"index":"a2","alias":"both"}},{"add":{"index":"a2","alias":"zs","filter":{"term":{"status":"z"}}}}]}"#)
        .unwrap();
    assert_eq!(count(&e, "both", json!({})), 4);
    assert_eq!(count(&e, "zs", json!({})), 1);
    // Writes through an alias land in its write index; single-document reads need one index.
    e.index_doc("both", Some("new"), br#"{"status":"w"}"#, &Map::new(), false).unwrap();
    assert_eq!(e.get_doc("one", "new", &Map::new()).unwrap().1, 200);
    assert_eq!(e.get_doc("both", "new", &Map::new()).unwrap_err().status(), 400);
    // Removing and adding in one request is atomic; a missing alias fails the whole request.
    assert!(e
        .update_aliases(
            br#"{"actions":[{"remove":{"index":"a1","alias":"one"}},{"remove":{"index":"a1","alias":"nope"}}]}"#
        )
        .is_err());
    assert_eq!(e.get_aliases(None, Some("one")).unwrap().1, 200);
    e.delete_index("a1").unwrap();
    assert_eq!(e.get_aliases(None, Some("one")).unwrap().1, 404);
    assert_eq!(e.delete_index("zs").unwrap_err().status(), 400);
}
