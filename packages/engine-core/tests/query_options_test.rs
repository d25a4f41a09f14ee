//! Query options ES applications send that used to be refused: match `fuzziness`,
//! `zero_terms_query`, `minimum_should_match` conditions, `case_insensitive`, range
//! `time_zone`, every `multi_match` type, `terms_set` and named queries' `matched_queries`.

mod common;

use engine_core::Engine;
use serde_json::{json, Map, Value};

/// Ten sample docs (`common::sample_docs`): even ids "Quick brown fox {i}", odd "lazy dog {i}";
/// status "error" on multiples of 3, else "ok"; one `ts` per month from January.
fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine.create_index("logs", common::MAPPING.as_bytes()).unwrap();
    common::bulk(&engine, "logs", &common::sample_docs(), true);
    (dir, engine)
}

fn total(engine: &Engine, query: Value) -> u64 {
    let resp = common::search(engine, "logs", json!({"query": query, "track_total_hits": true}));
    resp["hits"]["total"]["value"].as_u64().unwrap()
}

fn error(engine: &Engine, query: Value) -> Value {
    let body = json!({ "query": query }).to_string();
    engine.search("logs", body.as_bytes(), &Map::new()).unwrap_err().to_es_body()
}

#[test]
fn match_fuzziness_finds_misspellings_within_the_distance() {
    let (_dir, engine) = setup();
    assert_eq!(total(&engine, json!({"match": {"title": "quikc"}})), 0);
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "quikc", "fuzziness": "AUTO"}}})), 5);
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "lazi", "fuzziness": 1}}})), 5);
    // The first character must match: "fox" is one edit from "box" but not from "fix" at 0.
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "box", "fuzziness": 1, "prefix_length": 1}}})), 0);
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "box", "fuzziness": 1}}})), 5);
    // Without transpositions a swap costs two edits.
    let swap = |t: bool| json!({"match": {"title": {"query": "fxo", "fuzziness": 1, "fuzzy_transpositions": t}}});
    assert_eq!((total(&engine, swap(true)), total(&engine, swap(false))), (5, 0));
    let both = json!({"match": {"title": {"query": "quikc dgo", "fuzziness": "AUTO", "operator": "and"}}});
    assert_eq!(total(&engine, both), 0);
    // A keyword matches as one term.
    assert_eq!(total(&engine, json!({"match": {"status": {"query": "eror", "fuzziness": 1}}})), 3);
    let bad = error(&engine, json!({"match": {"title": {"query": "fox", "fuzziness": "lots"}}}));
    assert_eq!(bad["error"]["type"], "illegal_argument_exception");
}

#[test]
fn fuzzy_matches_rank_closer_terms_first() {
    let (_dir, engine) = setup();
    let resp =
        common::search(&engine, "logs", json!({"query": {"match": {"title": {"query": "lazy", "fuzziness": 2}}}}));
    let top = &resp["hits"]["hits"][0];
    assert!(top["_source"]["title"].as_str().unwrap().starts_with("lazy"), "{resp}");
}

#[test]
fn zero_terms_query_all_matches_everything_for_empty_text() {
    let (_dir, engine) = setup();
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "", "zero_terms_query": "all"}}})), 10);
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "", "zero_terms_query": "none"}}})), 0);
}

#[test]
fn minimum_should_match_conditions() {
    let (_dir, engine) = setup();
    // Two terms: "up to 2, all" requires both.
    assert_eq!(total(&engine, json!({"match": {"title": {"query": "quick dog", "minimum_should_match": "2<50%"}}})), 0);
    // Three terms: above 2, 50% of 3 is 1.
    let three = json!({"match": {"title": {"query": "quick dog cat", "minimum_should_match": "2<50%"}}});
    assert_eq!(total(&engine, three), 10);
    let bool_q = json!({"bool": {"should": [{"term": {"status": "ok"}}, {"term": {"ok": true}}, {"term": {"bytes": 400}}],
        "minimum_should_match": "2<-1"}});
    // All but one of three: status ok and even, or bytes 400 with one of them.
    assert_eq!(total(&engine, bool_q), 4);
}

#[test]
fn case_insensitive_term_prefix_wildcard_and_regexp() {
    let (_dir, engine) = setup();
    assert_eq!(total(&engine, json!({"term": {"status": {"value": "ERROR", "case_insensitive": true}}})), 3);
    assert_eq!(total(&engine, json!({"term": {"status": {"value": "ERROR", "case_insensitive": false}}})), 0);
    assert_eq!(total(&engine, json!({"prefix": {"status": {"value": "ER", "case_insensitive": true}}})), 3);
    assert_eq!(total(&engine, json!({"wildcard": {"status": {"value": "E*R", "case_insensitive": true}}})), 3);
    assert_eq!(total(&engine, json!({"regexp": {"status": {"value": "O.", "case_insensitive": true}}})), 7);
}

#[test]
fn range_time_zone_reads_local_dates() {
    let (_dir, engine) = setup();
    // Docs 1-3 are on January 15th 12:00 UTC; at +13:00 that is already the 16th.
    let day = |zone: &str| json!({"range": {"ts": {"gte": "2024-01-16", "lt": "2024-01-17", "time_zone": zone}}});
    assert_eq!(total(&engine, day("+13:00")), 3);
    assert_eq!(total(&engine, day("UTC")), 0);
    let bad = error(&engine, json!({"range": {"ts": {"gte": "2024-01-16", "time_zone": "Mars/Olympus"}}}));
    assert_eq!(bad["status"], 400);
}

#[test]
fn multi_match_types() {
    let (_dir, engine) = setup();
    let mm =
        |kind: &str, query: &str| json!({"multi_match": {"query": query, "type": kind, "fields": ["title", "status"]}});
    assert_eq!(total(&engine, mm("phrase", "brown fox")), 5);
    assert_eq!(total(&engine, mm("phrase", "fox brown")), 0);
    assert_eq!(total(&engine, mm("phrase_prefix", "brown f")), 5);
    assert_eq!(total(&engine, mm("bool_prefix", "lazy d")), 5);
    // A keyword field's match wants the whole text as its value.
    assert_eq!(total(&engine, mm("most_fields", "lazy error")), 5);
    let cross = json!({"multi_match": {"query": "lazy error", "type": "cross_fields", "fields": ["title", "status"], "operator": "and"}});
    assert_eq!(total(&engine, cross), 0, "status is a keyword: its group wants the whole text");
    let cross = json!({"multi_match": {"query": "lazy dog", "type": "cross_fields", "fields": ["title", "title.raw"], "operator": "and"}});
    assert_eq!(total(&engine, cross), 5);
    let bad = error(&engine, json!({"multi_match": {"query": "x", "type": "fastest", "fields": ["title"]}}));
    assert_eq!(bad["error"]["type"], "parse_exception");
}

#[test]
fn terms_set_counts_matching_values_per_document() {
    let (dir, engine) = common::engine();
    engine
        .create_index("t", br#"{"mappings":{"properties":{"tags":{"type":"keyword"},"need":{"type":"long"}}}}"#)
        .unwrap();
    let docs = [
        json!({"tags": ["a", "b", "c"], "need": 3}),
        json!({"tags": ["a", "b"], "need": 3}),
        json!({"tags": ["a"], "need": 1}),
        json!({"tags": ["a", "c"]}),
    ];
    common::bulk(&engine, "t", &docs, true);
    let count = |query: Value| {
        let resp = common::search(&engine, "t", json!({"query": query}));
        resp["hits"]["total"]["value"].as_u64().unwrap()
    };
    let set = |extra: Value| {
        let mut spec = json!({"terms": ["a", "b", "c"]});
        spec.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!({"terms_set": {"tags": spec}})
    };
    assert_eq!(count(set(json!({"minimum_should_match_field": "need"}))), 2, "docs 1 and 3; doc 4 has no minimum");
    assert_eq!(count(set(json!({"minimum_should_match_script": {"source": "2"}}))), 3);
    let min = json!({"minimum_should_match_script": {"source": "Math.min(params.num_terms, params.cap)", "params": {"cap": 3}}});
    assert_eq!(count(set(min)), 1);
    assert_eq!(count(set(json!({"minimum_should_match": 1}))), 4);
    drop(dir);
}

#[test]
fn named_queries_are_reported_on_the_hits_they_match() {
    let (_dir, engine) = setup();
    let resp = common::search(
        &engine,
        "logs",
        json!({"query": {"bool": {"should": [
            {"term": {"status": {"value": "error", "_name": "bad"}}},
            {"match": {"title": {"query": "fox", "_name": "fox"}}},
            {"range": {"bytes": {"lte": 100, "_name": "small"}}}
        ]}}, "sort": [{"bytes": "asc"}], "size": 6}),
    );
    let names = |i: usize| resp["hits"]["hits"][i]["matched_queries"].clone();
    assert_eq!(names(0), json!(["small"]), "doc 1: bytes 100, odd, ok");
    assert_eq!(names(1), json!(["fox"]));
    assert_eq!(names(2), json!(["bad"]));
    assert_eq!(names(4), json!(["bad", "fox"]), "doc 6: error and even (doc 5 matches nothing)");
    let plain = common::search(&engine, "logs", json!({"query": {"term": {"status": "ok"}}}));
    assert!(plain["hits"]["hits"][0].get("matched_queries").is_none());
}
