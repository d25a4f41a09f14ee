//! `routing` on the document APIs of a one-shard index: stored as `_routing`, shown by reads,
//! hits and `top_hits`, kept by updates, replayed from the translog, found by `term`/`terms`,
//! and required where the mapping says `_routing.required`.
mod common;

use common::*;
use serde_json::{json, Map, Value};

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

fn get(e: &engine_core::Engine, index: &str, id: &str, p: &[(&str, &str)]) -> Value {
    serde_json::from_str(&e.get_doc(index, id, &params(p)).unwrap().0).unwrap()
}

#[test]
fn routing_is_stored_shown_kept_and_searchable() {
    let (_d, e) = engine();
    e.create_index("r", MAPPING.as_bytes()).unwrap();
    e.index_doc("r", Some("1"), br#"{"status":"a","bytes":1}"#, &params(&[("routing", "tenant-1")]), false).unwrap();
    e.index_doc("r", Some("2"), br#"{"status":"a","bytes":2}"#, &Map::new(), false).unwrap();
    // One shard: a read without routing finds the document too, and shows its routing.
    assert_eq!(get(&e, "r", "1", &[])["_routing"], "tenant-1");
    assert_eq!(get(&e, "r", "2", &[]).get("_routing"), None);
    // An update without routing keeps the document's; one with routing replaces it.
    e.update_doc("r", "1", br#"{"doc":{"bytes":10}}"#, &Map::new()).unwrap();
    assert_eq!(get(&e, "r", "1", &[])["_routing"], "tenant-1");
    e.update_doc("r", "2", br#"{"doc":{"bytes":20}}"#, &params(&[("routing", "tenant-2")])).unwrap();
    assert_eq!(get(&e, "r", "2", &[])["_routing"], "tenant-2");
    e.refresh("r").unwrap();
    let hits = search(&e, "r", json!({"query": {"term": {"_routing": "tenant-1"}}}));
    assert_eq!(hits["hits"]["total"]["value"], 1);
    assert_eq!(hits["hits"]["hits"][0]["_id"], "1");
    assert_eq!(hits["hits"]["hits"][0]["_routing"], "tenant-1");
    let both = search(&e, "r", json!({"query": {"terms": {"_routing": ["tenant-1", "tenant-2", "x"]}}}));
    assert_eq!(both["hits"]["total"]["value"], 2);
    let top = search(&e, "r", json!({"size": 0, "aggs": {"t": {"top_hits": {"sort": [{"bytes": "asc"}]}}}}));
    assert_eq!(top["aggregations"]["t"]["hits"]["hits"][0]["_routing"], "tenant-1");
    let mget: Value = serde_json::from_str(&e.mget(Some("r"), br#"{"ids":["2"]}"#, &Map::new()).unwrap()).unwrap();
    assert_eq!(mget["docs"][0]["_routing"], "tenant-2");
}

#[test]
fn bulk_routing_comes_from_the_line_or_the_url_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let e = engine_core::Engine::open(dir.path()).unwrap();
        e.create_index("r", MAPPING.as_bytes()).unwrap();
        let body = concat!(
            "{\"index\":{\"_index\":\"r\",\"_id\":\"1\"}}\n{\"bytes\":1}\n",
            "{\"index\":{\"_index\":\"r\",\"_id\":\"2\",\"routing\":\"own\"}}\n{\"bytes\":2}\n",
        );
        let reply = e.bulk_with(None, body.as_bytes(), &params(&[("routing", "url")])).unwrap();
        assert!(reply.contains("\"errors\":false"), "{reply}");
        // No refresh, no close: the routing values come back from the translog.
    }
    let e = engine_core::Engine::open(dir.path()).unwrap();
    assert_eq!(get(&e, "r", "1", &[])["_routing"], "url");
    assert_eq!(get(&e, "r", "2", &[])["_routing"], "own");
}

#[test]
fn required_routing_is_enforced_on_every_document_api() {
    let (_d, e) = engine();
    let mapping = r#"{"mappings":{"_routing":{"required":true},"properties":{"k":{"type":"keyword"}}}}"#;
    e.create_index("q", mapping.as_bytes()).unwrap();
    let missing = |r: engine_core::Result<(String, u16)>| {
        let err = r.unwrap_err();
        assert_eq!(err.es_type_and_status(), ("routing_missing_exception", 400));
        assert_eq!(err.to_string(), "routing is required for [q]/[1]");
    };
    missing(e.index_doc("q", Some("1"), br#"{"k":"a"}"#, &Map::new(), false));
    e.index_doc("q", Some("1"), br#"{"k":"a"}"#, &params(&[("routing", "a")]), false).unwrap();
    missing(e.get_doc("q", "1", &Map::new()));
    assert_eq!(get(&e, "q", "1", &[("routing", "a")])["found"], true);
    missing(e.update_doc("q", "1", br#"{"doc":{"k":"b"}}"#, &Map::new()));
    missing(e.delete_doc("q", "1", &Map::new()));
    let mget: Value = serde_json::from_str(
        &e.mget(Some("q"), br#"{"docs":[{"_id":"1"},{"_id":"1","routing":"a"}]}"#, &Map::new()).unwrap(),
    )
    .unwrap();
    assert_eq!(mget["docs"][0]["error"]["type"], "routing_missing_exception");
    assert_eq!(mget["docs"][1]["found"], true);
    let bulk = e.bulk_with(None, b"{\"delete\":{\"_index\":\"q\",\"_id\":\"1\"}}\n", &Map::new()).unwrap();
    assert!(bulk.contains("routing_missing_exception"), "{bulk}");
    // The option shows in the mapping and cannot change.
    let index: Value = serde_json::from_str(&e.get_index("q").unwrap()).unwrap();
    assert_eq!(index["q"]["mappings"]["_routing"]["required"], true);
    assert!(e.put_mapping("q", br#"{"_routing":{"required":false}}"#).is_err());
    assert!(e.put_mapping("q", br#"{"_routing":{"required":true}}"#).is_ok());
    e.delete_doc("q", "1", &params(&[("routing", "a")])).unwrap();
}
