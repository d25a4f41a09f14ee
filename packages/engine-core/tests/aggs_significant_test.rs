//! significant_terms, significant_text and variable_width_histogram on twenty docs:
//! bytes = i * 100; the foreground (`bytes >= 1000`) is docs 10..19, of which 10..15 have
//! status "error" and titles "disk alarm raised", 16..17 status "rare" and "disk quiet",
//! 18..19 "ok" and "all quiet". Of the background-only docs 0..9, doc 0 is "error" with
//! "alarm test", the rest "ok" with "all quiet here".
mod common;

use common::*;
use engine_core::Engine;
use serde_json::{json, Map, Value};

fn docs() -> Vec<Value> {
    (0..20)
        .map(|i| {
            let (status, title) = match i {
                0 => ("error", "alarm test"),
                1..=9 => ("ok", "all quiet here"),
                10..=15 => ("error", "disk alarm raised"),
                16 | 17 => ("rare", "disk quiet"),
                _ => ("ok", "all quiet"),
            };
            json!({"status": status, "title": title, "bytes": i * 100})
        })
        .collect()
}

fn engine_with(docs: &[Value]) -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", docs, true);
    (d, e)
}

fn foreground(aggs: Value) -> Value {
    let (_d, e) = engine_with(&docs());
    let body = json!({"size": 0, "query": {"range": {"bytes": {"gte": 1000}}}, "aggs": aggs});
    search(&e, "logs", body)["aggregations"].clone()
}

/// ES's JLH on (subset freq / size, superset freq / size), in its order of operations.
fn jlh(sf: f64, ss: f64, bf: f64, bs: f64) -> f64 {
    let (fg, bg) = (sf / ss, bf / bs);
    (fg - bg) * (fg / bg)
}

#[test]
fn significant_terms_scores_with_jlh_against_the_index() {
    let out = foreground(json!({"s": {"significant_terms": {"field": "status"}}}));
    // "rare" (2 docs) is under the default min_doc_count of 3; "ok" is under-represented.
    assert_eq!(
        out["s"],
        json!({"doc_count": 10, "bg_count": 20, "buckets": [
            {"key": "error", "doc_count": 6, "score": jlh(6.0, 10.0, 7.0, 20.0), "bg_count": 7}
        ]})
    );
    let out = foreground(json!({"s": {"significant_terms": {"field": "status", "min_doc_count": 1}}}));
    let keys: Vec<&str> = out["s"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_str().unwrap()).collect();
    assert_eq!(keys, vec!["error", "rare"]);
    assert_eq!(out["s"]["buckets"][1]["score"], json!(jlh(2.0, 10.0, 2.0, 20.0)));
}

#[test]
fn significant_terms_background_filter_and_sub_aggs() {
    let out = foreground(json!({"s": {
        "significant_terms": {"field": "status", "min_doc_count": 1, "background_filter": {"range": {"bytes": {"gte": 500}}}},
        "aggs": {"total": {"sum": {"field": "bytes"}}}
    }}));
    assert_eq!(out["s"]["bg_count"], 15);
    let b = &out["s"]["buckets"];
    assert_eq!(b[0]["key"], "error");
    assert_eq!(b[0]["bg_count"], 6);
    assert_eq!(b[0]["score"], json!(jlh(6.0, 10.0, 6.0, 15.0)));
    assert_eq!(b[0]["total"]["value"], json!((10..=15).map(|i| i * 100).sum::<i64>() as f64));
    assert_eq!(b[1]["key"], "rare");
    assert_eq!(b[1]["score"], json!(jlh(2.0, 10.0, 2.0, 15.0)));
    assert_eq!(b.as_array().unwrap().len(), 2);
}

#[test]
fn significant_terms_other_heuristics_and_include() {
    let out = foreground(json!({
        "p": {"significant_terms": {"field": "status", "min_doc_count": 1, "percentage": {}}},
        "i": {"significant_terms": {"field": "status", "min_doc_count": 1, "include": ["rare"]}}
    }));
    // percentage: fg count / bg count; "rare" is 2/2 = 1, "error" 6/7.
    assert_eq!(out["p"]["buckets"][0]["score"], 1.0);
    assert_eq!(out["p"]["buckets"][1]["score"], json!(6.0 / 7.0));
    let keys: Vec<&str> = out["i"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_str().unwrap()).collect();
    assert_eq!(keys, vec!["rare"]);
}

#[test]
fn significant_terms_unmapped_and_text_fields() {
    let out = foreground(json!({"s": {"significant_terms": {"field": "nope"}}}));
    assert_eq!(out["s"], json!({"buckets": []}));
    let (_d, e) = engine_with(&docs());
    let body = json!({"size": 0, "aggs": {"s": {"significant_terms": {"field": "title"}}}});
    let err = e.search("logs", body.to_string().as_bytes(), &Map::new()).unwrap_err().to_string();
    assert!(err.contains("Fielddata is disabled"), "{err}");
}

#[test]
fn significant_text_reanalyzes_source() {
    let out = foreground(json!({"t": {"significant_text": {"field": "title"}}}));
    // disk 8/10 vs 8/20, raised 6/10 vs 6/20, alarm 6/10 vs 7/20; quiet and all are below
    // their background rate.
    assert_eq!(
        out["t"],
        json!({"doc_count": 10, "bg_count": 20, "buckets": [
            {"key": "disk", "doc_count": 8, "score": jlh(8.0, 10.0, 8.0, 20.0), "bg_count": 8},
            {"key": "raised", "doc_count": 6, "score": jlh(6.0, 10.0, 6.0, 20.0), "bg_count": 6},
            {"key": "alarm", "doc_count": 6, "score": jlh(6.0, 10.0, 7.0, 20.0), "bg_count": 7}
        ]})
    );
    let out = foreground(json!({"t": {"significant_text": {"field": "title", "size": 1, "source_fields": ["title"]}}}));
    assert_eq!(out["t"]["buckets"].as_array().unwrap().len(), 1);
}

#[test]
fn variable_width_histogram_finds_the_two_clusters() {
    let docs: Vec<Value> =
        (0..20).map(|i| json!({"bytes": if i < 10 { 100 + i } else { 5000 + i }, "status": "ok"})).collect();
    let (_d, e) = engine_with(&docs);
    let body = json!({"size": 0, "aggs": {"w": {"variable_width_histogram": {"field": "bytes", "buckets": 2}}}});
    let out = search(&e, "logs", body)["aggregations"].clone();
    assert_eq!(
        out["w"],
        json!({"buckets": [
            {"min": 100.0, "key": 104.5, "max": 109.0, "doc_count": 10},
            {"min": 5010.0, "key": 5014.5, "max": 5019.0, "doc_count": 10}
        ]})
    );
    let body = json!({"size": 0, "aggs": {"w": {"variable_width_histogram": {"field": "bytes"}, "aggs": {"m": {"max": {"field": "bytes"}}}}}});
    assert!(e.search("logs", body.to_string().as_bytes(), &Map::new()).is_err());
}

#[test]
fn significant_terms_over_an_ip_field_shows_addresses() {
    let (_d, e) = engine();
    e.create_index("ips", br#"{"mappings":{"properties":{"ip":{"type":"ip"},"n":{"type":"long"}}}}"#).unwrap();
    let docs: Vec<Value> = (0..10)
        .map(|i| json!({"ip": if i < 4 { "::1" } else if i < 6 { "10.0.0.1" } else { "192.168.0.9" }, "n": i}))
        .collect();
    bulk(&e, "ips", &docs, true);
    let sig = |opts: Value| {
        let mut body = json!({"field": "ip", "min_doc_count": 1});
        body.as_object_mut().unwrap().extend(opts.as_object().unwrap().clone());
        let req = json!({"size": 0, "query": {"range": {"n": {"lt": 5}}}, "aggs": {"s": {"significant_terms": body}}});
        search(&e, "ips", req)["aggregations"]["s"].clone()
    };
    let out = sig(json!({}));
    // ::1 is 4 of the 5 foreground docs and 4 of 10 overall; 10.0.0.1 1/5 against 2/10 is flat.
    assert_eq!(
        out["buckets"],
        json!([{"key": "::1", "doc_count": 4, "score": jlh(4.0, 5.0, 4.0, 10.0), "bg_count": 4}])
    );
    assert_eq!(sig(json!({"include": ["::1"]}))["buckets"][0]["key"], "::1");
    assert_eq!(sig(json!({"exclude": ["::1"]}))["buckets"], json!([]));
    let req = json!({"size": 0, "aggs": {"s": {"significant_terms": {"field": "ip", "exclude": "127.*"}}}});
    let err = e.search("ips", req.to_string().as_bytes(), &Map::new()).unwrap_err().to_string();
    assert!(err.contains("cannot support regular expression style include/exclude"), "{err}");
}

#[test]
fn significant_text_filter_duplicate_text_drops_copied_runs() {
    let (_d, e) = engine();
    e.create_index("goodbad", MAPPING.as_bytes()).unwrap();
    // Each class repeats a six-word boilerplate run; only the class word is left significant
    // once the copies after the first are dropped.
    let docs: Vec<Value> = [
        ("good", "good n1 g1 g2 g3 g4 g5 g6"),
        ("good", "good n2 g1 g2 g3 g4 g5 g6"),
        ("bad", "bad n3 b1 b2 b3 b4 b5 b6"),
        ("bad", "bad n4 b1 b2 b3 b4 b5 b6"),
        ("good", "good bad n5 x1 x2 x3 x4 x5 x6"),
        ("bad", "good bad n6 x1 x2 x3 x4 x5 x6"),
        ("bad", "bad n7 b1 b2 b3 b4 b5 b6"),
    ]
    .iter()
    .map(|(class, text)| json!({"status": class, "title": text}))
    .collect();
    bulk(&e, "goodbad", &docs, true);
    let keys = |dedup: bool| {
        let req = json!({"size": 0, "aggs": {"c": {"terms": {"field": "status"}, "aggs": {
            "t": {"significant_text": {"field": "title", "filter_duplicate_text": dedup}}
        }}}});
        let out = search(&e, "goodbad", req);
        let buckets = out["aggregations"]["c"]["buckets"].as_array().unwrap().clone();
        buckets
            .iter()
            .map(|b| {
                let terms =
                    b["t"]["buckets"].as_array().unwrap().iter().map(|t| t["key"].as_str().unwrap().to_string());
                (b["key"].as_str().unwrap().to_string(), terms.collect::<Vec<_>>())
            })
            .collect::<Vec<_>>()
    };
    let deduped = keys(true);
    assert_eq!(
        deduped,
        vec![("bad".to_string(), vec!["bad".to_string()]), ("good".to_string(), vec!["good".to_string()])]
    );
    // Without the filter b1..b6 are in 3 of the 4 "bad" docs and all of the index's.
    let plain = keys(false);
    assert!(plain[0].1.contains(&"b1".to_string()), "{plain:?}");
}
