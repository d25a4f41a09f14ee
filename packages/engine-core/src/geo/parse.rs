//! A geo point in any of ES's forms: `{"lat", "lon"}`, `"lat,lon"`, `[lon, lat]`,
//! `"POINT (lon lat)"` (WKT) and a geohash string (the cell's south-west corner, as ES reads it). Errors are the reason
//! text; callers wrap them in the error their context raises.

use serde_json::Value;

use super::geohash;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeoPoint {
    pub lat: f64,
    pub lon: f64,
}

/// Whether an array is one point (`[lon, lat]`), not a list of points.
pub fn is_coordinate_array(items: &[Value]) -> bool {
    items.first().is_some_and(Value::is_number)
}

/// Parses one point without checking its range.
pub fn parse_point(value: &Value) -> Result<GeoPoint, String> {
    match value {
        Value::Object(obj) => {
            let mut lat = None;
            let mut lon = None;
            let mut hash = None;
            for (key, v) in obj {
                match key.as_str() {
                    "lat" => lat = Some(number(v, "latitude")?),
                    "lon" => lon = Some(number(v, "longitude")?),
                    "geohash" => hash = Some(v.as_str().ok_or("[geohash] must be a string")?),
                    "z" => {}
                    _ => return Err("field must be either [lon|lat], [type|coordinates], or [geohash]".into()),
                }
            }
            if let Some(hash) = hash {
                if lat.is_some() || lon.is_some() {
                    return Err("field must be either lat/lon or geohash".into());
                }
                return from_geohash(hash);
            }
            match (lat, lon) {
                (Some(lat), Some(lon)) => Ok(GeoPoint { lat, lon }),
                (None, _) => Err("field [lat] missing".into()),
                (_, None) => Err("field [lon] missing".into()),
            }
        }
        Value::Array(items) => {
            let coords = items
                .iter()
                .map(|v| v.as_f64().ok_or_else(|| "numeric value expected".to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            match coords.as_slice() {
                [lon, lat] | [lon, lat, _] => Ok(GeoPoint { lat: *lat, lon: *lon }),
                [] | [_] => Err("geo_point expected".into()),
                _ => {
                    Err("Exception parsing coordinates: found Z value [0.0] but [ignore_z_value] parameter is [false]"
                        .into())
                }
            }
        }
        Value::String(text) => parse_text(text),
        other => Err(format!("geo_point expected, found [{other}]")),
    }
}

fn number(v: &Value, what: &str) -> Result<f64, String> {
    match v {
        Value::Number(n) => n.as_f64().ok_or_else(|| format!("{what} must be a number")),
        Value::String(s) => s.trim().parse::<f64>().map_err(|_| format!("[{what}] must be a valid double value")),
        _ => Err(format!("{what} must be a number")),
    }
}

fn parse_text(text: &str) -> Result<GeoPoint, String> {
    let trimmed = text.trim();
    if let Some(rest) = strip_prefix_ignore_case(trimmed, "POINT") {
        return parse_wkt_point(rest);
    }
    if trimmed.contains(',') {
        let parts: Vec<&str> = trimmed.split(',').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(format!("failed to parse [{text}], expected 2 or 3 coordinates but found: [{}]", parts.len()));
        }
        let coord = |s: &str, what: &str| s.trim().parse::<f64>().map_err(|_| format!("[{what}] must be a number"));
        return Ok(GeoPoint { lat: coord(parts[0], "lat")?, lon: coord(parts[1], "lon")? });
    }
    from_geohash(trimmed)
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

/// `POINT (lon lat)` after the keyword.
fn parse_wkt_point(rest: &str) -> Result<GeoPoint, String> {
    let inner = rest
        .trim()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| format!("expected '(' and ')' around the coordinates of POINT{rest}"))?;
    let coords = inner
        .split_whitespace()
        .map(|s| s.parse::<f64>().map_err(|_| format!("expected number but found: '{s}'")))
        .collect::<Result<Vec<_>, _>>()?;
    match coords.as_slice() {
        [lon, lat] | [lon, lat, _] => Ok(GeoPoint { lat: *lat, lon: *lon }),
        _ => Err(format!("expected 2 or 3 coordinates in POINT{rest}")),
    }
}

fn from_geohash(hash: &str) -> Result<GeoPoint, String> {
    let (lat, lon) = geohash::corner(hash).ok_or_else(|| format!("unsupported symbol in geohash [{hash}]"))?;
    Ok(GeoPoint { lat, lon })
}

/// ES's range check (`validation_method: strict`, and every indexed point).
pub fn check_range(p: &GeoPoint, field: &str) -> Result<(), String> {
    if !(-90.0..=90.0).contains(&p.lat) || p.lat.is_nan() {
        return Err(format!("illegal latitude value [{}] for {field}", java(p.lat)));
    }
    if !(-180.0..=180.0).contains(&p.lon) || p.lon.is_nan() {
        return Err(format!("illegal longitude value [{}] for {field}", java(p.lon)));
    }
    Ok(())
}

/// ES's `validation_method: coerce`: longitudes wrap into [-180, 180], latitudes fold over the poles.
pub fn normalize(p: GeoPoint) -> GeoPoint {
    let mut lat = p.lat;
    let mut lon = p.lon;
    if !(-90.0..=90.0).contains(&lat) {
        lat = ((lat + 180.0).rem_euclid(360.0)) - 180.0;
        if lat > 90.0 {
            lat = 180.0 - lat;
            lon += 180.0;
        } else if lat < -90.0 {
            lat = -180.0 - lat;
            lon += 180.0;
        }
    }
    if !(-180.0..=180.0).contains(&lon) {
        lon = ((lon + 180.0).rem_euclid(360.0)) - 180.0;
    }
    GeoPoint { lat, lon }
}

/// A point as the `fields` API shows it: GeoJSON, coordinates as given (`None`: not a point).
pub fn geojson(value: &Value) -> Option<Value> {
    let p = parse_point(value).ok()?;
    Some(serde_json::json!({"type": "Point", "coordinates": [p.lon, p.lat]}))
}

/// A double as Java prints it (`91.0`, not `91`).
pub fn java(v: f64) -> String {
    crate::number::java_double(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(v: Value) -> GeoPoint {
        parse_point(&v).unwrap()
    }

    #[test]
    fn every_input_form() {
        let want = GeoPoint { lat: 41.12, lon: -71.34 };
        assert_eq!(p(json!({"lat": 41.12, "lon": -71.34})), want);
        assert_eq!(p(json!({"lat": "41.12", "lon": "-71.34"})), want);
        assert_eq!(p(json!("41.12,-71.34")), want);
        assert_eq!(p(json!(" 41.12 , -71.34 ")), want);
        assert_eq!(p(json!([-71.34, 41.12])), want);
        assert_eq!(p(json!("POINT (-71.34 41.12)")), want);
        assert_eq!(p(json!("point(-71.34 41.12)")), want);
        let hashed = p(json!("drm3btev3e86"));
        assert!((hashed.lat - 41.12).abs() < 1e-6 && (hashed.lon + 71.34).abs() < 1e-6, "{hashed:?}");
        assert!(is_coordinate_array(&[json!(1.0), json!(2.0)]));
        assert!(!is_coordinate_array(&[json!({"lat": 1, "lon": 2})]));
    }

    #[test]
    fn refuses_what_es_refuses() {
        assert!(parse_point(&json!({"lat": 1})).unwrap_err().contains("[lon] missing"));
        assert!(parse_point(&json!({"lat": 1, "lon": 2, "x": 3})).is_err());
        assert!(parse_point(&json!("not a hash!")).is_err());
        assert!(parse_point(&json!("1,2,3,4")).is_err());
        assert!(parse_point(&json!(true)).is_err());
        let err = check_range(&GeoPoint { lat: 91.0, lon: 0.0 }, "location").unwrap_err();
        assert_eq!(err, "illegal latitude value [91.0] for location");
        assert!(check_range(&GeoPoint { lat: 0.0, lon: -180.5 }, "x").unwrap_err().contains("longitude"));
        assert!(check_range(&GeoPoint { lat: 90.0, lon: 180.0 }, "x").is_ok());
    }

    #[test]
    fn coerce_wraps_and_folds() {
        assert_eq!(normalize(GeoPoint { lat: 10.0, lon: 190.0 }), GeoPoint { lat: 10.0, lon: -170.0 });
        assert_eq!(normalize(GeoPoint { lat: 100.0, lon: 0.0 }), GeoPoint { lat: 80.0, lon: 180.0 });
    }
}
