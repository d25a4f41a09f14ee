//! `range`: `{"field": {"gt"|"gte"|"lt"|"lte": v, "format": f, "boost": b}}`, and the older
//! `from`/`to` with `include_lower`/`include_upper` (inclusive unless they say otherwise),
//! which ES still reads and prints as the same bounds.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, single_field};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result};
use crate::query::ast::{QueryAst, RangeAst, RangeRelation};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeOptions {
    gt: Option<Value>,
    gte: Option<Value>,
    lt: Option<Value>,
    lte: Option<Value>,
    from: Option<Value>,
    to: Option<Value>,
    include_lower: Option<bool>,
    include_upper: Option<bool>,
    format: Option<String>,
    time_zone: Option<String>,
    relation: Option<String>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let (field, spec) = single_field("range", body)?;
    let opts: RangeOptions = from_value("range", spec)?;
    let time_zone = match opts.time_zone.as_deref() {
        None => None,
        Some(tz) => Some(DateZone::parse(tz).ok_or_else(|| EngineError::XContentParseCaused {
            reason: "[range] failed to parse field [time_zone]".into(),
            cause_type: "zone_rules_exception",
            cause_reason: format!("Unknown time-zone ID: {tz}"),
        })?),
    };
    let relation = match opts.relation.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("intersects") => Some(RangeRelation::Intersects),
        Some("contains") => Some(RangeRelation::Contains),
        Some("within") => Some(RangeRelation::Within),
        Some(other) => return Err(EngineError::Parsing(format!("[range] query does not support relation [{other}]"))),
    };
    let null_to_none = |v: Option<Value>| v.filter(|v| !v.is_null());
    let (mut gt, mut gte) = (null_to_none(opts.gt), null_to_none(opts.gte));
    let (mut lt, mut lte) = (null_to_none(opts.lt), null_to_none(opts.lte));
    if let (Some(from), None, None) = (null_to_none(opts.from), &gt, &gte) {
        *if opts.include_lower.unwrap_or(true) { &mut gte } else { &mut gt } = Some(from);
    }
    if let (Some(to), None, None) = (null_to_none(opts.to), &lt, &lte) {
        *if opts.include_upper.unwrap_or(true) { &mut lte } else { &mut lt } = Some(to);
    }
    let range = RangeAst { field: field.clone(), gt, gte, lt, lte, format: opts.format, time_zone, relation };
    Ok(QueryAst::Range(range).boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_bounds_and_format() {
        let QueryAst::Range(r) = parse(&json!({"ts": {"gte": "2024-01-01", "lt": 5, "format": "yyyy-MM-dd"}})).unwrap()
        else {
            panic!("not a range")
        };
        assert_eq!(r.gte, Some(json!("2024-01-01")));
        assert_eq!(r.lt, Some(json!(5)));
        assert_eq!(r.format.as_deref(), Some("yyyy-MM-dd"));
    }

    #[test]
    fn from_and_to_are_inclusive_bounds_unless_excluded() {
        let QueryAst::Range(r) = parse(&json!({"n": {"from": 1, "to": 5}})).unwrap() else { panic!() };
        assert_eq!((r.gte, r.lte, r.gt, r.lt), (Some(json!(1)), Some(json!(5)), None, None));
        let body = json!({"n": {"from": 1, "to": null, "include_lower": false}});
        let QueryAst::Range(r) = parse(&body).unwrap() else { panic!() };
        assert_eq!((r.gt, r.gte, r.lt, r.lte), (Some(json!(1)), None, None, None));
    }

    #[test]
    fn reads_the_relation() {
        let QueryAst::Range(r) = parse(&json!({"r": {"gte": 1, "relation": "WITHIN"}})).unwrap() else { panic!() };
        assert_eq!(r.relation, Some(RangeRelation::Within));
        assert!(parse(&json!({"r": {"gte": 1, "relation": "overlaps"}})).is_err());
    }

    #[test]
    fn rejects_unknown_time_zones() {
        assert!(parse(&json!({"n": {"gte": 1, "time_zone": "Mars/Olympus"}})).is_err());
        let QueryAst::Range(r) = parse(&json!({"n": {"gte": 1, "time_zone": "+01:00"}})).unwrap() else { panic!() };
        assert_eq!(r.time_zone, Some(DateZone::Fixed(3600)));
    }
}
