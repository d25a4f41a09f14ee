//! percentiles, percentile_ranks, median_absolute_deviation, top_hits, global and
//! rare_terms on the ten sample docs (bytes 100..1000, status "error" on 3/6/9) plus, where
//! a test says so, one doc without numbers.
mod common;

use common::*;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn engine_with(extra: bool) -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    let mut docs = sample_docs();
    if extra {
        docs.push(json!({"title": "no numbers", "status": "warn"}));
    }
    bulk(&e, "logs", &docs, true);
    (d, e)
}

fn aggs(aggs: Value) -> Value {
    let (_d, e) = engine_with(false);
    search(&e, "logs", json!({"size": 0, "aggs": aggs}))["aggregations"].clone()
}

fn error_of(body: Value) -> String {
    let (_d, e) = engine_with(false);
    e.search("logs", body.to_string().as_bytes(), &Map::new()).unwrap_err().to_string()
}

#[test]
fn percentiles_default_percents_keyed() {
    let out = aggs(json!({"p": {"percentiles": {"field": "bytes"}}}));
    // Each value centred on its unit of weight: position q * 10 interpolates between centres.
    assert_eq!(
        out["p"]["values"],
        json!({"1.0": 100.0, "5.0": 100.0, "25.0": 300.0, "50.0": 550.0, "75.0": 800.0, "95.0": 1000.0, "99.0": 1000.0})
    );
}

#[test]
fn percentiles_unkeyed_are_sorted_by_percent() {
    let out = aggs(json!({"p": {"percentiles": {"field": "bytes", "percents": [50, 25], "keyed": false}}}));
    assert_eq!(out["p"]["values"], json!([{"key": 25.0, "value": 300.0}, {"key": 50.0, "value": 550.0}]));
}

#[test]
fn percentiles_missing_value_and_empty_sets() {
    let (_d, e) = engine_with(true);
    let body = json!({"size": 0, "aggs": {
        "with_missing": {"percentiles": {"field": "bytes", "percents": [0], "missing": 0}},
        "none": {"percentiles": {"field": "nope", "percents": [50]}},
        "mad_none": {"median_absolute_deviation": {"field": "nope"}}
    }});
    let out = search(&e, "logs", body)["aggregations"].clone();
    assert_eq!(out["with_missing"]["values"]["0.0"], 0.0);
    assert_eq!(out["none"]["values"], json!({"50.0": null}));
    assert_eq!(out["mad_none"], json!({"value": null}));
}

#[test]
fn percentiles_of_dates_have_strings() {
    let out = aggs(json!({"p": {"percentiles": {"field": "ts", "percents": [50]}}}));
    // Three docs each in January, February and March, one in April: the middle is in February.
    assert_eq!(out["p"]["values"]["50.0_as_string"], "2024-02-15T12:00:00.000Z");
}

#[test]
fn percentile_ranks_and_mad() {
    let out = aggs(json!({
        "r": {"percentile_ranks": {"field": "bytes", "values": [550, 100, 5000]}},
        "m": {"median_absolute_deviation": {"field": "bytes"}}
    }));
    assert_eq!(out["r"]["values"], json!({"100.0": 5.0, "550.0": 50.0, "5000.0": 100.0}));
    // Median 550; deviations 50,50,150,150,...,450,450: their median is 250.
    assert_eq!(out["m"]["value"], 250.0);
}

#[test]
fn top_hits_sorted_by_field_with_source_filtering() {
    let out = aggs(json!({"s": {"terms": {"field": "status"}, "aggs": {
        "top": {"top_hits": {"size": 2, "sort": [{"bytes": "desc"}], "_source": ["bytes"]}}
    }}}));
    let error = &out["s"]["buckets"][1];
    assert_eq!(error["key"], "error");
    let hits = &error["top"]["hits"];
    assert_eq!(hits["total"], json!({"value": 3, "relation": "eq"}));
    assert_eq!(hits["max_score"], Value::Null);
    assert_eq!(
        hits["hits"],
        json!([
            {"_index": "logs", "_id": "9", "_score": null, "_source": {"bytes": 900}, "sort": [900]},
            {"_index": "logs", "_id": "6", "_score": null, "_source": {"bytes": 600}, "sort": [600]}
        ])
    );
}

#[test]
fn top_hits_by_score_default_size_and_from() {
    let out = aggs(json!({
        "f": {"filter": {"term": {"status": "ok"}}, "aggs": {"top": {"top_hits": {}}}},
        "paged": {"top_hits": {"from": 1, "size": 1, "sort": [{"bytes": "asc"}], "_source": false}}
    }));
    let hits = &out["f"]["top"]["hits"];
    assert_eq!(hits["max_score"], 1.0);
    assert_eq!(hits["total"]["value"], 7);
    // Three by default, scored, without `sort` values (relevance order was not asked for).
    let list = hits["hits"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    for hit in list {
        assert_eq!(hit["_source"]["status"], "ok");
        assert_eq!(hit["_score"], 1.0);
        assert!(hit.get("sort").is_none());
    }
    assert_eq!(out["paged"]["hits"]["hits"], json!([{"_index": "logs", "_id": "2", "_score": null, "sort": [200]}]));
}

#[test]
fn top_hits_track_scores_with_a_field_sort() {
    let (_d, e) = engine_with(false);
    let body = json!({"size": 0, "query": {"match": {"title": "fox"}}, "aggs": {
        "top": {"top_hits": {"size": 1, "sort": [{"bytes": "desc"}], "track_scores": true, "_source": ["bytes"]}}
    }});
    let out = search(&e, "logs", body)["aggregations"].clone();
    let hit = &out["top"]["hits"]["hits"][0];
    assert_eq!(hit["_id"], "10");
    assert!(hit["_score"].as_f64().unwrap() > 0.0);
    assert!(out["top"]["hits"]["max_score"].as_f64().unwrap() >= hit["_score"].as_f64().unwrap());
}

#[test]
fn global_ignores_the_query() {
    let (_d, e) = engine_with(false);
    let body = json!({"size": 0, "query": {"term": {"status": "error"}}, "aggs": {
        "all": {"global": {}, "aggs": {"avg": {"avg": {"field": "bytes"}}}},
        "avg": {"avg": {"field": "bytes"}}
    }});
    let out = search(&e, "logs", body)["aggregations"].clone();
    assert_eq!(out["all"], json!({"doc_count": 10, "avg": {"value": 550.0}}));
    assert_eq!(out["avg"]["value"], 600.0);
    let nested = error_of(json!({"aggs": {"t": {"terms": {"field": "status"}, "aggs": {"g": {"global": {}}}}}}));
    assert!(nested.contains("cannot be added as a sub-aggregation"), "{nested}");
}

#[test]
fn rare_terms_rarest_first_then_by_key() {
    let out = aggs(json!({
        "s": {"rare_terms": {"field": "status", "max_doc_count": 3}},
        "b": {"rare_terms": {"field": "bytes"}, "aggs": {"sum": {"sum": {"field": "bytes"}}}}
    }));
    assert_eq!(out["s"], json!({"buckets": [{"key": "error", "doc_count": 3}]}));
    let keys: Vec<i64> = out["b"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_i64().unwrap()).collect();
    assert_eq!(keys, (1..=10).map(|i| i * 100).collect::<Vec<_>>());
    assert_eq!(out["b"]["buckets"][2]["sum"]["value"], 300.0);
}

#[test]
fn merges_across_segments() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    let docs = sample_docs();
    bulk(&e, "logs", &docs[..5], true);
    let second = ndjson_from("logs", &docs[5..], 6);
    e.bulk(None, &second, engine_core::engine::RefreshPolicy::Immediate).unwrap();
    let body = json!({"size": 0, "aggs": {
        "p": {"percentiles": {"field": "bytes", "percents": [50]}},
        "top": {"top_hits": {"size": 2, "sort": [{"bytes": "desc"}], "_source": false}},
        "rare": {"rare_terms": {"field": "status", "max_doc_count": 3}}
    }});
    let out = search(&e, "logs", body)["aggregations"].clone();
    assert_eq!(out["p"]["values"]["50.0"], 550.0);
    let ids: Vec<&str> =
        out["top"]["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["10", "9"]);
    assert_eq!(out["top"]["hits"]["total"]["value"], 10);
    assert_eq!(out["rare"]["buckets"][0]["doc_count"], 3);
}

#[test]
fn invalid_requests_are_rejected() {
    let bad = [
        json!({"aggs": {"p": {"percentiles": {"field": "bytes", "percents": [101]}}}}),
        json!({"aggs": {"p": {"percentiles": {"field": "status"}}}}),
        json!({"aggs": {"p": {"percentiles": {"field": "bytes", "bogus": 1}}}}),
        json!({"aggs": {"r": {"percentile_ranks": {"field": "bytes"}}}}),
        json!({"aggs": {"t": {"top_hits": {"size": 101}}}}),
        json!({"aggs": {"t": {"top_hits": {}, "aggs": {"a": {"avg": {"field": "bytes"}}}}}}),
        json!({"aggs": {"r": {"rare_terms": {"field": "status", "max_doc_count": 0}}}}),
        json!({"aggs": {"r": {"rare_terms": {"field": "status", "max_doc_count": 101}}}}),
    ];
    for body in bad {
        let (_d, e) = engine_with(false);
        assert!(e.search("logs", body.to_string().as_bytes(), &Map::new()).is_err(), "accepted {body}");
    }
}

#[test]
fn composite_pages_in_key_order() {
    let sources = json!([{"st": {"terms": {"field": "status"}}}, {"m": {"date_histogram": {"field": "ts", "calendar_interval": "month"}}}]);
    let first = aggs(json!({"c": {"composite": {"size": 3, "sources": sources}}}));
    let keys: Vec<Value> = first["c"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].clone()).collect();
    assert_eq!(
        keys,
        [
            json!({"st": "error", "m": 1_704_067_200_000i64}),
            json!({"st": "error", "m": 1_706_745_600_000i64}),
            json!({"st": "error", "m": 1_709_251_200_000i64})
        ]
    );
    assert_eq!(first["c"]["after_key"], keys[2]);
    let next = aggs(json!({"c": {"composite": {"size": 10, "sources": sources, "after": keys[2]}}}));
    let counts: Vec<u64> =
        next["c"]["buckets"].as_array().unwrap().iter().map(|b| b["doc_count"].as_u64().unwrap()).collect();
    // ok in January (1, 2), February (4, 5), March (7, 8), April (10).
    assert_eq!(counts, [2, 2, 2, 1]);
    assert_eq!(next["c"]["after_key"], json!({"st": "ok", "m": 1_711_929_600_000i64}));
}

#[test]
fn composite_histogram_desc_with_missing_bucket_and_subs() {
    let (_d, e) = engine_with(true);
    let body = json!({"size": 0, "aggs": {"c": {"composite": {
        "sources": [{"h": {"histogram": {"field": "bytes", "interval": 300, "order": "desc", "missing_bucket": true}}}]
    }, "aggs": {"s": {"sum": {"field": "bytes"}}}}}});
    let out = search(&e, "logs", body)["aggregations"].clone();
    assert_eq!(
        out["c"]["buckets"],
        json!([
            {"key": {"h": 900.0}, "doc_count": 2, "s": {"value": 1900.0}},
            {"key": {"h": 600.0}, "doc_count": 3, "s": {"value": 2100.0}},
            {"key": {"h": 300.0}, "doc_count": 3, "s": {"value": 1200.0}},
            {"key": {"h": 0.0}, "doc_count": 2, "s": {"value": 300.0}},
            {"key": {"h": null}, "doc_count": 1, "s": {"value": 0.0}}
        ])
    );
    let none = search(
        &e,
        "logs",
        json!({"size": 0, "query": {"term": {"status": "nope"}}, "aggs": {"c": {"composite": {"sources": [{"s": {"terms": {"field": "status"}}}]}}}}),
    );
    assert_eq!(none["aggregations"]["c"], json!({"buckets": []}));
}

#[test]
fn composite_rejects_bad_sources() {
    for body in [
        json!({"aggs": {"c": {"composite": {"sources": []}}}}),
        json!({"aggs": {"c": {"composite": {"sources": [{"a": {"range": {"field": "bytes"}}}]}}}}),
        json!({"aggs": {"c": {"composite": {"sources": [{"a": {"terms": {"field": "status"}}}], "after": {"b": 1}}}}}),
        json!({"aggs": {"c": {"composite": {"sources": [{"a": {"terms": {"field": "title"}}}]}}}}),
    ] {
        assert!(!error_of(body.clone()).is_empty(), "accepted {body}");
    }
}

#[test]
fn adjacency_matrix_singles_and_pairs_by_key() {
    let out = aggs(json!({"m": {"adjacency_matrix": {"filters": {
        "C": {"range": {"bytes": {"gte": 800}}},
        "A": {"term": {"status": "error"}},
        "B": {"term": {"ok": true}}
    }}, "aggs": {"s": {"sum": {"field": "bytes"}}}}}));
    let buckets: Vec<(String, u64, f64)> = out["m"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["key"].as_str().unwrap().to_string(),
                b["doc_count"].as_u64().unwrap(),
                b["s"]["value"].as_f64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("A", 3, 1800.0),
        ("A&B", 1, 600.0),
        ("A&C", 1, 900.0),
        ("B", 5, 3000.0),
        ("B&C", 2, 1800.0),
        ("C", 3, 2700.0),
    ];
    assert_eq!(buckets, expected.map(|(k, n, s)| (k.to_string(), n, s)));
    let sep = aggs(
        json!({"m": {"adjacency_matrix": {"separator": "|", "filters": {"x": {"term": {"status": "error"}}, "y": {"term": {"status": "error"}}}}}}),
    );
    assert_eq!(sep["m"]["buckets"][1], json!({"key": "x|y", "doc_count": 3}));
    assert!(!error_of(json!({"aggs": {"m": {"adjacency_matrix": {"filters": {}}}}})).is_empty());
}

#[test]
fn matrix_stats_over_docs_with_every_field() {
    let (_d, e) = engine_with(true);
    let body = json!({"size": 0, "aggs": {
        "m": {"matrix_stats": {"fields": ["price", "bytes", "unmapped"]}},
        "none": {"matrix_stats": {"fields": ["bytes"]}}
    }, "query": {"bool": {"must_not": {"exists": {"field": "title"}}}}});
    let empty = search(&e, "logs", body.clone())["aggregations"].clone();
    assert_eq!(empty["none"], json!({"doc_count": 0}));
    let out = search(&e, "logs", json!({"size": 0, "aggs": body["aggs"]}))["aggregations"].clone();
    // The doc without numbers is left out; price and bytes share a Java hash bucket, so
    // they keep the request's order.
    assert_eq!(out["m"]["doc_count"], 10);
    let fields = out["m"]["fields"].as_array().unwrap();
    assert_eq!(fields.iter().map(|f| f["name"].as_str().unwrap()).collect::<Vec<_>>(), ["price", "bytes"]);
    let bytes = &fields[1];
    assert_eq!(bytes["count"], 10);
    assert_eq!(bytes["mean"], 550.0);
    let close = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9 * want.abs().max(1.0);
    assert!(close(&bytes["variance"], 91_666.666_666_666_67), "{}", bytes["variance"]);
    assert!(close(&bytes["skewness"], 0.0));
    assert!(close(&bytes["kurtosis"], 1.775_757_575_757_575_8), "{}", bytes["kurtosis"]);
    // price is 1.5 / 100 of bytes: covariance scales by that, correlation is 1.
    assert!(close(&bytes["covariance"]["price"], 91_666.666_666_666_67 * 0.015));
    assert!(close(&bytes["correlation"]["price"], 1.0));
    assert_eq!(bytes["correlation"]["bytes"], 1.0);
    assert!(!error_of(json!({"aggs": {"m": {"matrix_stats": {"fields": ["status"]}}}})).is_empty());
}

#[test]
fn pipelines_read_percentiles_by_key() {
    let out = aggs(json!({
        "s": {"terms": {"field": "status"}, "aggs": {"p": {"percentiles": {"field": "bytes", "percents": [50]}}}},
        "top": {"max_bucket": {"buckets_path": "s>p[50]"}}
    }));
    // ok: 100,200,400,500,700,800,1000 (median 500); error: 300,600,900 (median 600).
    assert_eq!(out["s"]["buckets"][0]["p"]["values"]["50.0"], 500.0);
    assert_eq!(out["top"], json!({"value": 600.0, "keys": ["error"]}));
}
