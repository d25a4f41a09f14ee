//! Dynamic mapping and `PUT _mapping`: new fields are mapped with ES's rules, become searchable,
//! show in the mapping, survive a reopen (the translog replays under the extended schema), and a
//! type change is refused.

mod common;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn refresh() -> Map<String, Value> {
    [("refresh".to_string(), json!("true"))].into_iter().collect()
}

fn hits(e: &Engine, index: &str, query: Value) -> u64 {
    common::search(e, index, json!({ "query": query }))["hits"]["total"]["value"].as_u64().unwrap()
}

fn mappings(e: &Engine, index: &str) -> Value {
    let body: Value = serde_json::from_str(&e.get_index(index).unwrap()).unwrap();
    body[index]["mappings"].clone()
}

#[test]
fn new_fields_are_mapped_searchable_and_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let e = Engine::open(dir.path()).unwrap();
        e.create_index("d", br#"{"mappings":{"properties":{"tag":{"type":"keyword"}}}}"#).unwrap();
        e.index_doc(
            "d",
            Some("1"),
            br#"{"tag":"a","city":"New York","n":5,"user":{"born":"2020-05-01"}}"#,
            &refresh(),
            false,
        )
        .unwrap();
        let m = mappings(&e, "d");
        assert_eq!(m["properties"]["city"]["fields"]["keyword"]["ignore_above"], 256);
        assert_eq!(m["properties"]["n"]["type"], "long");
        assert_eq!(m["properties"]["user"]["properties"]["born"]["type"], "date");
        assert_eq!(hits(&e, "d", json!({"match": {"city": "york"}})), 1);
        assert_eq!(hits(&e, "d", json!({"term": {"city.keyword": "New York"}})), 1);
        assert_eq!(hits(&e, "d", json!({"range": {"user.born": {"gte": "2020-01-01"}}})), 1);
        e.bulk(None, b"{\"index\":{\"_index\":\"d\",\"_id\":\"2\"}}\n{\"extra\":true,\"n\":6}\n", RefreshPolicy::None)
            .unwrap();
    }
    let e = Engine::open(dir.path()).unwrap();
    assert_eq!(hits(&e, "d", json!({"term": {"extra": true}})), 1);
    assert_eq!(hits(&e, "d", json!({"range": {"n": {"gte": 5}}})), 2);
    assert_eq!(mappings(&e, "d")["properties"]["extra"]["type"], "boolean");
}

#[test]
fn put_mapping_adds_fields_and_refuses_type_changes() {
    let (_dir, e) = common::engine();
    e.create_index("m", br#"{"mappings":{"properties":{"tag":{"type":"keyword"}}}}"#).unwrap();
    e.put_mapping("m", br#"{"properties":{"color":{"type":"keyword"}}}"#).unwrap();
    e.index_doc("m", Some("1"), br#"{"color":"red"}"#, &refresh(), false).unwrap();
    assert_eq!(hits(&e, "m", json!({"term": {"color": "red"}})), 1);
    let err = e.put_mapping("m", br#"{"properties":{"tag":{"type":"long"}}}"#).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400));
    let field: Value =
        serde_json::from_str(&e.get_field_mapping("m", "col*", &serde_json::Map::new()).unwrap()).unwrap();
    assert_eq!(field["m"]["mappings"]["color"]["mapping"]["color"]["type"], "keyword");
}

#[test]
fn strict_and_false_dynamic() {
    let (_dir, e) = common::engine();
    e.create_index("s", br#"{"mappings":{"dynamic":"strict","properties":{"a":{"type":"keyword"}}}}"#).unwrap();
    let err = e.index_doc("s", Some("1"), br#"{"a":"x","b":"y"}"#, &Map::new(), false).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("strict_dynamic_mapping_exception", 400));
    e.create_index("f", br#"{"mappings":{"dynamic":false}}"#).unwrap();
    e.index_doc("f", Some("1"), br#"{"free":"text"}"#, &refresh(), false).unwrap();
    assert_eq!(hits(&e, "f", json!({"match": {"free": "text"}})), 0);
    assert_eq!(mappings(&e, "f"), json!({"dynamic": "false"}));
}

#[test]
fn a_bulk_maps_each_new_field_once_and_the_first_type_wins() {
    let (_dir, e) = common::engine();
    let body = concat!(
        "{\"index\":{\"_index\":\"auto\",\"_id\":\"1\"}}\n{\"v\":5,\"w\":\"a\"}\n",
        "{\"index\":{\"_index\":\"auto\",\"_id\":\"2\"}}\n{\"v\":\"five\"}\n",
        "{\"index\":{\"_index\":\"auto\",\"_id\":\"3\"}}\n{\"v\":7,\"z\":1.5}\n",
    );
    let reply: Value = serde_json::from_str(&e.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap()).unwrap();
    let statuses: Vec<_> = reply["items"].as_array().unwrap().iter().map(|i| i["index"]["status"].clone()).collect();
    assert_eq!(statuses, vec![json!(201), json!(400), json!(201)]);
    let m = mappings(&e, "auto");
    assert_eq!(
        (m["properties"]["v"]["type"].clone(), m["properties"]["z"]["type"].clone()),
        (json!("long"), json!("float"))
    );
}

/// A crash after a mapping update: the update was recorded before the document that needed it,
/// so the translog replays the document under the extended schema.
#[test]
fn translog_replays_under_the_extended_schema_after_a_crash() {
    use engine_core::store::bulk::{execute_bulk, parse_bulk};
    use engine_core::store::index::IndexHandle;
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idx");
    {
        let settings = json!({"index": {"refresh_interval": "-1"}});
        let handle =
            IndexHandle::create(&path, "idx", &settings, &json!({"properties": {"a": {"type": "keyword"}}})).unwrap();
        let update = json!({"properties": {"b": {"type": "long"}}});
        let handle = Arc::new(handle.with_mapping(handle.mapping.extend(&update).unwrap(), &update).unwrap());
        let body = b"{\"index\":{\"_index\":\"idx\",\"_id\":\"1\"}}\n{\"a\":\"x\",\"b\":7}\n";
        let reply = execute_bulk(parse_bulk(body, None).unwrap(), &|_: &str| Ok(handle.clone()), false).unwrap();
        assert!(reply.contains("\"errors\":false"), "{reply}");
        // No refresh, no close: nothing committed.
    }
    let reopened = IndexHandle::open(&path).unwrap();
    assert_eq!(reopened.num_docs(), 1);
    assert!(reopened.mapping.get("b").is_some());
}

/// Field names ES 8 refuses in a document body, with its `document_parsing_exception`; the same
/// names one object down, or a metadata name inside an object, are ordinary fields.
#[test]
fn metadata_empty_and_dotted_names_are_refused_at_index_time() {
    let (_d, e) = common::engine();
    e.create_index("n", br#"{"mappings":{"properties":{"tag":{"type":"keyword"}}}}"#).unwrap();
    for (i, body) in [
        r#"{"_id":"x"}"#,
        r#"{"_source":{}}"#,
        r#"{"_routing":"r"}"#,
        r#"{"":1}"#,
        r#"{"a..b":1}"#,
        r#"{".a":1}"#,
        r#"{"o":{"":1}}"#,
    ]
    .iter()
    .enumerate()
    {
        let err = e.index_doc("n", Some(&i.to_string()), body.as_bytes(), &refresh(), false).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("document_parsing_exception", 400), "{body}: {err}");
    }
    let err = e.index_doc("n", Some("m"), br#"{"_seq_no":3}"#, &refresh(), false).unwrap_err();
    assert!(err.to_string().contains("Field [_seq_no] is a metadata field"), "{err}");
    e.index_doc("n", Some("ok"), br#"{"o":{"_id":"inner"},"tag":"a"}"#, &refresh(), false).unwrap();
    e.index_doc("n", Some("blank"), br#"{" ":1}"#, &refresh(), false).unwrap();
    assert_eq!(hits(&e, "n", json!({"term": {"o._id": "inner"}})), 1);
}
