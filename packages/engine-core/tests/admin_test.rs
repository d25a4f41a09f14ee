//! Index administration: templates applied at creation (and kept across a restart), closing
//! and opening, index blocks, cluster settings that change behaviour, rollover, clone and
//! index resolution, and deletion by wildcard.

mod common;

use engine_core::Engine;
use serde_json::{json, Map, Value};

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn index_info(e: &Engine, name: &str) -> Value {
    parsed(&e.get_index(name).unwrap())[name].clone()
}

#[test]
fn legacy_templates_apply_by_order_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let e = Engine::open(dir.path()).unwrap();
        let low = json!({"index_patterns": ["log*"], "order": 0, "settings": {"number_of_replicas": 2},
            "mappings": {"properties": {"a": {"type": "keyword"}}}, "aliases": {"{index}-alias": {}}});
        let high = json!({"index_patterns": "logs-*", "order": 1, "settings": {"index.number_of_replicas": 0}});
        e.put_legacy_template("low", low.to_string().as_bytes(), &Map::new()).unwrap();
        e.put_legacy_template("high", high.to_string().as_bytes(), &Map::new()).unwrap();
        let created = e.create_index_warned("logs-1", b"").unwrap();
        assert_eq!(created.1, vec!["index [logs-1] matches multiple legacy templates [high, low], composable templates will only match a single template"]);
        let info = index_info(&e, "logs-1");
        assert_eq!(info["settings"]["index"]["number_of_replicas"], "0");
        assert_eq!(info["mappings"]["properties"]["a"]["type"], "keyword");
        assert!(info["aliases"]["logs-1-alias"].is_object());
        let create = params(&[("create", "true")]);
        assert!(e.put_legacy_template("low", b"{\"index_patterns\":\"x\"}", &create).is_err());
    }
    let e = Engine::open(dir.path()).unwrap();
    let (body, status) = e.get_legacy_templates(Some("lo*"), &params(&[("flat_settings", "true")])).unwrap();
    assert_eq!(status, 200);
    assert_eq!(parsed(&body)["low"]["settings"]["index.number_of_replicas"], "2");
    // A document write that creates its index takes the templates too.
    e.index_doc("logs-2", Some("1"), br#"{"b": 1}"#, &Map::new(), false).unwrap();
    assert_eq!(index_info(&e, "logs-2")["mappings"]["properties"]["a"]["type"], "keyword");
    e.delete_legacy_template("*").unwrap();
    assert_eq!(e.get_legacy_templates(Some("low"), &Map::new()).unwrap().1, 404);
    assert_eq!(e.delete_legacy_template("low").unwrap_err().status(), 404);
}

#[test]
fn composable_templates_pick_the_highest_priority_and_compose_components() {
    let (_dir, e) = common::engine();
    let ct = json!({"template": {"settings": {"number_of_replicas": 1},
        "mappings": {"properties": {"object1.red": {"type": "keyword"}}}, "aliases": {"shared": {"is_write_index": false}}}});
    e.put_component_template("ct", ct.to_string().as_bytes(), &Map::new()).unwrap();
    let low = json!({"index_patterns": ["bar-*"], "priority": 1, "template": {"settings": {"number_of_shards": 2}}});
    let high = json!({"index_patterns": ["bar-*", "foo"], "priority": 5, "composed_of": ["ct"],
        "template": {"settings": {"number_of_shards": 3}, "mappings": {"properties": {"object1.blue": {"type": "text"}}},
        "aliases": {"shared": {"filter": {"match_all": {}}}}}});
    e.put_index_template("low", low.to_string().as_bytes(), &Map::new()).unwrap();
    e.put_index_template("high", high.to_string().as_bytes(), &Map::new()).unwrap();
    let same = json!({"index_patterns": ["bar-x*"], "priority": 5});
    let err = e.put_index_template("same", same.to_string().as_bytes(), &Map::new()).unwrap_err();
    assert!(err.to_string().contains("that have the same priority [5]"), "{err}");
    let missing = json!({"index_patterns": ["z"], "composed_of": ["nope"]});
    assert_eq!(e.put_index_template("m", missing.to_string().as_bytes(), &Map::new()).unwrap_err().status(), 400);
    e.create_index("bar-1", br#"{"settings": {"index.priority": 7}}"#).unwrap();
    let info = index_info(&e, "bar-1");
    assert_eq!(info["settings"]["index"]["number_of_shards"], "3");
    assert_eq!(info["settings"]["index"]["number_of_replicas"], "1");
    assert_eq!(info["settings"]["index"]["priority"], "7");
    assert_eq!(info["mappings"]["properties"]["object1"]["properties"]["red"]["type"], "keyword");
    assert_eq!(info["mappings"]["properties"]["object1"]["properties"]["blue"]["type"], "text");
    assert_eq!(info["aliases"]["shared"], json!({"filter": {"match_all": {}}}));
    // A legacy template over the same names is told the composable one wins.
    let legacy = json!({"index_patterns": ["ba*"]});
    let (_, warnings) = e.put_legacy_template("old", legacy.to_string().as_bytes(), &Map::new()).unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].starts_with("legacy template [old] has index patterns [ba*] matching patterns from existing composable templates [high,low]"));
    let (simulated, _) = e.simulate_index_template("bar-2", b"").unwrap();
    let simulated = parsed(&simulated);
    assert_eq!(simulated["template"]["settings"]["index"]["number_of_shards"], "3");
    assert_eq!(
        simulated["overlapping"],
        json!([{"name": "low", "index_patterns": ["bar-*"]}, {"name": "old", "index_patterns": ["ba*"]}])
    );
    assert_eq!(e.simulate_index_template("nothing", b"").unwrap().0, "{}");
    assert!(e.delete_component_template("ct").unwrap_err().to_string().contains("still in use"));
    let listed = parsed(&e.get_index_templates(None, &Map::new()).unwrap());
    assert_eq!(listed["index_templates"].as_array().unwrap().len(), 2);
    assert_eq!(e.get_index_templates(Some("nope"), &Map::new()).unwrap_err().status(), 404);
}

#[test]
fn closed_indices_keep_their_metadata_and_refuse_documents() {
    let (dir, e) = common::engine();
    e.create_index("a", common::MAPPING.as_bytes()).unwrap();
    e.create_index("b", b"").unwrap();
    common::bulk(&e, "a", &[json!({"status": "x"})], false);
    let closed = parsed(&e.close_index("a", &Map::new()).unwrap());
    assert_eq!(closed["indices"]["a"]["closed"], true);
    let err = e.search("a", b"{}", &Map::new()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("index_closed_exception", 400));
    assert!(e.search("a", b"{}", &params(&[("ignore_unavailable", "true")])).is_ok());
    assert!(e.index_doc("a", Some("2"), b"{}", &Map::new(), false).is_err());
    // Wildcards skip it unless they expand to closed indices; named, its metadata shows.
    assert!(parsed(&e.get_index_with("*", &Map::new()).unwrap()).get("a").is_none());
    let closed_only = parsed(&e.get_index_with("*", &params(&[("expand_wildcards", "closed")])).unwrap());
    assert!(closed_only.get("a").is_some() && closed_only.get("b").is_none());
    assert!(index_info(&e, "a")["mappings"]["properties"]["status"].is_object());
    drop(e);
    let e = Engine::open(dir.path()).unwrap();
    assert!(e.search("a", b"{}", &Map::new()).is_err());
    e.open_index("a", &Map::new()).unwrap();
    assert_eq!(common::search(&e, "a", json!({}))["hits"]["total"]["value"], 1);
}

#[test]
fn blocks_refuse_their_operations() {
    let (_dir, e) = common::engine();
    e.create_index("t", b"").unwrap();
    e.add_block("t", "write", &Map::new()).unwrap();
    let err = e.index_doc("t", Some("1"), b"{}", &Map::new(), false).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("cluster_block_exception", 403));
    assert_eq!(err.to_string(), "index [t] blocked by: [FORBIDDEN/8/index write (api)];");
    let bulk = parsed(&e.bulk_with(None, b"{\"index\":{\"_index\":\"t\"}}\n{}\n", &Map::new()).unwrap());
    assert_eq!(bulk["items"][0]["index"]["status"], 403);
    assert!(e.search("t", b"{}", &Map::new()).is_ok());
    e.put_settings("t", br#"{"index.blocks.write": false, "index.blocks.read": true}"#).unwrap();
    assert_eq!(e.search("t", b"{}", &Map::new()).unwrap_err().status(), 403);
    e.put_settings("t", br#"{"index.blocks.read": null, "index.blocks.read_only": true}"#).unwrap();
    assert_eq!(e.delete_index("t").unwrap_err().status(), 403);
    // Lifting the block alone is allowed through it.
    e.put_settings("t", br#"{"index.blocks.read_only": false}"#).unwrap();
    e.delete_index("t").unwrap();
}

#[test]
fn cluster_settings_take_effect() {
    let (_dir, e) = common::engine();
    e.create_index("a1", common::MAPPING.as_bytes()).unwrap();
    e.create_index("a2", b"").unwrap();
    common::bulk(&e, "a1", &[json!({"status": "x"}), json!({"status": "y"})], true);
    let flat = params(&[("flat_settings", "true")]);
    let put = e.put_cluster_settings(br#"{"transient": {"search.max_buckets": 1}}"#, &flat).unwrap();
    assert_eq!(parsed(&put)["transient"], json!({"search.max_buckets": "1"}));
    let aggs = json!({"aggs": {"s": {"terms": {"field": "status"}}}});
    let err = e.search("a1", aggs.to_string().as_bytes(), &Map::new()).unwrap_err();
    assert!(err.to_string().contains("Must be less than or equal to: [1]"), "{err}");
    e.put_cluster_settings(
        br#"{"transient": {"search.max_buckets": null, "search.allow_expensive_queries": false}}"#,
        &flat,
    )
    .unwrap();
    assert!(e.search("a1", aggs.to_string().as_bytes(), &Map::new()).is_ok());
    let prefix = json!({"query": {"prefix": {"status": "x"}}});
    let err = e.search("a1", prefix.to_string().as_bytes(), &Map::new()).unwrap_err();
    assert!(err.to_string().contains("[prefix] queries cannot be executed"), "{err}");
    // Deletion by wildcard, unless names are required.
    e.put_cluster_settings(br#"{"persistent": {"action.destructive_requires_name": true}}"#, &flat).unwrap();
    assert!(e.delete_indices_with("a*", &Map::new()).is_err());
    e.put_cluster_settings(br#"{"persistent": {"action.destructive_requires_name": null}}"#, &flat).unwrap();
    e.delete_indices_with("a*", &Map::new()).unwrap();
    assert_eq!(parsed(&e.get_index_with("*", &Map::new()).unwrap()), json!({}));
    let got = parsed(&e.get_cluster_settings(&flat).unwrap());
    assert_eq!(got, json!({"persistent": {}, "transient": {"search.allow_expensive_queries": "false"}}));
}

#[test]
fn rollover_clone_and_resolve() {
    let (_dir, e) = common::engine();
    e.create_index("logs-1", br#"{"aliases": {"logs": {}}}"#).unwrap();
    let dry = parsed(&e.rollover("logs", None, br#"{"conditions": {"max_docs": 1}}"#, &Map::new()).unwrap());
    assert_eq!(dry["rolled_over"], false);
    assert_eq!(dry["new_index"], "logs-000002");
    assert_eq!(dry["conditions"], json!({"[max_docs: 1]": false}));
    e.index_doc("logs", Some("1"), b"{\"n\": 1}", &params(&[("refresh", "true")]), false).unwrap();
    let rolled = parsed(&e.rollover("logs", None, br#"{"conditions": {"max_docs": 1}}"#, &Map::new()).unwrap());
    assert_eq!(rolled["rolled_over"], true);
    assert_eq!(e.write_index("logs").unwrap().as_deref(), Some("logs-000002"));
    assert!(e.clone_index("logs-1", "copy", b"").is_err(), "not write-blocked");
    e.put_settings("logs-1", br#"{"index.blocks.write": true}"#).unwrap();
    assert_eq!(
        e.clone_index("logs-1", "copy", br#"{"settings": {"index.number_of_shards": 3}}"#).unwrap_err().status(),
        400
    );
    e.clone_index("logs-1", "copy", br#"{"settings": {"index.number_of_replicas": 0}}"#).unwrap();
    let (got, status) = e.get_doc("copy", "1", &Map::new()).unwrap();
    assert_eq!((status, parsed(&got)["_source"]["n"].clone()), (200, json!(1)));
    assert_eq!(index_info(&e, "copy")["settings"]["index"]["blocks"]["write"], "true");
    e.close_index("copy", &Map::new()).unwrap();
    let resolved = parsed(&e.resolve_index("*", &params(&[("expand_wildcards", "all")])).unwrap());
    assert_eq!(resolved["indices"][0], json!({"name": "copy", "aliases": [], "attributes": ["closed"]}));
    assert_eq!(resolved["aliases"][0], json!({"name": "logs", "indices": ["logs-000002"]}));
}
