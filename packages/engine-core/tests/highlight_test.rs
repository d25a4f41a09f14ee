//! `highlight` through `_search`: where the fragments sit in a hit, hits without fragments,
//! multi-fields read their parent's value, and errors in the ES shape.
mod common;

use common::*;
use serde_json::{json, Map};

#[test]
fn hits_carry_fragments_after_source_and_before_sort() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let out = search(
        &e,
        "logs",
        json!({
            "query": {"bool": {"should": [{"match": {"title": "fox"}}, {"term": {"status": "error"}}]}},
            "sort": [{"bytes": "asc"}],
            "size": 3,
            "highlight": {"fields": {"title": {}, "title.raw": {"no_match_size": 5}}}
        }),
    );
    let hits = out["hits"]["hits"].as_array().unwrap();
    assert_eq!(hits[0]["highlight"], json!({"title": ["Quick brown <em>fox</em> 2"], "title.raw": ["Quick"]}));
    // Doc 3 matched on status only: no title term to tag, just the keyword's no_match summary.
    assert_eq!(hits[1]["highlight"], json!({"title.raw": ["lazy dog"]}));
    let raw = e
        .search("logs", json!({"query": {"match": {"title": "fox"}}, "sort": ["bytes"], "size": 1, "highlight": {"fields": {"title": {}}}}).to_string().as_bytes(), &Map::new())
        .unwrap();
    let (source, highlight, sort) =
        (raw.find("\"_source\"").unwrap(), raw.find("\"highlight\"").unwrap(), raw.find("\"sort\"").unwrap());
    assert!(source < highlight && highlight < sort, "{raw}");
}

#[test]
fn a_hit_without_fragments_has_no_highlight_key() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let out = search(
        &e,
        "logs",
        json!({"query": {"term": {"status": "ok"}}, "size": 2, "highlight": {"fields": {"title": {}}}}),
    );
    assert!(out["hits"]["hits"].as_array().unwrap().iter().all(|h| h.get("highlight").is_none()));
}

#[test]
fn bad_highlight_requests_fail_like_elasticsearch() {
    let (_d, e) = engine();
    e.create_index("logs", MAPPING.as_bytes()).unwrap();
    bulk(&e, "logs", &sample_docs(), true);
    let run = |body: serde_json::Value| e.search("logs", body.to_string().as_bytes(), &Map::new());
    let err = run(json!({"highlight": {"fields": {"title": {"fragment_size": "big"}}}})).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("x_content_parse_exception", 400));
    let err = run(json!({"highlight": {"type": "fvh", "fields": {"title": {}}}})).unwrap_err();
    assert_eq!(err.to_es_body()["error"]["root_cause"][0]["type"], "illegal_argument_exception");
    // Like ES's fetch phase, a bad highlighter type only fails when there is a hit to show.
    assert!(run(json!({"size": 0, "highlight": {"type": "fvh", "fields": {"title": {}}}})).is_ok());
}
