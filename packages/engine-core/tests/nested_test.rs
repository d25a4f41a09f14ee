//! `nested` objects end to end: block-joined hidden documents, the `nested` query (score
//! modes, nesting inside nesting), `nested`/`reverse_nested` aggregations, and that top-level
//! searches, counts, updates and deletes see root documents only. Cross-checked against
//! OpenSearch by the conformance suite's `nested` family.
mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const NESTED_MAPPING: &str = r#"{"mappings":{"properties":{
  "title":{"type":"keyword"},
  "comments":{"type":"nested","properties":{
    "author":{"type":"keyword"},
    "stars":{"type":"integer"},
    "text":{"type":"text"},
    "replies":{"type":"nested","properties":{"by":{"type":"keyword"}}}
  }}
}}}"#;

fn docs() -> Vec<Value> {
    vec![
        // 1: alice 5 and bob 1 (bob's comment has replies by carol and dan)
        json!({"title": "a", "comments": [
            {"author": "alice", "stars": 5, "text": "great post"},
            {"author": "bob", "stars": 1, "text": "bad post", "replies": [{"by": "carol"}, {"by": "dan"}]}
        ]}),
        // 2: alice 1 only: "alice AND stars>=4" holds across objects but not within one
        json!({"title": "b", "comments": [{"author": "alice", "stars": 1}, {"author": "carol", "stars": 4}]}),
        // 3: no comments
        json!({"title": "c"}),
        // 4: a single object, not an array
        json!({"title": "d", "comments": {"author": "dan", "stars": 3, "replies": {"by": "alice"}}}),
    ]
}

fn nested_engine() -> (tempfile::TempDir, Engine) {
    let (d, e) = engine();
    e.create_index("n", NESTED_MAPPING.as_bytes()).unwrap();
    let resp = bulk(&e, "n", &docs(), true);
    assert_eq!(resp["errors"], false, "{resp}");
    (d, e)
}

fn total(resp: &Value) -> u64 {
    resp["hits"]["total"]["value"].as_u64().unwrap()
}

fn sorted_ids(e: &Engine, query: Value) -> Vec<String> {
    let resp = search(e, "n", json!({"query": query, "sort": [{"title": "asc"}], "track_total_hits": true}));
    ids(&resp)
}

#[test]
fn top_level_searches_see_root_documents_only() {
    let (_d, e) = nested_engine();
    let all = search(&e, "n", json!({"track_total_hits": true, "size": 100}));
    assert_eq!(total(&all), 4);
    let count: Value = serde_json::from_str(&e.count("n", b"{}").unwrap()).unwrap();
    assert_eq!(count["count"], 4);
    // A nested field queried without `nested` matches nothing, as in ES.
    assert_eq!(sorted_ids(&e, json!({"term": {"comments.author": "alice"}})), Vec::<String>::new());
    let by_title = search(&e, "n", json!({"size": 0, "aggs": {"t": {"terms": {"field": "title"}}}}));
    assert_eq!(by_title["aggregations"]["t"]["buckets"].as_array().unwrap().len(), 4);
}

#[test]
fn nested_query_matches_within_one_object() {
    let (_d, e) = nested_engine();
    let both = |author: &str| {
        json!({"nested": {"path": "comments", "query": {"bool": {"must": [
            {"term": {"comments.author": author}}, {"range": {"comments.stars": {"gte": 4}}}
        ]}}}})
    };
    assert_eq!(sorted_ids(&e, both("alice")), vec!["1"]);
    assert_eq!(sorted_ids(&e, both("carol")), vec!["2"]);
    let any_alice = json!({"nested": {"path": "comments", "query": {"term": {"comments.author": "alice"}}}});
    assert_eq!(sorted_ids(&e, any_alice), vec!["1", "2"]);
    // Nested inside nested, and a deep path joined straight to the root.
    let replies =
        |by: &str| json!({"nested": {"path": "comments.replies", "query": {"term": {"comments.replies.by": by}}}});
    let two_levels = json!({"nested": {"path": "comments", "query": replies("alice")}});
    assert_eq!(sorted_ids(&e, two_levels), vec!["4"]);
    assert_eq!(sorted_ids(&e, replies("dan")), vec!["1"]);
    // Combined with a root-level clause and negated.
    let not_alice = json!({"bool": {"must_not": [{"nested": {"path": "comments", "query": {"term": {"comments.author": "alice"}}}}]}});
    assert_eq!(sorted_ids(&e, not_alice), vec!["3", "4"]);
}

#[test]
fn score_modes_fold_the_objects_scores() {
    let (_d, e) = nested_engine();
    let score = |mode: &str| {
        let q = json!({"nested": {"path": "comments", "score_mode": mode, "query": {"function_score": {
            "query": {"match_all": {}}, "field_value_factor": {"field": "comments.stars"}, "boost_mode": "replace"
        }}}});
        let resp = search(&e, "n", json!({"query": {"bool": {"must": [q], "filter": [{"ids": {"values": ["1"]}}]}}}));
        resp["hits"]["hits"][0]["_score"].as_f64().unwrap()
    };
    assert!((score("avg") - 3.0).abs() < 1e-6);
    assert!((score("sum") - 6.0).abs() < 1e-6);
    assert!((score("max") - 5.0).abs() < 1e-6);
    assert!((score("min") - 1.0).abs() < 1e-6);
    assert_eq!(score("none"), 0.0);
}

#[test]
fn nested_and_reverse_nested_aggregations() {
    let (_d, e) = nested_engine();
    let resp = search(
        &e,
        "n",
        json!({"size": 0, "aggs": {"c": {"nested": {"path": "comments"}, "aggs": {
            "authors": {"terms": {"field": "comments.author"}, "aggs": {
                "docs": {"reverse_nested": {}, "aggs": {"titles": {"terms": {"field": "title"}}}}
            }},
            "stars": {"sum": {"field": "comments.stars"}},
            "r": {"nested": {"path": "comments.replies"}, "aggs": {"by": {"terms": {"field": "comments.replies.by"}}}}
        }}}}),
    );
    let c = &resp["aggregations"]["c"];
    assert_eq!(c["doc_count"], 5, "{c}");
    assert_eq!(c["stars"]["value"], 14.0);
    let alice = &c["authors"]["buckets"][0];
    assert_eq!((alice["key"].as_str(), alice["doc_count"].as_u64()), (Some("alice"), Some(2)));
    assert_eq!(alice["docs"]["doc_count"], 2);
    assert_eq!(c["r"]["doc_count"], 3);
    assert_eq!(c["r"]["by"]["buckets"].as_array().unwrap().len(), 3);
    // Under a query: only the matching documents' objects.
    let one = search(
        &e,
        "n",
        json!({"size": 0, "query": {"term": {"title": "a"}}, "aggs": {"c": {"nested": {"path": "comments"}}}}),
    );
    assert_eq!(one["aggregations"]["c"]["doc_count"], 2);
}

#[test]
fn aggregation_errors_and_unmapped_paths() {
    let (_d, e) = nested_engine();
    let err = |aggs: Value| e.search("n", json!({"size": 0, "aggs": aggs}).to_string().as_bytes(), &Map::new());
    let outside = err(json!({"r": {"reverse_nested": {}}})).unwrap_err();
    assert!(outside.to_string().contains("can only be used inside a [nested] aggregation"), "{outside}");
    let unmapped: Value = serde_json::from_str(&err(json!({"x": {"nested": {"path": "nope"}}})).unwrap()).unwrap();
    assert_eq!(unmapped["aggregations"]["x"]["doc_count"], 0);
    assert!(err(json!({"x": {"nested": {}}})).is_err());
    let top_hits = json!({"c": {"nested": {"path": "comments"}, "aggs": {"h": {"top_hits": {}}}}});
    assert!(err(top_hits).unwrap_err().to_string().contains("not supported"));
}

#[test]
fn query_errors_for_unknown_and_object_paths() {
    let (_d, e) = nested_engine();
    let q = |path: &str, ignore: bool| {
        let body = json!({"query": {"nested": {"path": path, "ignore_unmapped": ignore, "query": {"match_all": {}}}}});
        e.search("n", body.to_string().as_bytes(), &Map::new())
    };
    assert!(q("nope", false).unwrap_err().to_string().contains("failed to find nested object under path [nope]"));
    let ignored: Value = serde_json::from_str(&q("nope", true).unwrap()).unwrap();
    assert_eq!(total(&ignored), 0);
}

#[test]
fn replacing_and_deleting_a_document_replaces_its_objects() {
    let (_d, e) = nested_engine();
    let alice = json!({"nested": {"path": "comments", "query": {"term": {"comments.author": "alice"}}}});
    // Re-index doc 1 without alice; delete doc 2.
    let body = format!(
        "{}\n{}\n{}\n",
        json!({"index": {"_index": "n", "_id": "1"}}),
        json!({"title": "a", "comments": [{"author": "zed", "stars": 2}]}),
        json!({"delete": {"_index": "n", "_id": "2"}})
    );
    e.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
    assert_eq!(sorted_ids(&e, alice), Vec::<String>::new());
    let resp = search(&e, "n", json!({"size": 0, "aggs": {"c": {"nested": {"path": "comments"}}}}));
    assert_eq!(resp["aggregations"]["c"]["doc_count"], 2); // zed, dan
                                                           // Survives a force merge (blocks keep their order) and a reopen (translog replay writes blocks too).
    e.force_merge("n", &Map::new()).unwrap();
    let zed = json!({"nested": {"path": "comments", "query": {"term": {"comments.author": "zed"}}}});
    assert_eq!(sorted_ids(&e, zed), vec!["1"]);
}

#[test]
fn bad_nested_values_are_refused() {
    let (_d, e) = nested_engine();
    let resp = bulk(&e, "n", &[json!({"comments": "not an object"})], true);
    assert_eq!(resp["errors"], true);
    let err = Engine::create_index(
        &e,
        "bad",
        br#"{"mappings":{"properties":{"c":{"type":"nested","include_in_parent":true}}}}"#,
    );
    assert!(err.unwrap_err().to_string().contains("unknown parameter [include_in_parent]"));
}
