//! Point in time and scroll: every matching doc exactly once, in order, from a snapshot that
//! later writes do not disturb; ids expire, close and fail like ES's.

mod common;

use std::collections::HashSet;

use engine_core::engine::RefreshPolicy;
use engine_core::error::EngineError;
use engine_core::Engine;
use serde_json::{json, Map, Value};

const N: usize = 523;

fn setup() -> (tempfile::TempDir, Engine) {
    let (dir, engine) = common::engine();
    engine.create_index("p", common::MAPPING.as_bytes()).unwrap();
    // Three refreshes: three segments. Scores tie in large groups (three distinct titles).
    for chunk in (0..N).collect::<Vec<_>>().chunks(200) {
        let mut body = String::new();
        for &i in chunk {
            body.push_str(&json!({"index": {"_index": "p", "_id": format!("d{i}")}}).to_string());
            body.push('\n');
            let title = ["quick fox", "quick quick fox", "slow quick dog fox"][i % 3];
            body.push_str(&json!({"title": title, "bytes": (i % 17) as i64, "status": "ok"}).to_string());
            body.push('\n');
        }
        engine.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
    }
    (dir, engine)
}

fn parse(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

fn params(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
}

fn ids(resp: &Value) -> Vec<String> {
    resp["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

fn add_more(engine: &Engine) {
    let body = "{\"index\":{\"_index\":\"p\",\"_id\":\"late\"}}\n{\"title\":\"quick fox\",\"bytes\":1}\n\
                {\"delete\":{\"_index\":\"p\",\"_id\":\"d0\"}}\n";
    engine.bulk(None, body.as_bytes(), RefreshPolicy::Immediate).unwrap();
}

#[test]
fn scroll_by_score_returns_every_match_once_in_score_order_from_a_snapshot() {
    let (_dir, engine) = setup();
    let body = json!({"size": 50, "query": {"match": {"title": "quick"}}, "track_total_hits": true});
    let first = parse(&engine.search("p", body.to_string().as_bytes(), &params(&[("scroll", "1m")])).unwrap());
    let scroll_id = first["_scroll_id"].as_str().unwrap().to_string();
    assert_eq!(first["hits"]["total"], json!({"value": N, "relation": "eq"}));
    assert!(first["hits"]["hits"][0].get("sort").is_none(), "no sort given: hits show no sort values");
    add_more(&engine);
    let mut all = ids(&first);
    let mut scores: Vec<f64> =
        first["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].as_f64().unwrap()).collect();
    for _ in 0..20 {
        let next = json!({"scroll": "1m", "scroll_id": scroll_id});
        let page = parse(&engine.scroll(next.to_string().as_bytes(), &Map::new()).unwrap());
        assert_eq!(page["_scroll_id"], json!(scroll_id));
        assert_eq!(page["hits"]["total"]["value"], N);
        if ids(&page).is_empty() {
            break;
        }
        scores.extend(page["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].as_f64().unwrap()));
        all.extend(ids(&page));
    }
    assert_eq!(all.len(), N, "every match once");
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), N, "no duplicates");
    assert!(all.contains(&"d0".to_string()) && !all.contains(&"late".to_string()), "the snapshot, not the live index");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first across pages");

    let (cleared, status) = engine.clear_scroll(json!({"scroll_id": scroll_id}).to_string().as_bytes(), false).unwrap();
    assert_eq!((parse(&cleared), status), (json!({"succeeded": true, "num_freed": 1}), 200));
    let gone = engine.scroll(json!({"scroll_id": scroll_id}).to_string().as_bytes(), &Map::new()).unwrap_err();
    assert!(matches!(gone, EngineError::SearchContextMissing(_)));
    let body = gone.to_es_body();
    assert_eq!(
        (body["status"].clone(), body["error"]["root_cause"][0]["type"].clone()),
        (json!(404), json!("search_context_missing_exception"))
    );
}

#[test]
fn scroll_with_a_sort_shows_only_the_requested_sort_values_and_keeps_aggs_to_page_one() {
    let (_dir, engine) = setup();
    let body = json!({"size": 100, "sort": [{"bytes": "desc"}], "aggs": {"b": {"max": {"field": "bytes"}}}});
    let first = parse(&engine.search("p", body.to_string().as_bytes(), &params(&[("scroll", "30s")])).unwrap());
    assert_eq!(first["aggregations"]["b"]["value"], 16.0);
    assert_eq!(first["hits"]["hits"][0]["sort"], json!([16]));
    let id = first["_scroll_id"].as_str().unwrap();
    let mut last = 16;
    let mut seen = ids(&first).len();
    loop {
        let page = parse(&engine.scroll(b"", &params(&[("scroll_id", id), ("scroll", "30s")])).unwrap());
        assert!(page.get("aggregations").is_none());
        let hits = page["hits"]["hits"].as_array().unwrap();
        if hits.is_empty() {
            break;
        }
        for h in hits {
            let v = h["sort"][0].as_i64().unwrap();
            assert!(v <= last && h["sort"].as_array().unwrap().len() == 1);
            last = v;
        }
        seen += hits.len();
    }
    assert_eq!(seen, N);
}

#[test]
fn scroll_rejects_from_and_search_after() {
    let (_dir, engine) = setup();
    let p = params(&[("scroll", "1m")]);
    let from = engine.search("p", br#"{"from": 5}"#, &p).unwrap_err();
    assert!(from.to_string().contains("using [from] is not allowed in a scroll context"));
    let after = engine.search("p", br#"{"sort":["_doc"],"search_after":[1]}"#, &p).unwrap_err();
    assert!(after.to_string().contains("`search_after` cannot be used in a scroll context"));
    assert_eq!(engine.open_contexts(), 0, "a failed first page leaves no context open");
}

#[test]
fn pit_pages_with_search_after_and_the_implicit_tiebreaker() {
    let (_dir, engine) = setup();
    let opened = parse(&engine.open_pit("p", &params(&[("keep_alive", "1m")]), false).unwrap());
    let pit_id = opened["id"].as_str().unwrap().to_string();
    add_more(&engine);
    let mut after: Option<Value> = None;
    let mut all = Vec::new();
    for _ in 0..20 {
        let mut body = json!({"size": 60, "pit": {"id": pit_id, "keep_alive": "1m"}, "sort": [{"bytes": "asc"}],
                              "track_total_hits": true});
        if let Some(a) = &after {
            body["search_after"] = a.clone();
        }
        let page = parse(&engine.search_pit(body.to_string().as_bytes(), &Map::new()).unwrap());
        assert_eq!(page["pit_id"], json!(pit_id));
        assert_eq!(page["hits"]["total"]["value"], N);
        let hits = page["hits"]["hits"].as_array().unwrap();
        if hits.is_empty() {
            break;
        }
        assert_eq!(hits[0]["sort"].as_array().unwrap().len(), 2, "sort values carry the tiebreaker");
        after = Some(hits.last().unwrap()["sort"].clone());
        all.extend(ids(&page));
    }
    assert_eq!(all.len(), N);
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), N);

    let (closed, status) = engine.close_pit(json!({"id": pit_id}).to_string().as_bytes(), false, false).unwrap();
    assert_eq!((parse(&closed), status), (json!({"succeeded": true, "num_freed": 1}), 200));
    let (again, status) = engine.close_pit(json!({"id": pit_id}).to_string().as_bytes(), false, false).unwrap();
    assert_eq!((parse(&again)["num_freed"].clone(), status), (json!(0), 404));
    let body = json!({"pit": {"id": pit_id}});
    assert!(matches!(
        engine.search_pit(body.to_string().as_bytes(), &Map::new()),
        Err(EngineError::SearchContextMissing(_))
    ));
}

#[test]
fn opensearch_pit_shapes_and_validation() {
    let (_dir, engine) = setup();
    let opened = parse(&engine.open_pit("p", &params(&[("keep_alive", "5m")]), true).unwrap());
    let pit_id = opened["pit_id"].as_str().unwrap().to_string();
    assert!(opened["creation_time"].as_u64().unwrap() > 0);
    let body = json!({"size": 3, "pit": {"id": pit_id}, "query": {"term": {"status": "ok"}}});
    let page = parse(&engine.search_pit(body.to_string().as_bytes(), &Map::new()).unwrap());
    assert_eq!(ids(&page).len(), 3);
    let (closed, _) = engine.close_pit(json!({"pit_id": [pit_id]}).to_string().as_bytes(), true, false).unwrap();
    assert_eq!(parse(&closed), json!({"pits": [{"successful": true, "pit_id": pit_id}]}));

    assert!(engine.open_pit("p", &Map::new(), false).is_err(), "keep_alive is required");
    assert!(engine.open_pit("nope", &params(&[("keep_alive", "1m")]), false).is_err());
    let with_index = engine.search("p", json!({"pit": {"id": "x"}}).to_string().as_bytes(), &Map::new()).unwrap_err();
    assert!(with_index.to_string().contains("[indices] cannot be used with point in time"));
}

#[test]
fn open_contexts_are_capped_like_elasticsearch() {
    let (_dir, engine) = setup();
    let keep = params(&[("keep_alive", "1m")]);
    for _ in 0..engine_core::search::contexts::MAX_OPEN_CONTEXTS {
        engine.open_pit("p", &keep, false).unwrap();
    }
    let err = engine.open_pit("p", &keep, false).unwrap_err();
    assert_eq!(err.es_type_and_status(), ("too_many_scroll_contexts_exception", 429));
    let (_, status) = engine.close_pit(b"", true, true).unwrap();
    assert_eq!((status, engine.open_contexts()), (200, 0));
}

#[test]
fn contexts_expire_after_their_keep_alive() {
    let (_dir, engine) = setup();
    let opened = parse(&engine.open_pit("p", &params(&[("keep_alive", "50ms")]), false).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(120));
    let body = json!({"pit": {"id": opened["id"]}});
    assert!(matches!(
        engine.search_pit(body.to_string().as_bytes(), &Map::new()),
        Err(EngineError::SearchContextMissing(_))
    ));
    assert_eq!(engine.open_contexts(), 0);
}

/// Ids that were never issued are a 400 ("Cannot parse"), not a missing context; a scroll may not
/// ask to live longer than `search.max_keep_alive` (24 h).
#[test]
fn malformed_ids_and_keep_alives_past_the_maximum_are_refused() {
    let (_d, engine) = setup();
    let kind = |e: EngineError| e.es_type_and_status();
    let bad = json!({"scroll": "1m", "scroll_id": "not-a-scroll-id"}).to_string();
    assert_eq!(kind(engine.scroll(bad.as_bytes(), &Map::new()).unwrap_err()), ("illegal_argument_exception", 400));
    let clear = json!({"scroll_id": ["not-a-scroll-id"]}).to_string();
    assert_eq!(kind(engine.clear_scroll(clear.as_bytes(), false).unwrap_err()), ("illegal_argument_exception", 400));
    let unknown = json!({"scroll_id": "0123456789abcdef0123456789abcdef"}).to_string();
    assert_eq!(engine.clear_scroll(unknown.as_bytes(), false).unwrap().1, 404);
    let pit = json!({"pit_id": ["not-a-pit"]}).to_string();
    assert_eq!(kind(engine.close_pit(pit.as_bytes(), true, false).unwrap_err()), ("illegal_argument_exception", 400));
    let too_long = engine.search("p", b"{}", &params(&[("scroll", "2d")])).unwrap_err();
    assert_eq!(kind(too_long), ("search_phase_execution_exception", 400));
    assert_eq!(engine.open_contexts(), 0);
    assert!(engine.search("p", b"{}", &params(&[("scroll", "24h")])).is_ok());
}

#[test]
fn open_points_in_time_are_listed() {
    let (_d, engine) = setup();
    assert_eq!(parse(&engine.list_pits())["pits"], json!([]));
    let opened = parse(&engine.open_pit("p", &params(&[("keep_alive", "5m")]), true).unwrap());
    engine.search("p", b"{}", &params(&[("scroll", "1m")])).unwrap();
    let listed = parse(&engine.list_pits());
    let pits = listed["pits"].as_array().unwrap();
    assert_eq!(pits.len(), 1, "a scroll is not a point in time: {listed}");
    assert_eq!(pits[0]["pit_id"], opened["pit_id"]);
    assert_eq!(pits[0]["keep_alive"], 300_000);
    assert!(pits[0]["creation_time"].as_u64().unwrap() > 1_700_000_000_000);
}
