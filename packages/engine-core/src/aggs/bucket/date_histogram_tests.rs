//! Tests of `date_histogram.rs`: option parsing, empty-bucket filling, and the direct JSON
//! writer against the rendered tree.

use super::*;
use crate::date::format_millis;

fn mapping() -> Mapping {
    Mapping::from_mappings_json(&json!({"properties": {"d": {"type": "date"}}})).unwrap()
}

fn parse_body(body: Value) -> Result<(AggKind, String)> {
    parse("h", body.as_object().unwrap(), &mapping())
}

#[test]
fn bounds_parse_in_the_zone_and_round_down() {
    let (kind, _) = parse_body(json!({"field": "d", "calendar_interval": "day", "time_zone": "America/New_York",
        "extended_bounds": {"min": "2026-10-30", "max": "2026-11-02T12:00:00Z"}}))
    .unwrap();
    let AggKind::DateHistogram { opts, .. } = kind else { panic!("not a date_histogram") };
    let b = opts.extended_bounds.unwrap();
    assert_eq!(format_millis(b.min.unwrap()), "2026-10-30T04:00:00.000Z");
    assert_eq!(format_millis(b.max.unwrap()), "2026-11-02T05:00:00.000Z");
}

#[test]
fn bad_bounds_and_options_fail_like_es() {
    let err = parse_body(json!({"field": "d", "calendar_interval": "day", "extended_bounds": {"min": 10, "max": 5}}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("[extended_bounds.min][10] cannot be greater than [extended_bounds.max][5]"), "{err}");
    let err = parse_body(json!({"field": "d", "calendar_interval": "day",
        "extended_bounds": {"min": 0, "max": 864000000}, "hard_bounds": {"min": 0, "max": 86400000}}))
    .unwrap_err()
    .to_string();
    assert!(err.contains("Extended bounds have to be inside hard bounds"), "{err}");
    assert!(matches!(
        parse_body(json!({"field": "d", "calendar_interval": "day", "time_zone": "Nowhere/Land"})),
        Err(EngineError::XContentParse(_))
    ));
    let (kind, _) = parse_body(json!({"field": "d", "fixed_interval": "1h", "offset": "-30m"})).unwrap();
    assert!(matches!(kind, AggKind::DateHistogram { ref opts, .. } if opts.offset_ms == -1_800_000));
}

fn render_counts(kind: &AggKind, keys: &[(i64, u64)]) -> Value {
    let req = AggRequest {
        name: "h".into(),
        kind: kind.clone(),
        field: crate::aggs::request::AggField::named("d"),
        subs: vec![],
        meta: None,
    };
    let buckets =
        keys.iter().map(|(k, c)| (BucketKey::Num(*k as u64), FruitBucket { count: *c, subs: vec![] })).collect();
    let AggKind::DateHistogram { interval, min_doc_count, opts } = kind else { panic!("not a date_histogram") };
    bucket_budget::reset();
    render(&req, *interval, *min_doc_count, opts, &buckets)
}

/// The direct writer and the rendered tree agree bucket for bucket: empty buckets, a DST
/// change, sub-aggregations, a key format whose text needs escaping, keyed output.
#[test]
fn written_json_is_the_rendered_tree() {
    let mapping =
        Mapping::from_mappings_json(&json!({"properties": {"d": {"type": "date"}, "n": {"type": "long"}}})).unwrap();
    let requests = [
        json!({"h": {"date_histogram": {"field": "d", "calendar_interval": "day", "time_zone": "America/New_York"},
            "aggs": {"top": {"max": {"field": "n"}}, "per \"hour\"": {"value_count": {"field": "n"}}}}}),
        json!({"h": {"date_histogram": {"field": "d", "fixed_interval": "7h", "format": "yyyy/MM/dd'\"'HH"}}}),
        json!({"h": {"date_histogram": {"field": "d", "calendar_interval": "month", "keyed": true}}}),
        json!({"h": {"date_histogram": {"field": "d", "calendar_interval": "day", "min_doc_count": 2}}}),
    ];
    let start = crate::date::parse_date_str("2026-10-29T13:00:00Z", &DEFAULT_FORMATS).unwrap();
    for body in requests {
        let req = crate::aggs::parse_aggs(&body, &mapping).unwrap().remove(0);
        let keyer = |ms: i64| match &req.kind {
            AggKind::DateHistogram { interval, opts, .. } => opts.rounding(*interval).round(ms),
            _ => unreachable!(),
        };
        let mut buckets = HashMap::new();
        for (i, at) in [0, 3, 50, 51, 400].iter().enumerate() {
            let subs = req.subs.iter().map(AggFruit::empty).collect();
            buckets.insert(
                BucketKey::Num(keyer(start + at * 3_600_000) as u64),
                FruitBucket { count: i as u64 + 1, subs },
            );
        }
        let fruit = AggFruit::Buckets(buckets);
        bucket_budget::reset();
        let rendered = DateHistogram.render(&req, &fruit);
        bucket_budget::reset();
        let mut written = String::new();
        DateHistogram.write_json(&req, &fruit, &mut written);
        let parsed: Value = serde_json::from_str(&written).unwrap();
        assert_eq!(parsed, rendered, "{body}");
        assert!(rendered["buckets"].as_array().is_none_or(|b| b.len() >= 3), "{body}: {rendered}");
    }
}

#[test]
fn fills_out_to_extended_bounds_across_dst() {
    let (kind, _) = parse_body(json!({"field": "d", "calendar_interval": "day", "time_zone": "America/New_York",
        "min_doc_count": 0, "extended_bounds": {"min": "2026-10-30T12:00:00Z", "max": "2026-11-03T12:00:00Z"}}))
    .unwrap();
    // One doc on Nov 1 (local): its bucket starts at 04:00Z (EDT) and lasts 25 hours.
    let nov1 = crate::date::parse_date_str("2026-11-01T04:00:00Z", &DEFAULT_FORMATS).unwrap();
    let out = render_counts(&kind, &[(nov1, 3)]);
    let buckets = out["buckets"].as_array().unwrap();
    let strings: Vec<&str> = buckets.iter().map(|b| b["key_as_string"].as_str().unwrap()).collect();
    assert_eq!(
        strings,
        [
            "2026-10-30T00:00:00.000-04:00",
            "2026-10-31T00:00:00.000-04:00",
            "2026-11-01T00:00:00.000-04:00",
            "2026-11-02T00:00:00.000-05:00",
            "2026-11-03T00:00:00.000-05:00"
        ]
    );
    assert_eq!(buckets[2]["doc_count"], 3);
    assert_eq!(buckets[3]["key"].as_i64().unwrap() - buckets[2]["key"].as_i64().unwrap(), 25 * 3_600_000);
}

#[test]
fn bounds_alone_make_buckets_when_nothing_matched() {
    let (kind, _) = parse_body(json!({"field": "d", "calendar_interval": "day", "time_zone": "+05:45",
        "extended_bounds": {"min": "2026-01-01", "max": "2026-01-03"}, "format": "yyyy-MM-dd"}))
    .unwrap();
    let out = render_counts(&kind, &[]);
    let strings: Vec<&str> =
        out["buckets"].as_array().unwrap().iter().map(|b| b["key_as_string"].as_str().unwrap()).collect();
    assert_eq!(strings, ["2026-01-01", "2026-01-02", "2026-01-03"]);
    assert_eq!(out["buckets"][0]["key"], json!(1_767_204_900_000i64)); // 2025-12-31T18:15:00Z
}
