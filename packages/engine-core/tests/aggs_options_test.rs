//! Aggregation options that used to be refused: `terms` `include`/`exclude`, `missing`,
//! `min_doc_count: 0`, `show_term_doc_count_error`, `format`; `histogram` `offset`,
//! `extended_bounds`, `hard_bounds`, `keyed`, `order`, `missing`; `range`/`date_range`
//! `keyed` and `time_zone`; `extended_stats` `sigma`; metric `missing`/`format`;
//! `weighted_avg`; `cardinality` `precision_threshold`; `top_hits` `version` and
//! `seq_no_primary_term`.

mod common;

use engine_core::Engine;
use serde_json::{json, Map, Value};

/// Ten sample docs (`common::sample_docs`): status "error" on ids 3, 6, 9, else "ok"; an eleventh doc "warn" without numbers; bytes
/// 100..1000; price 1.5 x id; ts one month per three docs from January.
fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine.create_index("logs", common::MAPPING.as_bytes()).unwrap();
    let mut docs = common::sample_docs();
    docs.push(json!({"title": "no numbers", "status": "warn"}));
    common::bulk(&engine, "logs", &docs, true);
    (dir, engine)
}

fn agg(engine: &Engine, query: Value, aggs: Value) -> Value {
    let resp = common::search(engine, "logs", json!({"size": 0, "query": query, "aggs": {"a": aggs}}));
    resp["aggregations"]["a"].clone()
}

fn keys(buckets: &Value) -> Vec<Value> {
    buckets.as_array().unwrap().iter().map(|b| json!([b["key"], b["doc_count"]])).collect()
}

fn all() -> Value {
    json!({"match_all": {}})
}

#[test]
fn terms_include_exclude_and_partitions() {
    let (_dir, engine) = setup();
    let a = agg(&engine, all(), json!({"terms": {"field": "status", "include": ["ok", "warn"]}}));
    assert_eq!(keys(&a["buckets"]), [json!(["ok", 7]), json!(["warn", 1])]);
    assert_eq!(a["sum_other_doc_count"], 0, "excluded terms are not counted as other");
    let a = agg(&engine, all(), json!({"terms": {"field": "status", "exclude": "o.*"}}));
    assert_eq!(keys(&a["buckets"]), [json!(["error", 3]), json!(["warn", 1])]);
    let a = agg(&engine, all(), json!({"terms": {"field": "bytes", "include": [100, 300]}}));
    assert_eq!(keys(&a["buckets"]), [json!([100, 1]), json!([300, 1])]);
    let part = |p: u64| {
        agg(&engine, all(), json!({"terms": {"field": "status", "include": {"partition": p, "num_partitions": 2}}}))
    };
    let (zero, one) = (part(0)["buckets"].as_array().unwrap().len(), part(1)["buckets"].as_array().unwrap().len());
    assert_eq!(zero + one, 3, "every term in exactly one partition");
    let body = json!({"aggs": {"a": {"terms": {"field": "bytes", "include": "1.*"}}}}).to_string();
    assert!(engine.search("logs", body.as_bytes(), &Map::new()).is_err(), "regular expressions are for strings");
}

#[test]
fn terms_missing_min_doc_count_zero_error_bound_and_format() {
    let (_dir, engine) = setup();
    let a = agg(&engine, all(), json!({"terms": {"field": "bytes", "missing": -1, "size": 1}}));
    assert_eq!(keys(&a["buckets"]), [json!([-1, 1])]);
    let a = agg(&engine, all(), json!({"terms": {"field": "nothing_here", "missing": "none"}}));
    assert_eq!(keys(&a["buckets"]), [json!(["none", 11])]);
    let error_only = json!({"term": {"status": "error"}});
    let a = agg(&engine, error_only.clone(), json!({"terms": {"field": "status", "min_doc_count": 0}}));
    assert_eq!(keys(&a["buckets"]), [json!(["error", 3]), json!(["ok", 0]), json!(["warn", 0])]);
    let a = agg(&engine, error_only, json!({"terms": {"field": "bytes", "min_doc_count": 0, "size": 20}}));
    assert_eq!(a["buckets"].as_array().unwrap().len(), 10, "every value of the field, matched or not");
    let a = agg(&engine, all(), json!({"terms": {"field": "status", "size": 1, "show_term_doc_count_error": true}}));
    assert_eq!(a["buckets"][0]["doc_count_error_upper_bound"], 0);
    let a = agg(
        &engine,
        all(),
        json!({"terms": {"field": "bytes", "size": 1, "format": "00000", "order": {"_key": "asc"}}}),
    );
    assert_eq!(a["buckets"][0]["key_as_string"], "00100");
}

#[test]
fn histogram_offset_bounds_keyed_order_and_missing() {
    let (_dir, engine) = setup();
    let a = agg(&engine, all(), json!({"histogram": {"field": "bytes", "interval": 400, "offset": 100}}));
    assert_eq!(keys(&a["buckets"]), [json!([100.0, 4]), json!([500.0, 4]), json!([900.0, 2])]);
    let a = agg(
        &engine,
        all(),
        json!({"histogram": {"field": "bytes", "interval": 500, "extended_bounds": {"min": -500, "max": 1500}}}),
    );
    assert_eq!(
        keys(&a["buckets"]),
        [json!([-500.0, 0]), json!([0.0, 4]), json!([500.0, 5]), json!([1000.0, 1]), json!([1500.0, 0])]
    );
    let a = agg(
        &engine,
        all(),
        json!({"histogram": {"field": "bytes", "interval": 100, "hard_bounds": {"min": 300, "max": 500}}}),
    );
    assert_eq!(keys(&a["buckets"]), [json!([300.0, 1]), json!([400.0, 1]), json!([500.0, 1])]);
    let a = agg(&engine, all(), json!({"histogram": {"field": "bytes", "interval": 500, "keyed": true}}));
    assert_eq!(a["buckets"]["500.0"]["doc_count"], 5);
    let a = agg(&engine, all(), json!({"histogram": {"field": "bytes", "interval": 500, "order": {"_count": "asc"}}}));
    assert_eq!(keys(&a["buckets"]), [json!([1000.0, 1]), json!([0.0, 4]), json!([500.0, 5])]);
    let a = agg(&engine, all(), json!({"histogram": {"field": "bytes", "interval": 1000, "missing": 0}}));
    assert_eq!(keys(&a["buckets"]), [json!([0.0, 10]), json!([1000.0, 1])]);
}

#[test]
fn keyed_ranges_and_date_range_time_zone() {
    let (_dir, engine) = setup();
    let a = agg(
        &engine,
        all(),
        json!({"range": {"field": "bytes", "keyed": true, "ranges": [{"to": 500}, {"key": "big", "from": 500}]}}),
    );
    assert_eq!(a["buckets"]["*-500.0"]["doc_count"], 4);
    assert_eq!(a["buckets"]["big"]["doc_count"], 6);
    assert!(a["buckets"]["big"].get("key").is_none(), "a keyed range bucket leaves its key out");
    let a = agg(
        &engine,
        all(),
        json!({"date_range": {"field": "ts", "time_zone": "+02:00", "ranges": [{"to": "2024-02-01T00:00:00"}]}}),
    );
    assert_eq!(a["buckets"][0]["to_as_string"], "2024-02-01T00:00:00.000+02:00");
    assert_eq!(a["buckets"][0]["to"], json!(1_706_738_400_000.0));
    assert_eq!(a["buckets"][0]["doc_count"], 3);
}

#[test]
fn metric_options_sigma_missing_format_weighted_avg_and_cardinality() {
    let (_dir, engine) = setup();
    let a = agg(&engine, all(), json!({"extended_stats": {"field": "bytes", "sigma": 1}}));
    let (avg, std) = (a["avg"].as_f64().unwrap(), a["std_deviation"].as_f64().unwrap());
    assert!((a["std_deviation_bounds"]["upper"].as_f64().unwrap() - (avg + std)).abs() < 1e-9);
    let a = agg(&engine, all(), json!({"avg": {"field": "bytes", "missing": 0}}));
    assert_eq!(a["value"], json!(5500.0 / 11.0));
    let a = agg(&engine, all(), json!({"sum": {"field": "bytes", "format": "#,##0.0"}}));
    assert_eq!(a["value_as_string"], "5,500.0");
    let a = agg(&engine, all(), json!({"weighted_avg": {"value": {"field": "price"}, "weight": {"field": "bytes"}}}));
    // sum(1.5 i * 100 i) / sum(100 i) over i = 1..10 = 1.5 * 385 / 55.
    assert!((a["value"].as_f64().unwrap() - 1.5 * 385.0 / 55.0).abs() < 1e-9, "{a}");
    let a = agg(&engine, all(), json!({"cardinality": {"field": "status", "precision_threshold": 100}}));
    assert_eq!(a["value"], 3);
}

#[test]
fn top_hits_show_versions_and_sequence_numbers() {
    let (_dir, engine) = setup();
    let a = agg(
        &engine,
        json!({"ids": {"values": ["2"]}}),
        json!({"top_hits": {"size": 1, "version": true, "seq_no_primary_term": true}}),
    );
    let hit = &a["hits"]["hits"][0];
    assert_eq!((hit["_version"].clone(), hit["_primary_term"].clone()), (json!(1), json!(1)));
    assert!(hit["_seq_no"].as_u64().is_some(), "{hit}");
}
