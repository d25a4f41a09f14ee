//! `geo_distance` and `geo_bounding_box` in the query DSL: the body parsed into a `GeoQuery`
//! (its field, the circle or box, `ignore_unmapped`), with ES's point forms, units, validation
//! methods and errors. Lowering is `query::lower::geo`'s.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result, ShardCause};
use crate::geo::distance::{parse_distance, DistanceType};
use crate::geo::parse::{check_range, java, normalize, parse_point, GeoPoint};
use crate::query::ast::QueryAst;
use crate::query::geo_ast::{GeoQuery, GeoShape};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Validation {
    Strict,
    Coerce,
    IgnoreMalformed,
}

fn parsing(kind: &str, what: impl std::fmt::Display) -> EngineError {
    EngineError::Parsing(format!("[{kind}] {what}"))
}

/// Splits a geo query's body into its options and its one `{field: value}` entry.
fn field_entry<'a>(
    kind: &str,
    body: &'a Value,
    options: &[&str],
) -> Result<(&'a String, &'a Value, &'a Map<String, Value>)> {
    let obj = body.as_object().ok_or_else(|| parsing(kind, "query malformed, no start_object after query name"))?;
    let mut field = None;
    for (key, value) in obj {
        if options.contains(&key.as_str()) {
            continue;
        }
        if let Some((first, _)) = field {
            return Err(parsing(kind, format!("query doesn't support multiple fields, found [{first}] and [{key}]")));
        }
        field = Some((key, value));
    }
    let (name, value) = field.ok_or_else(|| parsing(kind, "query must name a field"))?;
    Ok((name, value, obj))
}

fn validation(kind: &str, obj: &Map<String, Value>) -> Result<Validation> {
    match obj.get("validation_method") {
        None => Ok(Validation::Strict),
        Some(Value::String(s)) => match s.to_ascii_uppercase().as_str() {
            "STRICT" => Ok(Validation::Strict),
            "COERCE" => Ok(Validation::Coerce),
            "IGNORE_MALFORMED" => Ok(Validation::IgnoreMalformed),
            _ => Err(EngineError::IllegalArgument(format!("No enum constant for validation_method [{s}]"))),
        },
        Some(other) => Err(parsing(kind, format!("[validation_method] must be a string, found [{other}]"))),
    }
}

fn flag(kind: &str, obj: &Map<String, Value>, key: &str) -> Result<bool> {
    match obj.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
        Some(other) => Err(parsing(kind, format!("[{key}] must be a boolean, found [{other}]"))),
    }
}

fn boost(kind: &str, obj: &Map<String, Value>) -> Result<Option<f32>> {
    match obj.get("boost") {
        None => Ok(None),
        Some(v) => v.as_f64().map(|b| Some(b as f32)).ok_or_else(|| parsing(kind, "[boost] must be a number")),
    }
}

fn point(kind: &str, value: &Value) -> Result<GeoPoint> {
    parse_point(value).map_err(|e| parsing(kind, e))
}

/// A point checked (strict), wrapped (coerce) or taken as is.
fn validated(kind: &str, p: GeoPoint, how: Validation) -> Result<GeoPoint> {
    match how {
        Validation::Strict => {
            check_range(&p, &format!("[{kind}]")).map_err(|e| EngineError::shard(ShardCause::QueryShard, e))?;
            Ok(p)
        }
        Validation::Coerce => Ok(normalize(p)),
        Validation::IgnoreMalformed => Ok(p),
    }
}

const DISTANCE_OPTIONS: &[&str] =
    &["distance", "distance_type", "validation_method", "ignore_unmapped", "_name", "boost"];

pub fn parse_geo_distance(body: &Value) -> Result<QueryAst> {
    let kind = "geo_distance";
    let (field, value, obj) = field_entry(kind, body, DISTANCE_OPTIONS)?;
    let distance = obj
        .get("distance")
        .ok_or_else(|| EngineError::IllegalArgument("geo_distance requires 'distance' to be specified".to_string()))?;
    let meters = parse_distance(distance)?;
    if !(meters.is_finite() && meters > 0.0) {
        return Err(EngineError::IllegalArgument(format!(
            "distance must be greater than zero, got [{}]",
            java(meters)
        )));
    }
    // The query measures arcs whatever `distance_type` says (ES's query ignores it too); it must still be valid.
    if let Some(t) = obj.get("distance_type") {
        DistanceType::parse(t.as_str().ok_or_else(|| parsing(kind, "[distance_type] must be a string"))?)?;
    }
    let how = validation(kind, obj)?;
    let center = validated(kind, point(kind, value)?, how)?;
    let query = GeoQuery {
        field: field.clone(),
        shape: GeoShape::Distance { center, meters },
        ignore_unmapped: flag(kind, obj, "ignore_unmapped")?,
    };
    Ok(QueryAst::Geo(Box::new(query)).boosted(boost(kind, obj)?))
}

const BOX_OPTIONS: &[&str] = &["validation_method", "ignore_unmapped", "_name", "boost", "type"];

pub fn parse_geo_bounding_box(body: &Value) -> Result<QueryAst> {
    let kind = "geo_bounding_box";
    let (field, value, obj) = field_entry(kind, body, BOX_OPTIONS)?;
    if let Some(t) = obj.get("type") {
        if !matches!(t.as_str(), Some("memory" | "indexed")) {
            return Err(parsing(kind, format!("failed to parse [type] [{t}]")));
        }
    }
    let how = validation(kind, obj)?;
    let (mut top, mut bottom, mut left, mut right) = parse_box(kind, value)?;
    if how != Validation::IgnoreMalformed && top < bottom {
        return Err(EngineError::IllegalArgument(format!(
            "top is below bottom corner: {} vs. {}",
            java(top),
            java(bottom)
        )));
    }
    match how {
        Validation::Strict => {
            let checks = [
                ("top latitude", top, 90.0),
                ("left longitude", left, 180.0),
                ("bottom latitude", bottom, 90.0),
                ("right longitude", right, 180.0),
            ];
            if let Some((what, v, _)) = checks.iter().find(|(_, v, limit)| !(-limit..=*limit).contains(v)) {
                return Err(EngineError::shard(
                    ShardCause::QueryShard,
                    format!("couldn't validate latitude/ longitude values: {what} is invalid: {}", java(*v)),
                ));
            }
        }
        Validation::Coerce => {
            let complete = (right - left) % 360.0 == 0.0 && right > left;
            let tl = normalize(GeoPoint { lat: top, lon: left });
            let br = normalize(GeoPoint { lat: bottom, lon: right });
            (top, left, bottom, right) = (tl.lat, tl.lon, br.lat, br.lon);
            if complete {
                (left, right) = (-180.0, 180.0);
            }
        }
        Validation::IgnoreMalformed => {}
    }
    let query = GeoQuery {
        field: field.clone(),
        shape: GeoShape::Box { top, bottom, left, right },
        ignore_unmapped: flag(kind, obj, "ignore_unmapped")?,
    };
    Ok(QueryAst::Geo(Box::new(query)).boosted(boost(kind, obj)?))
}

/// (top, bottom, left, right) of a box in any of ES's forms.
fn parse_box(kind: &str, value: &Value) -> Result<(f64, f64, f64, f64)> {
    let obj = value.as_object().ok_or_else(|| parsing(kind, "failed to parse bounding box. expected an object"))?;
    let (mut top, mut bottom, mut left, mut right) = (None, None, None, None);
    let number = |v: &Value, key: &str| {
        v.as_f64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            .ok_or_else(|| parsing(kind, format!("[{key}] must be a number")))
    };
    for (key, v) in obj {
        match key.as_str() {
            "top" => top = Some(number(v, key)?),
            "bottom" => bottom = Some(number(v, key)?),
            "left" => left = Some(number(v, key)?),
            "right" => right = Some(number(v, key)?),
            "top_left" | "topLeft" => {
                let p = point(kind, v)?;
                (top, left) = (Some(p.lat), Some(p.lon));
            }
            "bottom_right" | "bottomRight" => {
                let p = point(kind, v)?;
                (bottom, right) = (Some(p.lat), Some(p.lon));
            }
            "top_right" | "topRight" => {
                let p = point(kind, v)?;
                (top, right) = (Some(p.lat), Some(p.lon));
            }
            "bottom_left" | "bottomLeft" => {
                let p = point(kind, v)?;
                (bottom, left) = (Some(p.lat), Some(p.lon));
            }
            "wkt" => {
                let text = v.as_str().ok_or_else(|| parsing(kind, "[wkt] must be a string"))?;
                let (l, r, t, b) = parse_bbox_wkt(text).map_err(|e| parsing(kind, e))?;
                (left, right, top, bottom) = (Some(l), Some(r), Some(t), Some(b));
            }
            other => return Err(parsing(kind, format!("failed to parse bounding box. unexpected field [{other}]"))),
        }
    }
    match (top, bottom, left, right) {
        (Some(t), Some(b), Some(l), Some(r)) => Ok((t, b, l, r)),
        _ => Err(EngineError::IllegalArgument("failed to parse bounding box. missing corner".to_string())),
    }
}

/// WKT's `BBOX (minLon, maxLon, maxLat, minLat)`: (left, right, top, bottom).
fn parse_bbox_wkt(text: &str) -> std::result::Result<(f64, f64, f64, f64), String> {
    let t = text.trim();
    let rest = t
        .get(..4)
        .filter(|h| h.eq_ignore_ascii_case("BBOX"))
        .map(|_| t[4..].trim())
        .ok_or_else(|| format!("failed to parse WKT bounding box [{text}]"))?;
    let inner =
        rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).ok_or_else(|| format!("expected '(' in [{text}]"))?;
    let nums = inner.split(',').map(|s| s.trim().parse::<f64>()).collect::<std::result::Result<Vec<_>, _>>();
    match nums.as_deref() {
        Ok([l, r, t, b]) => Ok((*l, *r, *t, *b)),
        _ => Err(format!("failed to parse WKT bounding box [{text}]")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shape(ast: QueryAst) -> GeoShape {
        match ast {
            QueryAst::Geo(q) => q.shape,
            QueryAst::Boost { query, .. } => shape(*query),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parses_distance_in_units_and_point_forms() {
        let s = shape(parse_geo_distance(&json!({"distance": "10km", "location": "40,-70"})).unwrap());
        assert_eq!(s, GeoShape::Distance { center: GeoPoint { lat: 40.0, lon: -70.0 }, meters: 10_000.0 });
        let s = shape(parse_geo_distance(&json!({"distance": 500, "location": [-70, 40], "boost": 2})).unwrap());
        assert!(matches!(s, GeoShape::Distance { meters: 500.0, .. }));
        assert!(parse_geo_distance(&json!({"location": [-70, 40]})).is_err());
        assert!(parse_geo_distance(&json!({"distance": "1km", "a": [0, 0], "b": [0, 0]})).is_err());
        let err = parse_geo_distance(&json!({"distance": "1km", "a": {"lat": 95, "lon": 0}})).unwrap_err();
        assert!(err.to_string().contains("illegal latitude value [95.0]"), "{err}");
        assert!(parse_geo_distance(
            &json!({"distance": "1km", "a": {"lat": 95, "lon": 0}, "validation_method": "COERCE"})
        )
        .is_ok());
    }

    #[test]
    fn parses_every_box_form() {
        let want = GeoShape::Box { top: 40.0, bottom: 30.0, left: -75.0, right: -70.0 };
        let forms = [
            json!({"top_left": {"lat": 40, "lon": -75}, "bottom_right": {"lat": 30, "lon": -70}}),
            json!({"top": 40, "left": -75, "bottom": 30, "right": -70}),
            json!({"top_right": [-70, 40], "bottom_left": "30,-75"}),
            json!({"wkt": "BBOX (-75, -70, 40, 30)"}),
        ];
        for form in forms {
            assert_eq!(shape(parse_geo_bounding_box(&json!({ "pin": form })).unwrap()), want);
        }
        let err =
            parse_geo_bounding_box(&json!({"pin": {"top": 10, "bottom": 20, "left": 0, "right": 1}})).unwrap_err();
        assert!(err.to_string().contains("top is below bottom corner"), "{err}");
    }
}
