//! Optimistic concurrency control through the engine's document APIs: `op_type=create`,
//! `if_seq_no`/`if_primary_term`, external versions, versions continuing after a delete, and
//! the same conditions on `_bulk` action lines.

mod common;

use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

fn put(engine: &engine_core::Engine, id: &str, pairs: &[(&str, &str)]) -> Result<(Value, u16), (String, u16)> {
    engine
        .index_doc("c", Some(id), br#"{"status":"x"}"#, &params(pairs), false)
        .map(|(body, status)| (serde_json::from_str(&body).unwrap(), status))
        .map_err(|e| (e.es_type_and_status().0.to_string(), e.status()))
}

#[test]
fn op_type_create_and_create_endpoint_refuse_an_existing_id() {
    let (_dir, engine) = common::engine();
    engine.create_index("c", common::MAPPING.as_bytes()).unwrap();
    assert_eq!(put(&engine, "1", &[("op_type", "create")]).unwrap().1, 201);
    assert_eq!(
        put(&engine, "1", &[("op_type", "create")]).unwrap_err(),
        ("version_conflict_engine_exception".into(), 409)
    );
    let err = engine.index_doc("c", Some("1"), b"{}", &Map::new(), true).unwrap_err();
    assert_eq!(err.status(), 409);
    // A delete leaves a tombstone: create works again and the version continues.
    engine.delete_doc("c", "1", &Map::new()).unwrap();
    let (body, status) = engine.index_doc("c", Some("1"), b"{}", &Map::new(), true).unwrap();
    assert_eq!((serde_json::from_str::<Value>(&body).unwrap()["_version"].clone(), status), (json!(3), 201));
}

#[test]
fn if_seq_no_is_compare_and_set() {
    let (_dir, engine) = common::engine();
    engine.create_index("c", common::MAPPING.as_bytes()).unwrap();
    let (first, _) = put(&engine, "1", &[]).unwrap();
    let seq = first["_seq_no"].as_u64().unwrap().to_string();
    assert_eq!(put(&engine, "1", &[("if_seq_no", &seq), ("if_primary_term", "1")]).unwrap().1, 200);
    // The same sequence number again is stale now.
    assert_eq!(put(&engine, "1", &[("if_seq_no", &seq), ("if_primary_term", "1")]).unwrap_err().1, 409);
    assert_eq!(put(&engine, "2", &[("if_seq_no", "0"), ("if_primary_term", "1")]).unwrap_err().1, 409);
    assert_eq!(put(&engine, "1", &[("if_seq_no", "0")]).unwrap_err().0, "action_request_validation_exception");
    let delete = engine.delete_doc("c", "1", &params(&[("if_seq_no", "0"), ("if_primary_term", "1")]));
    assert_eq!(delete.unwrap_err().status(), 409);
    let update = engine.update_doc(
        "c",
        "1",
        br#"{"doc":{"bytes":1}}"#,
        &params(&[("if_seq_no", "0"), ("if_primary_term", "1")]),
    );
    assert_eq!(update.unwrap_err().status(), 409);
}

#[test]
fn external_versions_and_internal_version_refusal() {
    let (_dir, engine) = common::engine();
    engine.create_index("c", common::MAPPING.as_bytes()).unwrap();
    fn ext(v: &str) -> [(&str, &str); 2] {
        [("version", v), ("version_type", "external")]
    }
    assert_eq!(put(&engine, "1", &ext("10")).unwrap().0["_version"], 10);
    assert_eq!(put(&engine, "1", &ext("10")).unwrap_err().1, 409);
    assert_eq!(put(&engine, "1", &ext("11")).unwrap().0["_version"], 11);
    assert_eq!(put(&engine, "1", &[("version", "11"), ("version_type", "external_gte")]).unwrap().1, 200);
    assert_eq!(put(&engine, "1", &[("version", "3")]).unwrap_err().0, "action_request_validation_exception");
    let (doc, _) = engine.get_doc("c", "1", &Map::new()).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&doc).unwrap()["_version"], 11);
}

#[test]
fn deleting_twice_bumps_the_tombstone_and_survives_a_refresh() {
    let (_dir, engine) = common::engine();
    engine.create_index("c", common::MAPPING.as_bytes()).unwrap();
    put(&engine, "1", &[]).unwrap();
    let (body, status) = engine.delete_doc("c", "1", &params(&[("refresh", "true")])).unwrap();
    assert_eq!((serde_json::from_str::<Value>(&body).unwrap()["_version"].clone(), status), (json!(2), 200));
    let (body, status) = engine.delete_doc("c", "1", &Map::new()).unwrap();
    assert_eq!((serde_json::from_str::<Value>(&body).unwrap()["_version"].clone(), status), (json!(3), 404));
    assert_eq!(put(&engine, "1", &[]).unwrap().0["_version"], 4);
}

#[test]
fn bulk_action_lines_carry_conditions_and_updates() {
    let (_dir, engine) = common::engine();
    engine.create_index("c", common::MAPPING.as_bytes()).unwrap();
    let body = concat!(
        "{\"index\":{\"_index\":\"c\",\"_id\":\"1\"}}\n{\"bytes\":1}\n",
        "{\"index\":{\"_index\":\"c\",\"_id\":\"1\",\"if_seq_no\":0,\"if_primary_term\":1}}\n{\"bytes\":2}\n",
        "{\"index\":{\"_index\":\"c\",\"_id\":\"1\",\"if_seq_no\":0,\"if_primary_term\":1}}\n{\"bytes\":3}\n",
        "{\"update\":{\"_index\":\"c\",\"_id\":\"1\",\"_source\":true}}\n{\"doc\":{\"status\":\"u\"}}\n",
        "{\"index\":{\"_index\":\"c\",\"_id\":\"2\",\"op_type\":\"create\"}}\n{\"bytes\":5}\n",
    );
    let reply: Value = serde_json::from_str(&engine.bulk(None, body.as_bytes(), RefreshPolicy::None).unwrap()).unwrap();
    let statuses: Vec<_> = reply["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_object().unwrap().values().next().unwrap()["status"].clone())
        .collect();
    assert_eq!(statuses, vec![json!(201), json!(200), json!(409), json!(200), json!(201)]);
    assert_eq!(reply["items"][3]["update"]["get"]["_source"], json!({"bytes": 2, "status": "u"}));
    assert!(reply["items"][4].get("create").is_some());
    // A missing final newline fails the whole request.
    assert!(engine.bulk(None, b"{\"index\":{\"_index\":\"c\"}}\n{}", RefreshPolicy::None).is_err());
}

#[test]
fn writes_to_a_missing_index_create_it() {
    let (_dir, engine) = common::engine();
    let (_, status) = engine.index_doc("fresh", None, br#"{"a":1}"#, &Map::new(), false).unwrap();
    assert_eq!(status, 201);
    assert!(engine.index_exists("fresh"));
    assert_eq!(engine.index_doc("Bad", Some("1"), b"{}", &Map::new(), false).unwrap_err().status(), 400);
}
