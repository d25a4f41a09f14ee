//! Aggregations over several indices: each index collects against its own mapping and the
//! results merge into one tree, rendered once (`aggs::multi_index`).

mod common;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

fn engine_with(indices: &[(&str, Value, Vec<Value>)]) -> (tempfile::TempDir, Engine) {
    let (dir, e) = common::engine();
    for (name, mappings, docs) in indices {
        e.create_index(name, json!({ "mappings": mappings }).to_string().as_bytes()).unwrap();
        if !docs.is_empty() {
            e.bulk(None, &common::ndjson(name, docs), RefreshPolicy::Immediate).unwrap();
        }
    }
    (dir, e)
}

fn keys(agg: &Value) -> Vec<(Value, u64)> {
    agg["buckets"].as_array().unwrap().iter().map(|b| (b["key"].clone(), b["doc_count"].as_u64().unwrap())).collect()
}

#[test]
fn terms_merge_across_indices_with_an_unmapped_one() {
    let (_dir, e) = engine_with(&[
        ("m1", json!({"properties": {"str": {"type": "keyword"}}}), vec![json!({"str": "a"}), json!({"str": "b"})]),
        ("m2", json!({"properties": {"str": {"type": "keyword"}}}), vec![json!({"str": "a"})]),
        ("m3", json!({"properties": {"n": {"type": "long"}}}), vec![json!({"n": 1})]),
    ]);
    let reply = common::search(&e, "m*", json!({"size": 0, "aggs": {"t": {"terms": {"field": "str"}}}}));
    assert_eq!(reply["hits"]["total"]["value"], 4);
    assert_eq!(keys(&reply["aggregations"]["t"]), vec![(json!("a"), 2), (json!("b"), 1)]);
    assert_eq!(reply["aggregations"]["t"]["sum_other_doc_count"], 0);
}

#[test]
fn long_terms_meeting_double_terms_become_doubles() {
    let (_dir, e) = engine_with(&[
        ("l", json!({"properties": {"number": {"type": "long"}}}), vec![json!({"number": 100}), json!({"number": 10})]),
        (
            "d",
            json!({"properties": {"number": {"type": "double"}}}),
            vec![json!({"number": 100.0}), json!({"number": 10.0}), json!({"number": 14.6})],
        ),
    ]);
    let reply = common::search(&e, "l,d", json!({"size": 0, "aggs": {"t": {"terms": {"field": "number"}}}}));
    assert_eq!(keys(&reply["aggregations"]["t"]), vec![(json!(10.0), 2), (json!(100.0), 2), (json!(14.6), 1)]);
}

#[test]
fn metrics_sub_aggregations_and_pipelines_run_on_the_merged_tree() {
    let docs = |vals: &[(&str, i64)]| vals.iter().map(|(k, v)| json!({"k": k, "v": v})).collect::<Vec<_>>();
    let mapping = json!({"properties": {"k": {"type": "keyword"}, "v": {"type": "long"}}});
    let (_dir, e) = engine_with(&[
        ("p1", mapping.clone(), docs(&[("x", 1), ("y", 5)])),
        ("p2", mapping, docs(&[("x", 3), ("x", 4)])),
    ]);
    let body = json!({"size": 0, "aggs": {
        "by_k": {"terms": {"field": "k"}, "aggs": {"total": {"sum": {"field": "v"}}}},
        "max_total": {"max_bucket": {"buckets_path": "by_k>total"}},
        "all": {"stats": {"field": "v"}, "meta": {"team": "search"}}
    }});
    let reply = common::search(&e, "p1,p2", body);
    let aggs = &reply["aggregations"];
    assert_eq!(aggs["by_k"]["buckets"][0]["key"], "x");
    assert_eq!(aggs["by_k"]["buckets"][0]["total"]["value"], 8.0);
    assert_eq!(aggs["max_total"]["value"], 8.0);
    assert_eq!(aggs["all"]["count"], 4);
    assert_eq!(aggs["all"]["max"], 5.0);
    assert_eq!(aggs["all"]["meta"]["team"], "search");
}

#[test]
fn top_hits_read_each_index_documents() {
    let mapping = json!({"properties": {"k": {"type": "keyword"}, "v": {"type": "long"}}});
    let (_dir, e) = engine_with(&[
        ("t1", mapping.clone(), vec![json!({"k": "x", "v": 1})]),
        ("t2", mapping, vec![json!({"k": "x", "v": 9})]),
    ]);
    let body = json!({"size": 0, "aggs": {"top": {"top_hits": {"size": 2, "sort": [{"v": "desc"}]}}}});
    let reply = common::search(&e, "t1,t2", body);
    let hits = &reply["aggregations"]["top"]["hits"]["hits"];
    assert_eq!(hits[0]["_index"], "t2");
    assert_eq!(hits[0]["_source"]["v"], 9);
    assert_eq!(hits[1]["_index"], "t1");
}

#[test]
fn keyword_and_long_terms_of_one_name_fail_as_es_reduces() {
    let (_dir, e) = engine_with(&[
        ("k", json!({"properties": {"f": {"type": "keyword"}}}), vec![json!({"f": "a"})]),
        ("n", json!({"properties": {"f": {"type": "long"}}}), vec![json!({"f": 1})]),
    ]);
    let body = json!({"size": 0, "aggs": {"t": {"terms": {"field": "f"}}}});
    let err = e.search("k,n", body.to_string().as_bytes(), &serde_json::Map::new()).unwrap_err();
    assert!(err.to_string().contains("two different types"), "{err}");
}

#[test]
fn significant_terms_sum_background_counts_and_samplers_sample_each_index() {
    let docs = |names: &[&str]| names.iter().map(|n| json!({"name": n})).collect::<Vec<_>>();
    let mapping = json!({"properties": {"name": {"type": "keyword"}}});
    let (_dir, e) = engine_with(&[
        ("s0", mapping.clone(), docs(&["a", "b", "a"])),
        ("s1", mapping.clone(), docs(&["a", "c", "c", "c"])),
    ]);
    let body = json!({"size": 0, "query": {"term": {"name": "a"}}, "aggs": {
        "sig": {"significant_terms": {"field": "name", "min_doc_count": 1}}
    }});
    let sig = common::search(&e, "s*", body)["aggregations"]["sig"].clone();
    // "a": 3 of the 3 foreground docs, 3 of the 7 docs of both indices.
    assert_eq!(sig["doc_count"], 3);
    assert_eq!(sig["bg_count"], 7);
    assert_eq!(sig["buckets"][0]["bg_count"], 3);
    assert_eq!(sig["buckets"][0]["score"], json!((1.0 - 3.0 / 7.0) * (1.0 / (3.0 / 7.0))));
    // Two best-scoring docs per index.
    let body = json!({"size": 0, "aggs": {"s": {"sampler": {"shard_size": 2}}}});
    assert_eq!(common::search(&e, "s*", body)["aggregations"]["s"]["doc_count"], 4);
}
