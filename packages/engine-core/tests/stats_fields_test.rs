//! Per-field statistics measured from the segments (field data a search loaded, completion
//! fields' data), statistics and metadata of closed indices, and date range bounds given as
//! numbers.

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

const FIELDS: &str = r#"{"mappings":{"properties":{
  "bar":{"type":"text","fielddata":true,"fields":{"completion":{"type":"completion"}}},
  "baz":{"type":"text","fielddata":true,"fields":{"completion":{"type":"completion"}}},
  "kw":{"type":"keyword"}
}}}"#;

fn fields_index() -> (tempfile::TempDir, Engine) {
    let (dir, e) = common::engine();
    e.create_index("t", FIELDS.as_bytes()).unwrap();
    let docs = vec![json!({"bar": "bar", "baz": "baz", "kw": "a"}), json!({"bar": "foo", "baz": "foo", "kw": "b"})];
    e.bulk(None, &common::ndjson("t", &docs), RefreshPolicy::Immediate).unwrap();
    (dir, e)
}

#[test]
fn fielddata_is_what_a_sort_or_aggregation_loaded_until_cleared() {
    let (_dir, e) = fields_index();
    let fielddata = |p: &[(&str, &str)]| stats(&e, "t", Some("fielddata"), p)["_all"]["total"]["fielddata"].clone();
    assert_eq!(fielddata(&[])["memory_size_in_bytes"], 0);
    // Keyword columns are doc values, not field data.
    common::search(&e, "t", json!({"sort": ["kw"]}));
    assert_eq!(fielddata(&[])["memory_size_in_bytes"], 0);
    common::search(&e, "t", json!({"sort": ["bar"]}));
    let one = fielddata(&[("fielddata_fields", "*")]);
    assert!(one["fields"]["bar"]["memory_size_in_bytes"].as_u64().unwrap() > 0);
    assert!(one["fields"].get("baz").is_none());
    assert!(fielddata(&[])["fields"].is_null());
    common::search(&e, "t", json!({"size": 0, "aggs": {"b": {"terms": {"field": "baz"}}}}));
    let both = fielddata(&[("fields", "ba*")]);
    let (bar, baz) = (&both["fields"]["bar"]["memory_size_in_bytes"], &both["fields"]["baz"]["memory_size_in_bytes"]);
    assert_eq!(both["memory_size_in_bytes"].as_u64(), Some(bar.as_u64().unwrap() + baz.as_u64().unwrap()));
    e.clear_cache("t", &params(&[("fielddata", "true"), ("fields", "bar")])).unwrap();
    let left = fielddata(&[("fielddata_fields", "*")]);
    assert!(left["fields"].get("bar").is_none());
    assert!(left["fields"]["baz"]["memory_size_in_bytes"].as_u64().unwrap() > 0);
    e.clear_cache("t", &params(&[("fielddata", "true")])).unwrap();
    assert_eq!(fielddata(&[])["memory_size_in_bytes"], 0);
}

#[test]
fn completion_is_the_size_of_each_completion_fields_data() {
    let (_dir, e) = fields_index();
    let completion = |p: &[(&str, &str)]| stats(&e, "t", None, p)["_all"]["total"]["completion"].clone();
    let all = completion(&[("completion_fields", "*")]);
    let bar = all["fields"]["bar.completion"]["size_in_bytes"].as_u64().unwrap();
    let baz = all["fields"]["baz.completion"]["size_in_bytes"].as_u64().unwrap();
    assert!(bar > 0 && baz > 0);
    assert_eq!(all["size_in_bytes"].as_u64(), Some(bar + baz));
    assert!(completion(&[])["fields"].is_null());
    let some = completion(&[("completion_fields", "*r*")]);
    assert!(some["fields"].get("baz.completion").is_none());
    // A new segment adds its own data.
    e.bulk(None, &common::ndjson_from("t", &[json!({"bar": "qux"})], 3), RefreshPolicy::Immediate).unwrap();
    let grown = completion(&[])["size_in_bytes"].as_u64().unwrap();
    assert!(grown > bar + baz);
    assert!(stats(&e, "t", Some("fielddata"), &[])["_all"]["total"].get("completion").is_none());
}

#[test]
fn closed_indices_show_in_stats_health_state_and_mappings_when_asked() {
    let (_dir, e) = fields_index();
    e.create_index("open", b"{}").unwrap();
    e.flush("t").unwrap();
    e.close_index("t", &Map::new()).unwrap();
    let forbidden = e.indices_stats("t", Some("segments"), &params(&[("expand_wildcards", "closed")]));
    assert!(forbidden.unwrap_err().to_string().contains("closed"));
    let allowed = [("expand_wildcards", "closed"), ("forbid_closed_indices", "false")];
    let closed = stats(&e, "*", Some("segments"), &allowed);
    assert_eq!(closed["indices"]["t"]["primaries"]["segments"]["count"], 0);
    assert!(closed["indices"].get("open").is_none());
    let unloaded = [allowed[0], allowed[1], ("include_unloaded_segments", "true")];
    let on_disk = stats(&e, "*", Some("segments"), &unloaded);
    assert!(on_disk["indices"]["t"]["primaries"]["segments"]["count"].as_u64().unwrap() > 0);

    let health =
        |p: &[(&str, &str)]| -> Value { serde_json::from_str(&e.cluster_health("*", &params(p)).unwrap().0).unwrap() };
    assert!(health(&[("level", "indices")])["indices"].get("t").is_some());
    let open_only = health(&[("level", "indices"), ("expand_wildcards", "open")]);
    assert!(open_only["indices"].get("t").is_none());

    let state: Value = serde_json::from_str(
        &e.cluster_state(&["metadata".to_string()], "*", &params(&[("expand_wildcards", "closed")])).unwrap(),
    )
    .unwrap();
    assert_eq!(state["metadata"]["indices"]["t"]["state"], "close");
    assert!(state["metadata"]["indices"].get("open").is_none());

    let mappings: Value =
        serde_json::from_str(&e.get_mapping("*", &params(&[("expand_wildcards", "all")])).unwrap()).unwrap();
    assert!(mappings["t"]["mappings"]["properties"]["bar"].is_object());
    assert!(mappings["open"]["mappings"].is_object());
}

#[test]
fn a_number_bound_of_a_date_range_is_read_through_the_formats() {
    let (_dir, e) = common::engine();
    e.create_index("d", br#"{"mappings":{"properties":{"ts":{"type":"date"}}}}"#).unwrap();
    let docs = vec![json!({"ts": "2015-01-02"}), json!({"ts": "2020-03-04"})];
    e.bulk(None, &common::ndjson("d", &docs), RefreshPolicy::Immediate).unwrap();
    let hits = |range: Value| {
        common::search(&e, "d", json!({"query": {"range": {"ts": range}}}))["hits"]["total"]["value"].clone()
    };
    assert_eq!(hits(json!({"gte": 2019})), 1);
    assert_eq!(hits(json!({"lt": 2019})), 1);
    assert_eq!(hits(json!({"gte": 1_420_070_400_000i64})), 2);
    // A range aggregation's number bounds stay epoch milliseconds, as in ES.
    let aggs = json!({"size": 0, "aggs": {"r": {"date_range": {"field": "ts", "ranges": [{"from": 2019}]}}}});
    assert_eq!(common::search(&e, "d", aggs)["aggregations"]["r"]["buckets"][0]["doc_count"], 2);
}
