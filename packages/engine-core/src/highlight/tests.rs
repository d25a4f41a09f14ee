//! The highlighter end to end over a mapping and a `_source`, without an index: request JSON
//! in, a hit's `highlight` object out.

use serde_json::{json, Value};

use super::HighlightRequest;
use crate::query::dsl::parse_query;
use crate::store::mapping::Mapping;

fn mapping() -> Mapping {
    Mapping::from_mappings_json(&json!({"properties": {
        "title": {"type": "text"},
        "body": {"type": "text"},
        "tag": {"type": "keyword"},
        "n": {"type": "long"}
    }}))
    .unwrap()
}

fn highlight(query: Value, highlight: Value, source: Value) -> Value {
    let req = HighlightRequest::parse(&highlight).unwrap();
    let h = req.prepare(&parse_query(&query).unwrap(), &mapping(), 0).unwrap();
    h.render(source.to_string().as_bytes()).map_or(Value::Null, |s| serde_json::from_str(&s).unwrap())
}

#[test]
fn tags_every_query_term_with_the_default_tags() {
    let got = highlight(
        json!({"match": {"title": "Quick fox"}}),
        json!({"fields": {"title": {}}}),
        json!({"title": "The quick brown fox. A quick dog."}),
    );
    assert_eq!(got, json!({"title": ["The <em>quick</em> brown <em>fox</em>. A <em>quick</em> dog."]}));
}

#[test]
fn custom_tags_and_the_html_encoder() {
    let got = highlight(
        json!({"match": {"title": "fox"}}),
        json!({"pre_tags": ["<b>"], "post_tags": ["</b>"], "encoder": "html", "fields": {"title": {}}}),
        json!({"title": "a <fox> & 'co'"}),
    );
    assert_eq!(got, json!({"title": ["a &lt;<b>fox</b>&gt; &amp; &#x27;co&#x27;"]}));
}

#[test]
fn phrases_highlight_only_their_occurrences() {
    let got = highlight(
        json!({"match_phrase": {"title": "brown fox"}}),
        json!({"fields": {"title": {}}}),
        json!({"title": "a brown dog and a brown fox"}),
    );
    assert_eq!(got, json!({"title": ["a brown dog and a <em>brown</em> <em>fox</em>"]}));
}

#[test]
fn one_fragment_per_sentence_in_text_order_or_by_score() {
    let text = "The fox sleeps. Nothing here at all. A fox and a fox. More filler text.";
    let query = json!({"match": {"body": "fox"}});
    let by_position =
        highlight(query.clone(), json!({"fields": {"body": {"fragment_size": 18}}}), json!({"body": text}));
    assert_eq!(by_position, json!({"body": ["The <em>fox</em> sleeps.", "A <em>fox</em> and a <em>fox</em>."]}));
    let best_one = highlight(
        query.clone(),
        json!({"fields": {"body": {"fragment_size": 18, "number_of_fragments": 1}}}),
        json!({"body": text}),
    );
    assert_eq!(best_one, json!({"body": ["A <em>fox</em> and a <em>fox</em>."]}));
    let by_score =
        highlight(query, json!({"order": "score", "fields": {"body": {"fragment_size": 18}}}), json!({"body": text}));
    assert_eq!(by_score, json!({"body": ["A <em>fox</em> and a <em>fox</em>.", "The <em>fox</em> sleeps."]}));
}

#[test]
fn a_long_sentence_is_cut_around_the_match() {
    let text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen fox seventeen eighteen";
    let got = highlight(
        json!({"match": {"body": "fox"}}),
        json!({"fields": {"body": {"fragment_size": 30}}}),
        json!({"body": text}),
    );
    assert_eq!(got, json!({"body": ["thirteen fourteen fifteen sixteen <em>fox</em>"]}));
}

#[test]
fn no_match_size_shows_the_start_of_a_field_without_matches() {
    let got = highlight(
        json!({"match": {"title": "fox"}}),
        json!({"fields": {"body": {"no_match_size": 10}, "title": {}}}),
        json!({"title": "no match here", "body": "Lorem ipsum dolor sit amet"}),
    );
    assert_eq!(got, json!({"body": ["Lorem ipsum"]}));
    let nothing = highlight(json!({"match": {"title": "fox"}}), json!({"fields": {"body": {}}}), json!({"body": "x"}));
    assert_eq!(nothing, Value::Null);
}

#[test]
fn zero_fragments_returns_each_matching_value_whole() {
    let got = highlight(
        json!({"match": {"body": "fox"}}),
        json!({"fields": {"body": {"number_of_fragments": 0}}}),
        json!({"body": ["A fox. Another sentence here.", "no", "fox again"]}),
    );
    assert_eq!(got, json!({"body": ["A <em>fox</em>. Another sentence here.", "<em>fox</em> again"]}));
}

#[test]
fn require_field_match_false_and_wildcard_fields_use_every_clause() {
    let query = json!({"match": {"title": "fox"}});
    let source = json!({"title": "red fox", "body": "the fox runs", "tag": "fox"});
    let strict = highlight(query.clone(), json!({"fields": {"*": {}}}), source.clone());
    assert_eq!(strict, json!({"title": ["red <em>fox</em>"]}));
    let loose = highlight(query, json!({"require_field_match": false, "fields": {"*": {}}}), source);
    assert_eq!(
        loose,
        json!({"title": ["red <em>fox</em>"], "body": ["the <em>fox</em> runs"], "tag": ["<em>fox</em>"]})
    );
}

#[test]
fn highlight_query_replaces_the_search_query() {
    let got = highlight(
        json!({"match": {"title": "fox"}}),
        json!({"fields": {"title": {"highlight_query": {"match": {"title": "dog"}}}}}),
        json!({"title": "fox and dog"}),
    );
    assert_eq!(got, json!({"title": ["fox and <em>dog</em>"]}));
}

#[test]
fn multi_term_queries_highlight_their_expansions() {
    let source = json!({"title": "quick quack quiet"});
    let prefix = highlight(json!({"prefix": {"title": "qui"}}), json!({"fields": {"title": {}}}), source.clone());
    assert_eq!(prefix, json!({"title": ["<em>quick</em> quack <em>quiet</em>"]}));
    let fuzzy = highlight(json!({"fuzzy": {"title": "quock"}}), json!({"fields": {"title": {}}}), source.clone());
    assert_eq!(fuzzy, json!({"title": ["<em>quick</em> <em>quack</em> quiet"]}));
    let negated =
        json!({"bool": {"must": [{"match": {"title": "quick"}}], "must_not": [{"match": {"title": "quiet"}}]}});
    assert_eq!(
        highlight(negated, json!({"fields": {"title": {}}}), source),
        json!({"title": ["<em>quick</em> quack quiet"]})
    );
}

#[test]
fn unknown_highlighter_types_fail_like_the_fetch_phase() {
    let req = HighlightRequest::parse(&json!({"type": "magic", "fields": {"title": {}}})).unwrap();
    let query = parse_query(&json!({"match_all": {}})).unwrap();
    let err = req.prepare(&query, &mapping(), 0).err().unwrap();
    assert_eq!(err.to_es_body()["error"]["type"], "search_phase_execution_exception");
    assert_eq!(err.to_es_body()["error"]["root_cause"][0]["type"], "illegal_argument_exception");
    let fvh = HighlightRequest::parse(&json!({"type": "fvh", "fields": {"title": {}}})).unwrap();
    assert!(fvh.prepare(&query, &mapping(), 0).is_err());
}
