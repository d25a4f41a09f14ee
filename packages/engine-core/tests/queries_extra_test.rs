//! function_score, pinned, match_bool_prefix, combined_fields over the ten sample docs
//! (doc i: bytes = 100 i, price = 1.5 i, status "error" for 3/6/9, "Quick brown fox i" titles
//! on even ids, "lazy dog i" on odd ones, ts on the 15th of months 1..4). Expected scores are
//! computed here from ES's published formulas, independently of the engine's code.
mod common;

use std::collections::HashMap;

use common::*;
use serde_json::{json, Value};

fn engine_with_docs() -> (tempfile::TempDir, engine_core::Engine) {
    let (d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    (d, e)
}

fn scores(resp: &Value) -> HashMap<String, f64> {
    resp["hits"]["hits"]
        .as_array()
        .unwrap_or_else(|| panic!("no hits: {resp}"))
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap()))
        .collect()
}

fn fs(e: &engine_core::Engine, body: Value) -> HashMap<String, f64> {
    scores(&search(e, "logs", json!({"size": 20, "query": {"function_score": body}})))
}

fn assert_scores(got: &HashMap<String, f64>, want: impl Fn(u32) -> Option<f64>) {
    for i in 1..=10u32 {
        match (got.get(&i.to_string()), want(i)) {
            (Some(g), Some(w)) => assert!((g - w).abs() < 1e-4 * w.abs().max(1.0), "doc {i}: got {g}, want {w}"),
            (None, None) => {}
            (g, w) => panic!("doc {i}: got {g:?}, want {w:?}"),
        }
    }
}

fn error_of(e: &engine_core::Engine, body: Value) -> String {
    e.search("logs", body.to_string().as_bytes(), &serde_json::Map::new()).unwrap_err().to_string()
}

/// How an expected score combines two numbers.
type Combine = fn(f64, f64) -> f64;

#[test]
fn filtered_weights_follow_score_mode_and_boost_mode() {
    let (_d, e) = engine_with_docs();
    let functions = json!([
        {"filter": {"term": {"status": "error"}}, "weight": 3},
        {"filter": {"term": {"ok": true}}, "weight": 2}
    ]);
    let both = |i: u32| (i.is_multiple_of(3), i.is_multiple_of(2));
    let cases: Vec<(&str, Combine)> =
        vec![("sum", |a, b| a + b), ("multiply", |a, b| a * b), ("max", f64::max), ("min", f64::min)];
    for (mode, f) in cases {
        let got = fs(&e, json!({"functions": functions, "score_mode": mode, "boost_mode": "replace"}));
        assert_scores(&got, |i| {
            Some(match both(i) {
                (true, true) => f(3.0, 2.0),
                (true, false) => 3.0,
                (false, true) => 2.0,
                (false, false) => 1.0,
            })
        });
    }
    // avg is weighted: (3 + 2) / (3 + 2) = 1 where both match; first takes the first match.
    let got = fs(&e, json!({"functions": functions, "score_mode": "avg", "boost_mode": "replace"}));
    assert_scores(&got, |_| Some(1.0));
    let got = fs(&e, json!({"functions": functions, "score_mode": "first", "boost_mode": "replace"}));
    assert_scores(&got, |i| {
        Some(if i % 3 == 0 {
            3.0
        } else if i % 2 == 0 {
            2.0
        } else {
            1.0
        })
    });
}

#[test]
fn boost_modes_combine_with_the_query_score() {
    let (_d, e) = engine_with_docs();
    let query = json!({"constant_score": {"filter": {"match_all": {}}, "boost": 4}});
    let modes: Vec<(&str, Combine)> = vec![
        ("multiply", |q, f| q * f),
        ("replace", |_, f| f),
        ("sum", |q, f| q + f),
        ("avg", |q, f| (q + f) / 2.0),
        ("max", f64::max),
        ("min", f64::min),
    ];
    for (mode, f) in modes {
        let got = fs(&e, json!({"query": query, "weight": 2.5, "boost_mode": mode}));
        assert_scores(&got, |_| Some(f(4.0, 2.5)));
    }
    // max_boost caps the function value, boost multiplies the result.
    let got = fs(&e, json!({"query": query, "weight": 10, "max_boost": 3, "boost": 2}));
    assert_scores(&got, |_| Some(4.0 * 3.0 * 2.0));
}

#[test]
fn field_value_factor_modifiers_and_missing() {
    let (_d, e) = engine_with_docs();
    let got = fs(&e, json!({"field_value_factor": {"field": "bytes", "factor": 2, "modifier": "log1p"}}));
    assert_scores(&got, |i| Some((1.0 + 2.0 * 100.0 * i as f64).log10()));
    let got = fs(&e, json!({"field_value_factor": {"field": "price", "modifier": "sqrt"}, "boost_mode": "replace"}));
    assert_scores(&got, |i| Some((1.5 * i as f64).sqrt()));
    let got = fs(&e, json!({"field_value_factor": {"field": "bytes", "modifier": "reciprocal"}, "weight": 100}));
    assert_scores(&got, |i| Some(100.0 / (100.0 * i as f64)));
    let got = fs(&e, json!({"field_value_factor": {"field": "nope", "missing": 4, "modifier": "square"}}));
    assert_scores(&got, |_| Some(16.0));
    assert!(error_of(&e, json!({"query": {"function_score": {"field_value_factor": {"field": "nope"}}}}))
        .contains("No 'missing' value defined"));
    // ln(0.5 * 100) is fine, ln of a value below 1 is negative: ES refuses negative scores.
    let body = json!({"query": {"function_score": {"field_value_factor": {"field": "bytes", "factor": 0.001, "modifier": "ln"}}}});
    assert!(error_of(&e, body).contains("negative"));
}

#[test]
fn numeric_decay_functions_match_the_es_curves() {
    let (_d, e) = engine_with_docs();
    let dist = |i: u32| ((100.0 * i as f64 - 500.0).abs() - 100.0).max(0.0);
    let params = json!({"bytes": {"origin": 500, "scale": 200, "offset": 100, "decay": 0.3}});
    let got = fs(&e, json!({"gauss": params, "boost_mode": "replace"}));
    assert_scores(&got, |i| Some(0.3f64.powf(dist(i).powi(2) / 200f64.powi(2))));
    let got = fs(&e, json!({"exp": params, "boost_mode": "replace"}));
    assert_scores(&got, |i| Some(0.3f64.powf(dist(i) / 200.0)));
    let got = fs(&e, json!({"linear": params, "boost_mode": "replace"}));
    let s = 200.0 / (1.0 - 0.3);
    assert_scores(&got, |i| Some(((s - dist(i)) / s).max(0.0)));
    assert!(error_of(&e, json!({"query": {"function_score": {"gauss": {"bytes": {"scale": 10}}}}})).contains("origin"));
    assert!(error_of(&e, json!({"query": {"function_score": {"gauss": {"status": {"origin": 1, "scale": 10}}}}}))
        .contains("only numeric types"));
}

#[test]
fn date_decay_uses_time_value_scales_and_date_math_origins() {
    let (_d, e) = engine_with_docs();
    let day = 86_400_000.0;
    let month_ms = |i: u32| chrono_ms(&format!("2024-0{}-15T12:00:00Z", (i - 1) / 3 + 1));
    let origin = chrono_ms("2024-03-15T12:00:00Z");
    let got = fs(
        &e,
        json!({"exp": {"ts": {"origin": "2024-03-15T12:00:00Z", "scale": "30d", "offset": "1d"}}, "boost_mode": "replace"}),
    );
    assert_scores(&got, |i| Some(0.5f64.powf(((month_ms(i) - origin).abs() - day).max(0.0) / (30.0 * day))));
    // `now` as the origin: every sample date lies in the past; older ones score lower.
    let got = fs(&e, json!({"gauss": {"ts": {"origin": "now-1d", "scale": "1000d"}}, "boost_mode": "replace"}));
    assert!(got["10"] > got["1"] && got["1"] > 0.0 && got["10"] < 1.0, "{got:?}");
}

#[test]
fn min_score_drops_matches_and_counts_follow() {
    let (_d, e) = engine_with_docs();
    let body = json!({"size": 20, "track_total_hits": true, "query": {"function_score": {
        "field_value_factor": {"field": "bytes"}, "boost_mode": "replace", "min_score": 700
    }}});
    let resp = search(&e, "logs", body);
    assert_eq!(resp["hits"]["total"]["value"], 4);
    assert_eq!(ids(&resp), vec!["10", "9", "8", "7"]);
    // In a filter the scores still decide which documents pass.
    let count = e
        .count(
            "logs",
            json!({"query": {"bool": {"filter": [{"function_score": {"field_value_factor": {"field": "bytes"}, "min_score": 250}}]}}})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
    assert!(count.contains("\"count\":8"), "{count}");
}

#[test]
fn function_score_keeps_bm25_query_scores_on_the_es_scale() {
    let (_d, e) = engine_with_docs();
    let plain = scores(&search(&e, "logs", json!({"query": {"match": {"title": "fox"}}})));
    let got = fs(&e, json!({"query": {"match": {"title": "fox"}}, "weight": 3}));
    assert_eq!(plain.len(), got.len());
    for (id, s) in &plain {
        assert!((got[id] - 3.0 * s).abs() < 1e-4, "doc {id}");
    }
    let got = fs(&e, json!({"query": {"match": {"title": "fox"}}, "weight": 1, "boost_mode": "sum"}));
    for (id, s) in &plain {
        assert!((got[id] - (s + 1.0)).abs() < 1e-4, "doc {id}");
    }
}

#[test]
fn pinned_ids_lead_in_order_then_organic() {
    let (_d, e) = engine_with_docs();
    let resp = search(
        &e,
        "logs",
        json!({"size": 20, "query": {"pinned": {"ids": ["7", "2", "missing"], "organic": {"match": {"title": "fox"}}}}}),
    );
    let got = ids(&resp);
    assert_eq!(&got[..2], &["7", "2"]);
    let mut rest = got[2..].to_vec();
    rest.sort();
    assert_eq!(rest, vec!["10", "4", "6", "8"]);
    assert_eq!(resp["hits"]["total"]["value"], 6);
}

#[test]
fn match_bool_prefix_treats_the_last_term_as_a_prefix() {
    let (_d, e) = engine_with_docs();
    let q = |body: Value| {
        let mut got = ids(&search(&e, "logs", json!({"size": 20, "query": {"match_bool_prefix": body}})));
        got.sort();
        got
    };
    assert_eq!(q(json!({"title": "qui"})), vec!["10", "2", "4", "6", "8"]);
    assert_eq!(q(json!({"title": "fox la"})).len(), 10);
    assert_eq!(q(json!({"title": {"query": "brown fo", "operator": "and"}})), vec!["10", "2", "4", "6", "8"]);
    assert!(q(json!({"title": {"query": "brown la", "operator": "and"}})).is_empty());
    assert_eq!(q(json!({"title": {"query": "dog lazy 1", "minimum_should_match": 3}})), vec!["1"]);
    assert_eq!(q(json!({"status": "er"})), vec!["3", "6", "9"]);
}

#[test]
fn combined_fields_matches_like_one_field() {
    let (_d, e) = engine_with_docs();
    let plain = scores(&search(&e, "logs", json!({"size": 20, "query": {"match": {"title": "brown dog"}}})));
    let got = scores(&search(
        &e,
        "logs",
        json!({"size": 20, "query": {"combined_fields": {"query": "brown dog", "fields": ["title"]}}}),
    ));
    assert_eq!(plain.len(), got.len());
    for (id, s) in &plain {
        assert!((got[id] - s).abs() < 1e-5, "doc {id}");
    }
    let and = search(
        &e,
        "logs",
        json!({"query": {"combined_fields": {"query": "quick fox 4", "fields": ["title", "nope"], "operator": "and"}}}),
    );
    assert_eq!(ids(&and), vec!["4"]);
    let err = error_of(&e, json!({"query": {"combined_fields": {"query": "ok", "fields": ["status"]}}}));
    assert!(err.contains("does not support [combined_fields]"), "{err}");
}

fn sorted_ids(e: &engine_core::Engine, query: Value) -> Vec<String> {
    let mut got = ids(&search(e, "logs", json!({"size": 20, "query": query})));
    got.sort_by_key(|id| id.parse::<u32>().unwrap());
    got
}

#[test]
fn simple_query_string_operators() {
    let (_d, e) = engine_with_docs();
    let sqs = |q: &str, extra: Value| {
        let mut body = json!({"query": q, "fields": ["title"]});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        sorted_ids(&e, json!({"simple_query_string": body}))
    };
    let even = vec!["2", "4", "6", "8", "10"];
    assert_eq!(sqs("fox", json!({})), even);
    assert_eq!(sqs("fox | 3", json!({})), vec!["2", "3", "4", "6", "8", "10"]);
    assert_eq!(sqs("fox + 4", json!({})), vec!["4"]);
    assert_eq!(sqs("fox 4", json!({"default_operator": "and"})), vec!["4"]);
    // `-x` is `match_all -x` joined by OR: "fox -quick" is fox OR (not quick) = everything.
    assert_eq!(sqs("fox -quick", json!({})).len(), 10);
    assert_eq!(sqs("fox +-4", json!({})), vec!["2", "6", "8", "10"]);
    assert_eq!(sqs("\"brown fox\"", json!({})), even);
    assert!(sqs("\"fox brown\"", json!({})).is_empty());
    assert_eq!(sqs("\"fox brown\"~2", json!({})), even);
    assert_eq!(sqs("qui*", json!({})), even);
    assert_eq!(sqs("laxy~1", json!({})), vec!["1", "3", "5", "7", "9"]);
    assert_eq!(sqs("(lazy | quick) + (1 | 2)", json!({})), vec!["1", "2"]);
    // With PREFIX off, `*` is text: the analyzer drops it and "qui" matches nothing.
    assert!(sqs("qui*", json!({"flags": "AND|OR"})).is_empty());
    // Default fields: every text and keyword field.
    assert_eq!(sorted_ids(&e, json!({"simple_query_string": {"query": "error"}})), vec!["3", "6", "9"]);
}

#[test]
fn query_string_syntax_subset() {
    let (_d, e) = engine_with_docs();
    let qs = |q: &str| sorted_ids(&e, json!({"query_string": {"query": q, "default_field": "title"}}));
    let even = vec!["2", "4", "6", "8", "10"];
    assert_eq!(qs("fox"), even);
    assert_eq!(qs("fox AND 4"), vec!["4"]);
    assert_eq!(qs("fox AND NOT 4"), vec!["2", "6", "8", "10"]);
    assert_eq!(qs("+fox -4 -6"), vec!["2", "8", "10"]);
    assert_eq!(qs("(fox OR dog) AND (1 OR 2)"), vec!["1", "2"]);
    assert_eq!(qs("status:error AND fox"), vec!["6"]);
    assert_eq!(qs("bytes:[200 TO 400]"), vec!["2", "3", "4"]);
    assert_eq!(qs("bytes:{200 TO 400}"), vec!["3"]);
    assert_eq!(qs("bytes:>=900"), vec!["9", "10"]);
    assert_eq!(qs("bytes:[* TO 100]"), vec!["1"]);
    assert_eq!(qs("\"brown fox\" AND title:qu*"), even);
    assert_eq!(qs("NOT fox"), vec!["1", "3", "5", "7", "9"]);
    assert_eq!(qs("status:er*"), vec!["3", "6", "9"]);
    assert_eq!(qs("_exists_:price AND bytes:<200"), vec!["1"]);
    assert_eq!(
        sorted_ids(
            &e,
            json!({"query_string": {"query": "fox 4", "default_field": "title", "default_operator": "AND"}})
        ),
        vec!["4"]
    );
    let fields = sorted_ids(&e, json!({"query_string": {"query": "error OR 1", "fields": ["title", "status"]}}));
    assert_eq!(fields, vec!["1", "3", "6", "9"]);
    // A regular expression over the terms (the analysed title's lowercase terms).
    assert_eq!(qs("title:/fo./"), sorted_ids(&e, json!({"regexp": {"title": "fo."}})));
    assert!(!qs("title:/fo./").is_empty());
    for bad in ["fox AND", "(fox", "title:/fo.*", "\"open", "bytes:[1 TO"] {
        let err = e
            .search(
                "logs",
                json!({"query": {"query_string": {"query": bad}}}).to_string().as_bytes(),
                &serde_json::Map::new(),
            )
            .unwrap_err();
        assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400), "{bad}");
    }
}

#[test]
fn more_like_this_picks_terms_from_index_statistics() {
    let (_d, e) = engine_with_docs();
    let mlt = |extra: Value| {
        let mut body = json!({"fields": ["title"], "like": "quick quick fox fox lazy 4 4"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        sorted_ids(&e, json!({"more_like_this": body}))
    };
    let even = vec!["2", "4", "6", "8", "10"];
    // min_term_freq 2 drops "lazy"; min_doc_freq 5 drops "4" (in one doc only).
    assert_eq!(mlt(json!({})), even);
    // With "4" allowed it ranks first (rarest); keeping one term leaves only doc 4.
    assert_eq!(mlt(json!({"min_doc_freq": 1, "max_query_terms": 1})), vec!["4"]);
    assert_eq!(mlt(json!({"min_doc_freq": 1, "minimum_should_match": "100%"})), vec!["4"]);
    assert!(mlt(json!({"min_term_freq": 1, "minimum_should_match": 3})).is_empty());
    assert_eq!(mlt(json!({"min_term_freq": 1, "stop_words": ["quick", "fox"]})), vec!["1", "3", "5", "7", "9"]);
    let count = e
        .count(
            "logs",
            json!({"query": {"bool": {"filter": [{"more_like_this": {"like": "dog dog", "fields": ["title"]}}]}}})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
    assert!(count.contains("\"count\":5"), "{count}");
    let err = error_of(&e, json!({"query": {"more_like_this": {"like": "x", "fields": ["bytes"]}}}));
    assert!(err.contains("only supports text/keyword"), "{err}");
}

fn chrono_ms(s: &str) -> f64 {
    engine_core::date::parse_date_str(s, &engine_core::date::DEFAULT_FORMATS).unwrap() as f64
}
