//! Pipeline aggregations over the ten sample docs (price 1.5 * i; ts: i = 1..3 in January,
//! 4..6 February, 7..9 March, 10 April 2024), so monthly price sums are 9, 22.5, 36, 15.
mod common;

use common::*;
use serde_json::{json, Value};

fn run(extra: &[Value], body: Value) -> Result<Value, (String, u16)> {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    let mut docs = sample_docs();
    docs.extend_from_slice(extra);
    bulk(&e, "logs", &docs, true);
    let body = json!({"size": 0, "aggs": body}).to_string();
    match e.search("logs", body.as_bytes(), &serde_json::Map::new()) {
        Ok(s) => Ok(serde_json::from_str::<Value>(&s).unwrap()["aggregations"].clone()),
        Err(err) => Err((err.to_es_body().to_string(), err.status())),
    }
}

fn aggs(body: Value) -> Value {
    run(&[], body).unwrap()
}

fn monthly(subs: Value) -> Value {
    let mut inner = json!({"s": {"sum": {"field": "price"}}});
    inner.as_object_mut().unwrap().extend(subs.as_object().unwrap().clone());
    json!({"m": {"date_histogram": {"field": "ts", "calendar_interval": "month"}, "aggs": inner}})
}

fn series(out: &Value, name: &str) -> Vec<Value> {
    out["m"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.get(name).map_or(json!("absent"), |v| v["value"].clone()))
        .collect()
}

#[test]
fn sibling_pipelines_over_a_date_histogram() {
    let mut body = monthly(json!({}));
    body.as_object_mut().unwrap().extend(
        json!({
            "total": {"sum_bucket": {"buckets_path": "m>s"}},
            "mean": {"avg_bucket": {"buckets_path": "m>s"}},
            "top": {"max_bucket": {"buckets_path": "m>s"}},
            "low": {"min_bucket": {"buckets_path": "m.s"}},
            "st": {"stats_bucket": {"buckets_path": "m>s"}},
            "pct": {"percentiles_bucket": {"buckets_path": "m>s", "percents": [0, 50, 100]}},
            "pct_list": {"percentiles_bucket": {"buckets_path": "m>_count", "percents": [50], "keyed": false}},
        })
        .as_object()
        .unwrap()
        .clone(),
    );
    let out = aggs(body);
    assert_eq!(out["total"], json!({"value": 82.5}));
    assert_eq!(out["mean"], json!({"value": 20.625}));
    let march = out["m"]["buckets"][2]["key_as_string"].clone();
    let january = out["m"]["buckets"][0]["key_as_string"].clone();
    assert_eq!(out["top"], json!({"value": 36.0, "keys": [march]}));
    assert_eq!(out["low"], json!({"value": 9.0, "keys": [january]}));
    assert_eq!(out["st"], json!({"count": 4, "min": 9.0, "max": 36.0, "avg": 20.625, "sum": 82.5}));
    // Nearest rank over [9, 15, 22.5, 36]: index round(0.5 * 3) = 2.
    assert_eq!(out["pct"]["values"], json!({"0.0": 9.0, "50.0": 22.5, "100.0": 36.0}));
    // Counts [3, 3, 3, 1] sorted [1, 3, 3, 3].
    assert_eq!(out["pct_list"]["values"], json!([{"key": 50.0, "value": 3.0}]));
}

#[test]
fn parent_pipelines_in_a_date_histogram() {
    let out = aggs(monthly(json!({
        "d": {"derivative": {"buckets_path": "s"}},
        "cum": {"cumulative_sum": {"buckets_path": "s"}},
        "lag2": {"serial_diff": {"buckets_path": "s", "lag": 2}},
        "mv": {"moving_fn": {"buckets_path": "s", "window": 2, "script": "MovingFunctions.unweightedAvg(values)"}},
        "per_doc": {"bucket_script": {"buckets_path": {"sum": "s", "n": "_count"}, "script": "params.sum / params.n"}},
    })));
    assert_eq!(series(&out, "d"), [json!("absent"), json!(13.5), json!(13.5), json!(-21.0)]);
    assert_eq!(series(&out, "cum"), [json!(9.0), json!(31.5), json!(67.5), json!(82.5)]);
    assert_eq!(series(&out, "lag2"), [json!("absent"), json!("absent"), json!(27.0), json!(-7.5)]);
    // Windows before each bucket: [], [9], [9, 22.5], [22.5, 36].
    assert_eq!(series(&out, "mv"), [Value::Null, json!(9.0), json!(15.75), json!(29.25)]);
    assert_eq!(series(&out, "per_doc"), [json!(3.0), json!(7.5), json!(12.0), json!(15.0)]);
}

#[test]
fn selector_and_sort_reshape_buckets() {
    let out = aggs(monthly(json!({
        "keep": {"bucket_selector": {"buckets_path": {"n": "_count"}, "script": "params.n >= 3"}},
        "order": {"bucket_sort": {"sort": [{"s": {"order": "desc"}}], "size": 2}},
    })));
    let sums: Vec<_> = out["m"]["buckets"].as_array().unwrap().iter().map(|b| b["s"]["value"].clone()).collect();
    assert_eq!(sums, [json!(36.0), json!(22.5)]);
    assert!(out["m"]["buckets"][0].get("keep").is_none() && out["m"]["buckets"][0].get("order").is_none());
    let terms = aggs(json!({"t": {"terms": {"field": "status"}, "aggs": {
        "p": {"sum": {"field": "price"}},
        "by_key": {"bucket_sort": {"sort": ["_key"], "from": 1}}
    }}}));
    assert_eq!(terms["t"]["buckets"].as_array().unwrap().len(), 1);
    assert_eq!(terms["t"]["buckets"][0]["key"], "ok");
}

#[test]
fn gap_policies_on_empty_histogram_buckets() {
    // A doc at bytes 2000 leaves buckets 1200 and 1500 empty (interval 300).
    let extra = [json!({"bytes": 2000, "price": 30.0})];
    let body = json!({"h": {"histogram": {"field": "bytes", "interval": 300}, "aggs": {
        "p": {"sum": {"field": "price"}},
        "d_skip": {"derivative": {"buckets_path": "p"}},
        "d_zero": {"derivative": {"buckets_path": "p", "gap_policy": "insert_zeros"}},
        "cum": {"cumulative_sum": {"buckets_path": "p"}}
    }}, "avg_nonempty": {"avg_bucket": {"buckets_path": "h>p"}}});
    let out = run(&extra, body).unwrap();
    let b = out["h"]["buckets"].as_array().unwrap();
    assert_eq!(b.len(), 7);
    assert_eq!(b[4]["doc_count"], 0);
    // Sums per bucket: 4.5, 18, 31.5, 28.5, gap, gap, 30.
    assert_eq!(b[4]["d_skip"]["value"], Value::Null);
    assert_eq!(b[6]["d_skip"]["value"], Value::Null);
    assert_eq!(b[4]["d_zero"]["value"], -28.5);
    assert_eq!(b[6]["d_zero"]["value"], 30.0);
    assert_eq!(b[5]["cum"]["value"], 82.5);
    assert_eq!(b[6]["cum"]["value"], 112.5);
    // Empty buckets are skipped: (4.5 + 18 + 31.5 + 28.5 + 30) / 5.
    assert_eq!(out["avg_nonempty"]["value"], 22.5);
}

#[test]
fn pipelines_can_read_other_pipelines() {
    let out = aggs(monthly(
        json!({"cum": {"cumulative_sum": {"buckets_path": "s"}}, "a_d": {"derivative": {"buckets_path": "cum"}}}),
    ));
    // The derivative of the running total is the monthly sum again.
    assert_eq!(series(&out, "a_d"), [json!("absent"), json!(22.5), json!(36.0), json!(15.0)]);
    let mut body = monthly(json!({"d": {"derivative": {"buckets_path": "s"}}}));
    body["biggest_rise"] = json!({"max_bucket": {"buckets_path": "m>d"}});
    let out = aggs(body);
    assert_eq!(out["biggest_rise"]["value"], 13.5);
    assert_eq!(out["biggest_rise"]["keys"].as_array().unwrap().len(), 2);
}

#[test]
fn bad_paths_and_placements_are_400s() {
    let err = |body: Value| run(&[], body).unwrap_err();
    let (cause, status) = err(json!({"t": {"sum_bucket": {"buckets_path": "nope>s"}}}));
    assert_eq!(status, 400);
    assert!(
        cause.contains("action_request_validation_exception")
            && cause.contains("No aggregation found for path [nope>s]"),
        "{cause}"
    );
    let (cause, status) = err(monthly(json!({"d": {"derivative": {"buckets_path": "missing"}}})));
    assert_eq!(status, 400);
    assert!(cause.contains("No aggregation found for path [missing]"), "{cause}");
    let (cause, _) = err(json!({"d": {"derivative": {"buckets_path": "_count"}}}));
    assert!(cause.contains("but doesn't have a parent"), "{cause}");
    let (cause, _) =
        err(json!({"t": {"terms": {"field": "status"}, "aggs": {"d": {"derivative": {"buckets_path": "_count"}}}}}));
    assert!(cause.contains("histogram, date_histogram or auto_date_histogram"), "{cause}");
    let (cause, _) = err(monthly(json!({"x": {"bucket_sort": {}}})));
    assert!(cause.contains("configured to perform nothing"), "{cause}");
    let (cause, _) = err(monthly(json!({"x": {"derivative": {"buckets_path": "s", "gap_policy": "zero"}}})));
    assert!(cause.contains("Invalid gap policy"), "{cause}");
    let (cause, status) =
        err(monthly(json!({"x": {"bucket_script": {"buckets_path": {"a": "s"}, "script": "doc['price'].value"}}})));
    assert_eq!(status, 400);
    assert!(cause.contains("script_exception") && cause.contains("doc['price'] outside a script query"), "{cause}");
}

#[test]
fn scripted_metric_summing_shape() {
    let out = aggs(json!({"total": {"scripted_metric": {
        "init_script": "state.p = []",
        "map_script": "state.p.add(doc['price'].value)",
        "combine_script": "double s = 0; for (t in state.p) { s += t } return s",
        "reduce_script": "double s = 0; for (a in states) { s += a } return s"
    }}}));
    assert_eq!(out["total"]["value"], 82.5);
    let err = run(
        &[],
        json!({"total": {"scripted_metric": {
            "init_script": "state.p = []",
            "map_script": "state.p.add(doc['price'].value * 2)",
            "combine_script": "return state.p",
            "reduce_script": "return states"
        }}}),
    )
    .unwrap_err();
    assert!(err.0.contains("script_exception"), "{}", err.0);
}
