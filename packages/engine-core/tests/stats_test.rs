//! Index statistics and the cluster views built on the shard layout: `_stats` counters that
//! follow the work done (writes, gets, searches, refreshes, flushes, merges), metric and level
//! selection, search groups, `_segments`, `_cluster/health` and its wait conditions,
//! `_cluster/state` filtering, `_search_shards` and `_cache/clear`.

mod common;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

fn stats(e: &Engine, index: &str, metric: Option<&str>, p: &[(&str, &str)]) -> Value {
    serde_json::from_str(&e.indices_stats(index, metric, &params(p)).unwrap()).unwrap()
}

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, e) = common::engine();
    e.create_index("five", br#"{"settings":{"number_of_shards":5,"number_of_replicas":1}}"#).unwrap();
    e.create_index("one", br#"{"settings":{"number_of_replicas":0}}"#).unwrap();
    let docs = vec![json!({"n": 1}), json!({"n": 2}), json!({"n": 3})];
    e.bulk(None, &common::ndjson("five", &docs), RefreshPolicy::Immediate).unwrap();
    (dir, e)
}

#[test]
fn counters_follow_the_work_done() {
    let (_dir, e) = setup();
    let before = stats(&e, "five", None, &[]);
    let p = &before["indices"]["five"]["primaries"];
    assert_eq!(p["docs"]["count"], 3);
    assert_eq!(p["indexing"]["index_total"], 3);
    assert!(p["refresh"]["external_total"].as_u64().unwrap() >= 1);
    common::search(&e, "five", json!({"query": {"match_all": {}}, "stats": ["grp"]}));
    e.count("five", b"{}").unwrap();
    e.get_doc("five", "nope", &Map::new()).unwrap();
    e.flush("five").unwrap();
    e.force_merge("five", &Map::new()).unwrap();
    let after = stats(&e, "five", None, &[("groups", "g*")]);
    let p = &after["indices"]["five"]["primaries"];
    assert_eq!(p["search"]["query_total"], 2, "{p}");
    assert_eq!(p["search"]["fetch_total"], 1);
    assert_eq!(p["search"]["groups"]["grp"]["query_total"], 1);
    assert_eq!(p["get"]["missing_total"], 1);
    assert_eq!(p["flush"]["total"], 1);
    assert!(p["segments"]["count"].as_u64().unwrap() >= 1);
    assert_eq!(p["translog"]["operations"], 0);
    assert_eq!(after["indices"]["five"]["total"], after["indices"]["five"]["primaries"]);
}

#[test]
fn shard_counts_follow_the_declared_layout() {
    let (_dir, e) = setup();
    let all = stats(&e, "", None, &[]);
    assert_eq!(all["_shards"], json!({"total": 11, "successful": 6, "failed": 0}));
    assert_eq!(all["indices"]["five"]["health"], "yellow");
    assert_eq!(all["indices"]["one"]["health"], "green");
    let none = stats(&e, "bla*", None, &[]);
    assert_eq!(none["_shards"]["total"], 0);
    assert!(none["indices"].as_object().unwrap().is_empty());
    let refreshed: Value = serde_json::from_str(&e.refresh("_all").unwrap()).unwrap();
    assert_eq!(refreshed["_shards"]["total"], 11);
    assert!(e.indices_stats("missing", None, &Map::new()).is_err());
}

#[test]
fn metrics_levels_and_file_sizes() {
    let (_dir, e) = setup();
    let docs = stats(&e, "", Some("docs"), &[]);
    let total = docs["_all"]["total"].as_object().unwrap();
    assert_eq!(total.keys().collect::<Vec<_>>(), vec!["docs"]);
    let multi = stats(&e, "", Some("store,get,merge"), &[]);
    assert_eq!(multi["_all"]["total"].as_object().unwrap().len(), 3);
    assert!(multi["_all"]["total"]["merges"].is_object());
    let cluster = stats(&e, "", None, &[("level", "cluster")]);
    assert!(cluster.get("indices").is_none());
    let shards = stats(&e, "", None, &[("level", "shards")]);
    let five = shards["indices"]["five"]["shards"].as_object().unwrap();
    assert_eq!(five.len(), 5);
    assert!(five["0"][0]["commit"]["id"].is_string());
    assert_eq!(five["0"][0]["docs"]["count"], 3);
    assert_eq!(five["1"][0]["docs"]["count"], 0);
    let sizes = stats(&e, "five", Some("segments"), &[("include_segment_file_sizes", "true")]);
    let files = sizes["_all"]["total"]["segments"]["file_sizes"].as_object().unwrap();
    assert!(files["store"]["size_in_bytes"].as_u64().unwrap() > 0, "{files:?}");
    assert!(e.indices_stats("", None, &params(&[("level", "node")])).is_err());
}

#[test]
fn node_level_sums_every_index_and_shows_sections_without_any() {
    let (_dir, e) = common::engine();
    let empty = e.node_indices_stats(None, &Map::new()).unwrap();
    assert_eq!(empty["docs"]["count"], 0);
    assert!(empty["recovery"].is_object());
    let (_dir2, e2) = setup();
    let by_index = e2.node_indices_stats(Some("docs"), &params(&[("level", "indices")])).unwrap();
    assert_eq!(by_index["docs"]["count"], 3);
    assert_eq!(by_index["indices"]["five"]["docs"]["count"], 3);
}

#[test]
fn segments_list_each_shard_copy() {
    let (_dir, e) = setup();
    let seg: Value = serde_json::from_str(&e.segments("five", &Map::new()).unwrap()).unwrap();
    assert_eq!(seg["_shards"]["total"], 10);
    let first = &seg["indices"]["five"]["shards"]["0"][0];
    assert_eq!(first["routing"]["primary"], true);
    assert_eq!(first["segments"]["_0"]["num_docs"], 3);
    assert_eq!(first["segments"]["_0"]["committed"], true);
    let none: Value = serde_json::from_str(&e.segments("", &params(&[("allow_no_indices", "true")])).unwrap()).unwrap();
    assert!(none["indices"].get("missing").is_none());
}

#[test]
fn health_waits_are_met_or_time_out() {
    let (_dir, e) = setup();
    let (body, status) = e.cluster_health("", &params(&[("wait_for_status", "yellow")])).unwrap();
    let h: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, h["status"].as_str().unwrap()), (200, "yellow"));
    assert_eq!(h["active_primary_shards"], 6);
    assert_eq!(h["unassigned_shards"], 5);
    let (_, green) = e.cluster_health("", &params(&[("wait_for_status", "green")])).unwrap();
    assert_eq!(green, 408);
    let (one, _) = e.cluster_health("one", &params(&[("level", "shards")])).unwrap();
    let one: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(one["status"], "green");
    assert!(one["indices"]["one"]["shards"]["0"].is_object());
    let (missing, status) = e.cluster_health("nope", &Map::new()).unwrap();
    assert_eq!(status, 408);
    assert_eq!(serde_json::from_str::<Value>(&missing).unwrap()["status"], "red");
    assert_eq!(e.cluster_health("", &params(&[("wait_for_nodes", "10")])).unwrap().1, 408);
    assert_eq!(e.cluster_health("", &params(&[("wait_for_active_shards", "6")])).unwrap().1, 200);
}

#[test]
fn cluster_state_filters_by_metric_and_index() {
    let (_dir, e) = setup();
    let all: Value = serde_json::from_str(&e.cluster_state(&[], "", &Map::new()).unwrap()).unwrap();
    assert!(all["metadata"]["indices"]["five"]["settings"].is_object());
    assert_eq!(all["routing_table"]["indices"]["five"]["shards"]["0"].as_array().unwrap().len(), 2);
    assert_eq!(all["routing_nodes"]["unassigned"].as_array().unwrap().len(), 5);
    assert_eq!(all["blocks"], json!({}));
    let version = all["version"].as_u64().unwrap();
    let metrics = vec!["routing_table".to_string()];
    let some: Value = serde_json::from_str(&e.cluster_state(&metrics, "one", &Map::new()).unwrap()).unwrap();
    assert!(some.get("metadata").is_none());
    assert!(some["routing_table"]["indices"].get("five").is_none());
    assert_eq!(some["cluster_uuid"], all["cluster_uuid"]);
    e.create_index("later", b"{}").unwrap();
    let after: Value = serde_json::from_str(&e.cluster_state(&[], "", &Map::new()).unwrap()).unwrap();
    assert!(after["version"].as_u64().unwrap() > version);
    assert!(e.cluster_state(&["metadata".to_string()], "nope", &params(&[("ignore_unavailable", "false")])).is_err());
}

#[test]
fn search_shards_and_cache_clear() {
    let (_dir, e) = setup();
    let shards: Value = serde_json::from_str(&e.search_shards("five", &Map::new()).unwrap()).unwrap();
    assert_eq!(shards["shards"].as_array().unwrap().len(), 5);
    let routed: Value =
        serde_json::from_str(&e.search_shards("five", &params(&[("routing", "foo")])).unwrap()).unwrap();
    assert_eq!(routed["shards"].as_array().unwrap().len(), 1);
    let cleared: Value = serde_json::from_str(&e.clear_cache("", &params(&[("fielddata", "true")])).unwrap()).unwrap();
    assert_eq!(cleared["_shards"]["successful"], 6);
    let flush = e.flush_with("five", &params(&[("force", "true"), ("wait_if_ongoing", "false")]));
    assert!(flush.unwrap_err().to_string().contains("wait_if_ongoing must be true for a force flush"));
}
