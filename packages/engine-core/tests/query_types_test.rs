//! End-to-end checks of the phrase, multi-term and compound query types on the sample docs:
//! even ids have "Quick brown fox {i}", odd "lazy dog {i}"; status "error" on 3, 6, 9.
mod common;

use common::*;
use serde_json::{json, Value};

fn loaded() -> (tempfile::TempDir, engine_core::Engine) {
    let (dir, engine) = engine();
    engine.create_index("logs", MAPPING.as_bytes()).unwrap();
    let mut docs = sample_docs();
    docs.push(json!({"title": "fox brown quick 11", "status": "warn"})); // id 11: no bytes/price
    assert_eq!(bulk(&engine, "logs", &docs, true)["errors"], false);
    (dir, engine)
}

fn hits(e: &engine_core::Engine, query: Value) -> Vec<String> {
    let mut out = ids(&search(e, "logs", json!({"query": query, "size": 50})));
    out.sort_by_key(|id| id.parse::<u32>().unwrap());
    out
}

#[test]
fn phrases_respect_order_and_slop() {
    let (_d, e) = loaded();
    assert_eq!(hits(&e, json!({"match_phrase": {"title": "brown fox"}})), ["2", "4", "6", "8", "10"]);
    assert!(hits(&e, json!({"match_phrase": {"title": "fox brown"}})) == ["11"]);
    assert_eq!(hits(&e, json!({"match_phrase": {"title": {"query": "quick fox", "slop": 1}}})).len(), 5);
    assert_eq!(hits(&e, json!({"match_phrase_prefix": {"title": "brown fo"}})).len(), 5);
    assert_eq!(hits(&e, json!({"match_phrase_prefix": {"title": "la"}})), ["1", "3", "5", "7", "9"]);
}

#[test]
fn term_level_multi_term_queries() {
    let (_d, e) = loaded();
    assert_eq!(hits(&e, json!({"prefix": {"status": "err"}})), ["3", "6", "9"]);
    assert_eq!(hits(&e, json!({"wildcard": {"status": {"value": "e*r"}}})), ["3", "6", "9"]);
    assert_eq!(hits(&e, json!({"wildcard": {"status": "o?"}})).len(), 7);
    assert_eq!(hits(&e, json!({"regexp": {"status": "w[a-z]+"}})), ["11"]);
    assert_eq!(hits(&e, json!({"fuzzy": {"status": "wern"}})), ["11"]);
    assert!(hits(&e, json!({"fuzzy": {"status": {"value": "xarn", "prefix_length": 1}}})).is_empty());
    let err = e.search("logs", br#"{"query": {"prefix": {"bytes": "1"}}}"#, &Default::default()).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400));
}

/// `fuzzy` scores its expansions as ES's default rewrite does (blended BM25, closer terms
/// higher), the same as one fuzzy `match` term, not a constant 1.0.
#[test]
fn fuzzy_scores_its_expansions_like_a_fuzzy_match_term() {
    let (_d, e) = loaded();
    let scores = |query: Value| -> Vec<(String, f64)> {
        let resp = search(&e, "logs", json!({"query": query, "size": 50}));
        let hits = resp["hits"]["hits"].as_array().unwrap().iter();
        hits.map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap())).collect()
    };
    let fuzzy = scores(json!({"fuzzy": {"title": {"value": "quikc", "fuzziness": 2}}}));
    let matched = scores(json!({"match": {"title": {"query": "quikc", "fuzziness": 2}}}));
    assert_eq!(fuzzy.len(), 6, "quick: the five even ids and 11");
    assert_eq!(fuzzy, matched);
    assert!(fuzzy.iter().all(|(_, s)| *s != 1.0), "{fuzzy:?}");
    // A value with no edits allowed is the term itself, scored by BM25.
    assert_eq!(
        scores(json!({"fuzzy": {"title": {"value": "fox", "fuzziness": 0}}})),
        scores(json!({"term": {"title": "fox"}}))
    );
    let err = e
        .search(
            "logs",
            br#"{"query": {"fuzzy": {"title": {"value": "fox", "max_expansions": 0}}}}"#,
            &Default::default(),
        )
        .unwrap_err();
    assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400));
}

#[test]
fn exists_ids_constant_score_and_dis_max() {
    let (_d, e) = loaded();
    assert_eq!(hits(&e, json!({"exists": {"field": "bytes"}})).len(), 10);
    assert_eq!(hits(&e, json!({"exists": {"field": "title"}})).len(), 11);
    assert!(hits(&e, json!({"exists": {"field": "nope"}})).is_empty());
    assert_eq!(hits(&e, json!({"ids": {"values": ["3", "11", "99"]}})), ["3", "11"]);
    let resp =
        search(&e, "logs", json!({"query": {"constant_score": {"filter": {"term": {"status": "warn"}}, "boost": 3}}}));
    assert_eq!(resp["hits"]["hits"][0]["_score"], 3.0);
    let dm = json!({"dis_max": {"queries": [{"term": {"status": "warn"}}, {"match": {"title": "lazy"}}]}});
    assert_eq!(hits(&e, dm), ["1", "3", "5", "7", "9", "11"]);
    // A keyword field matches the whole query text, so "warn lazy" finds only the title matches.
    let mm = json!({"multi_match": {"query": "warn lazy", "fields": ["title", "status^2"]}});
    assert_eq!(hits(&e, mm), ["1", "3", "5", "7", "9"]);
    let mm = json!({"multi_match": {"query": "warn", "fields": ["title", "status"], "type": "most_fields"}});
    assert_eq!(hits(&e, mm), ["11"]);
}

/// `exists` on a text field follows ES: `""` and arrays with a value exist; null, `[null]` and
/// an absent field do not.
#[test]
fn exists_on_text_counts_empty_strings_and_skips_nulls() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    let docs = vec![
        json!({"title": ""}),
        json!({"title": null}),
        json!({"title": [null, "x"]}),
        json!({"title": [null]}),
        json!({"status": "no title"}),
        json!({"title": "hello"}),
    ];
    assert_eq!(bulk(&e, "logs", &docs, true)["errors"], false);
    assert_eq!(hits(&e, json!({"exists": {"field": "title"}})), ["1", "3", "6"]);
}
