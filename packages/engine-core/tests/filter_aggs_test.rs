//! `filter`, `filters` and `adjacency_matrix` over segments of several 1,024-doc windows
//! (`aggs/filters.rs` fills each filter's bits a window at a time), through each way they are
//! collected: a lone `filter` as its own conjunction (`search/filter_by_filter.rs`), counts by
//! the set of matched filters (no sub-aggregations, at most 12 filters), and a key per matched
//! filter (with sub-aggregations, or more filters). Every answer is checked against counts
//! computed here from the documents, with some documents deleted.
mod common;

use common::*;
use engine_core::engine::RefreshPolicy;
use serde_json::{json, Map, Value};

const DOCS: i64 = 7_000;

/// The documents' fields, by doc number (id = n + 1).
fn tag(n: i64) -> String {
    format!("t{}", (n * 7_919) % 11)
}
fn flag(n: i64) -> bool {
    n % 3 == 0
}
/// Deleted before searching: every 10th document of one stretch.
fn deleted(n: i64) -> bool {
    (2_000..3_000).contains(&n) && n % 10 == 0
}

/// A named filter query and which documents it matches.
struct Spec {
    name: String,
    query: Value,
    matches: Box<dyn Fn(i64) -> bool>,
}

fn spec(name: &str, query: Value, matches: impl Fn(i64) -> bool + 'static) -> Spec {
    Spec { name: name.to_string(), query, matches: Box::new(matches) }
}

/// Named filters: a term, a column range, a boolean, and a bool with must_not.
fn filter_specs() -> Vec<Spec> {
    let neither = json!({"bool": {"must_not": [{"term": {"status": "t1"}}, {"term": {"ok": true}}]}});
    vec![
        spec("rare", json!({"term": {"status": "t3"}}), |n| tag(n) == "t3"),
        spec("mid", json!({"range": {"bytes": {"gte": 2_500, "lt": 5_300}}}), |n| (2_500..5_300).contains(&n)),
        spec("flag", json!({"term": {"ok": true}}), flag),
        spec("neither", neither, |n| tag(n) != "t1" && !flag(n)),
    ]
}

/// The main query (bytes in [1000, 6400)) and its predicate.
fn main_query() -> Value {
    json!({"range": {"bytes": {"gte": 1_000, "lt": 6_400}}})
}
fn in_main(n: i64) -> bool {
    (1_000..6_400).contains(&n) && !deleted(n)
}

fn engine_with_docs() -> (tempfile::TempDir, engine_core::Engine) {
    let (dir, e) = engine();
    e.create_index("f", MAPPING.as_bytes()).unwrap();
    let docs: Vec<Value> =
        (0..DOCS).map(|n| json!({"status": tag(n), "bytes": n, "ok": flag(n), "price": n as f64 / 4.0})).collect();
    e.bulk(None, &ndjson("f", &docs), RefreshPolicy::Immediate).unwrap();
    for n in (0..DOCS).filter(|n| deleted(*n)) {
        e.delete_doc("f", &(n + 1).to_string(), &Map::new()).unwrap();
    }
    e.refresh("f").unwrap();
    (dir, e)
}

fn matching(pred: impl Fn(i64) -> bool) -> Vec<i64> {
    (0..DOCS).filter(|n| in_main(*n) && pred(*n)).collect()
}

#[test]
fn a_lone_filter_equals_counting_its_matches() {
    let (_d, e) = engine_with_docs();
    for Spec { name, query, matches } in filter_specs() {
        let body = json!({"size": 0, "track_total_hits": true, "query": main_query(),
            "aggs": {"x": {"filter": query, "aggs": {"avg_price": {"avg": {"field": "price"}}}}}});
        let resp = search(&e, "f", body);
        let docs = matching(matches);
        assert_eq!(resp["hits"]["total"]["value"], json!(matching(|_| true).len()), "{name}");
        assert_eq!(resp["aggregations"]["x"]["doc_count"], json!(docs.len()), "{name}");
        let avg = docs.iter().map(|n| *n as f64 / 4.0).sum::<f64>() / docs.len() as f64;
        let got = resp["aggregations"]["x"]["avg_price"]["value"].as_f64().unwrap();
        assert!((got - avg).abs() < 1e-9, "{name}: {got} vs {avg}");
    }
    // No match: doc_count 0 and a null average, as ES renders an empty bucket.
    let body = json!({"size": 0, "query": main_query(),
        "aggs": {"x": {"filter": {"term": {"status": "none"}}, "aggs": {"a": {"avg": {"field": "price"}}}}}});
    let resp = search(&e, "f", body);
    assert_eq!(resp["aggregations"]["x"], json!({"doc_count": 0, "a": {"value": null}}));
}

#[test]
fn filters_count_alike_with_and_without_sub_aggregations() {
    let (_d, e) = engine_with_docs();
    let specs = filter_specs();
    let named: Map<String, Value> = specs.iter().map(|s| (s.name.clone(), s.query.clone())).collect();
    for subs in [json!({}), json!({"s": {"sum": {"field": "bytes"}}})] {
        let body = json!({"size": 0, "query": main_query(),
            "aggs": {"x": {"filters": {"filters": named, "other_bucket_key": "rest"}, "aggs": subs}}});
        let buckets = search(&e, "f", body)["aggregations"]["x"]["buckets"].clone();
        for s in &specs {
            assert_eq!(buckets[&s.name]["doc_count"], json!(matching(&s.matches).len()), "{} {subs}", s.name);
        }
        let rest = matching(|n| specs.iter().all(|s| !(s.matches)(n)));
        assert_eq!(buckets["rest"]["doc_count"], json!(rest.len()), "{subs}");
        if !subs.as_object().unwrap().is_empty() {
            let sum: i64 = matching(&specs[1].matches).iter().sum();
            assert_eq!(buckets["mid"]["s"]["value"].as_f64(), Some(sum as f64));
        }
    }
}

/// Expected adjacency buckets (name -> count) for `specs`, singles and `a&b` pairs, non-empty only.
fn expected_adjacency(specs: &[Spec]) -> Map<String, Value> {
    let mut out = Map::new();
    for (i, x) in specs.iter().enumerate() {
        let (a, pa) = (&x.name, &x.matches);
        let n = matching(pa).len();
        if n > 0 {
            out.insert(a.clone(), json!(n));
        }
        for y in &specs[i + 1..] {
            let (b, pb) = (&y.name, &y.matches);
            let n = matching(|d| pa(d) && pb(d)).len();
            if n > 0 {
                // ES orders the filters by name, so a pair is named in that order.
                out.insert(if a < b { format!("{a}&{b}") } else { format!("{b}&{a}") }, json!(n));
            }
        }
    }
    out
}

fn adjacency_buckets(resp: &Value) -> Map<String, Value> {
    resp["aggregations"]["m"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["key"].as_str().unwrap().to_string(), b["doc_count"].clone()))
        .collect()
}

#[test]
fn adjacency_matrix_counts_singles_and_pairs() {
    let (_d, e) = engine_with_docs();
    // Four filters (counted by matched set), then thirteen (one key per matched filter or pair).
    let mut specs = filter_specs();
    for wide in [false, true] {
        if wide {
            for t in 0..9 {
                let tag_name = format!("t{t}");
                let query = json!({"term": {"status": tag_name.clone()}});
                specs.push(spec(&format!("tag{t}"), query, move |n| tag(n) == tag_name));
            }
        }
        let filters: Map<String, Value> = specs.iter().map(|s| (s.name.clone(), s.query.clone())).collect();
        let body = json!({"size": 0, "query": main_query(), "aggs": {"m": {"adjacency_matrix": {"filters": filters}}}});
        let got = adjacency_buckets(&search(&e, "f", body));
        assert_eq!(got, expected_adjacency(&specs), "{} filters", specs.len());
    }
}
