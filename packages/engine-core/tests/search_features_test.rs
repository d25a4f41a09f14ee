//! Search features beyond queries: `_explain`, `profile`, the rescore explanation,
//! `search_after` on formatted dates, composite sources (`format`, `geotile_grid`, `ip`), and
//! aggregation `meta`.

mod common;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn engine_with(mappings: Value, docs: &[Value]) -> (tempfile::TempDir, Engine) {
    let (dir, e) = common::engine();
    e.create_index("t", json!({ "mappings": mappings }).to_string().as_bytes()).unwrap();
    e.bulk(None, &common::ndjson("t", docs), RefreshPolicy::Immediate).unwrap();
    (dir, e)
}

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

#[test]
fn explain_says_whether_a_document_matches() {
    let (_dir, e) = engine_with(json!({"properties": {"field": {"type": "text"}}}), &[json!({"field": "foo bar"})]);
    let (body, status) = e.explain("t", "1", b"", &params(&[("q", "bar"), ("df", "field")])).unwrap();
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, reply["matched"].clone()), (200, json!(true)));
    assert!(reply["explanation"]["value"].as_f64().unwrap() > 0.0);
    let q = params(&[("q", "field:foo field:xyz"), ("default_operator", "AND")]);
    let (body, _) = e.explain("t", "1", b"", &q).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["matched"], false);
    assert_eq!(e.explain("t", "9", br#"{"query":{"match_all":{}}}"#, &Map::new()).unwrap().1, 404);
    assert_eq!(e.explain("t", "1", br#"{"match_all":{}}"#, &Map::new()).unwrap_err().status(), 400);
}

#[test]
fn profile_reports_the_shard_search_and_aggregations() {
    let docs: Vec<Value> = [1, 3, 1, 1].iter().map(|n| json!({ "number": n })).collect();
    let (_dir, e) = engine_with(json!({"properties": {"number": {"type": "long"}}}), &docs);
    let reply =
        common::search(&e, "t", json!({"profile": true, "size": 0, "aggs": {"n": {"terms": {"field": "number"}}}}));
    let shard = &reply["profile"]["shards"][0];
    assert!(shard["searches"][0]["query"][0]["time_in_nanos"].is_u64());
    let agg = &shard["aggregations"][0];
    assert_eq!(agg["type"], "NumericTermsAggregator");
    assert_eq!(agg["description"], "n");
    assert_eq!(agg["breakdown"]["collect_count"], 4);
    assert_eq!(agg["debug"]["result_strategy"], "long_terms");
    assert_eq!(agg["debug"]["total_buckets"], 2);
}

#[test]
fn rescore_explanations_add_up_to_the_score() {
    let docs: Vec<Value> = (1..=3).map(|i| json!({ "f1": i.to_string() })).collect();
    let (_dir, e) = engine_with(json!({"properties": {"f1": {"type": "keyword"}}}), &docs);
    let body = json!({"explain": true, "query": {"match_all": {}}, "rescore": {"window_size": 2,
        "query": {"rescore_query": {"match_all": {}}, "query_weight": 5, "rescore_query_weight": 10}}});
    let reply = common::search(&e, "t", body);
    let hits = reply["hits"]["hits"].as_array().unwrap();
    let pairs: Vec<(f64, f64)> =
        hits.iter().map(|h| (h["_score"].as_f64().unwrap(), h["_explanation"]["value"].as_f64().unwrap())).collect();
    assert_eq!(pairs, vec![(15.0, 15.0), (15.0, 15.0), (5.0, 5.0)]);
}

#[test]
fn search_after_reads_dates_in_the_field_format() {
    let mapping = json!({"properties": {"ts": {"type": "date", "format": "yyyy-MM-dd HH:mm:ss.SSS"}}});
    let (_dir, e) =
        engine_with(mapping, &[json!({"ts": "2019-10-21 00:30:04.828"}), json!({"ts": "2019-10-21 08:30:04.828"})]);
    let body = json!({"size": 1, "sort": [{"ts": "desc"}], "search_after": ["2019-10-21 08:30:04.828"]});
    let reply = common::search(&e, "t", body);
    assert_eq!(reply["hits"]["hits"][0]["sort"][0], 1571617804828i64);
}

#[test]
fn composite_sources_format_tiles_and_addresses() {
    let mapping = json!({"properties": {"d": {"type": "date"}, "g": {"type": "geo_point"}, "ip": {"type": "ip"}}});
    let docs = [
        json!({"d": "2017-10-20T03:08:45", "g": "37.2343,-115.8067", "ip": "192.168.0.1"}),
        json!({"d": "2017-10-21T07:00:00", "g": "90.0,0.0", "ip": "::1"}),
    ];
    let (_dir, e) = engine_with(mapping, &docs);
    let composite = |sources: Value, after: Option<Value>| {
        let mut spec = json!({ "sources": sources });
        if let Some(a) = after {
            spec["after"] = a;
        }
        common::search(&e, "t", json!({"size": 0, "aggs": {"c": {"composite": spec}}}))["aggregations"]["c"].clone()
    };
    let dates = json!([{"d": {"date_histogram": {"field": "d", "calendar_interval": "1d", "format": "strict_date"}}}]);
    let out = composite(dates.clone(), None);
    assert_eq!(out["buckets"][0]["key"]["d"], "2017-10-20");
    assert_eq!(out["after_key"]["d"], "2017-10-21");
    assert_eq!(composite(dates, Some(json!({"d": "2017-10-20"})))["buckets"][0]["key"]["d"], "2017-10-21");
    let tiles = json!([{"g": {"geotile_grid": {"field": "g", "precision": 12}}}]);
    let out = composite(tiles.clone(), None);
    assert_eq!(out["buckets"][0]["key"]["g"], "12/730/1590");
    assert_eq!(composite(tiles, Some(json!({"g": "12/730/1590"})))["buckets"][0]["key"]["g"], "12/2048/0");
    let ips = composite(json!([{"ip": {"terms": {"field": "ip"}}}]), None);
    assert_eq!(ips["buckets"][0]["key"]["ip"], "::1");
    assert_eq!(ips["buckets"][1]["key"]["ip"], "192.168.0.1");
}

#[test]
fn aggregations_echo_their_meta() {
    let (_dir, e) = engine_with(json!({"properties": {"n": {"type": "long"}}}), &[json!({"n": 1})]);
    let body = json!({"size": 0, "aggs": {"a": {"meta": {"foo": "bar"}, "avg": {"field": "n"}},
        "t": {"terms": {"field": "n"}, "aggs": {"m": {"max": {"field": "n"}, "meta": {"k": 1}}}}}});
    let aggs = &common::search(&e, "t", body)["aggregations"];
    assert_eq!(aggs["a"]["meta"]["foo"], "bar");
    assert_eq!(aggs["t"]["buckets"][0]["m"]["meta"]["k"], 1);
    assert_eq!(
        e.search("t", br#"{"aggs":{"a":{"meta":1,"avg":{"field":"n"}}}}"#, &Map::new()).unwrap_err().status(),
        400
    );
}
