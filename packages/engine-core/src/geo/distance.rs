//! Distances as ES computes them: `arc` is Lucene's `SloppyMath.haversinMeters` (Earth's mean
//! radius), `plane` ES's `GeoUtils.planeDistance`; and ES's distance units (`10km`, `50mi`).

use crate::error::{EngineError, Result};

/// Lucene's `SloppyMath` radius (and ES's `GeoUtils.EARTH_MEAN_RADIUS`), in metres.
pub const EARTH_MEAN_RADIUS: f64 = 6_371_008.771_4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DistanceType {
    #[default]
    Arc,
    Plane,
}

impl DistanceType {
    pub fn parse(text: &str) -> Result<DistanceType> {
        match text.to_ascii_lowercase().as_str() {
            "arc" => Ok(DistanceType::Arc),
            "plane" => Ok(DistanceType::Plane),
            _ => Err(EngineError::IllegalArgument(format!("No geo distance for [{text}]"))),
        }
    }

    pub fn meters(self, lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
        match self {
            DistanceType::Arc => haversin_meters(lat1, lon1, lat2, lon2),
            DistanceType::Plane => plane_meters(lat1, lon1, lat2, lon2),
        }
    }
}

/// Haversine distance; the sort key's low bits are cleared as Lucene does, so near-ties agree.
pub fn haversin_meters(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (x1, x2) = (lat1.to_radians(), lat2.to_radians());
    let h1 = 1.0 - (x1 - x2).cos();
    let h2 = 1.0 - (lon1 - lon2).to_radians().cos();
    let h = h1 + x1.cos() * x2.cos() * h2;
    let h = f64::from_bits(h.to_bits() & 0xFFFF_FFFF_FFFF_FFF8);
    EARTH_MEAN_RADIUS * 2.0 * (h * 0.5).sqrt().min(1.0).asin()
}

pub fn plane_meters(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let x = (lon2 - lon1).to_radians() * ((lat2 + lat1) / 2.0).to_radians().cos();
    let y = (lat2 - lat1).to_radians();
    (x * x + y * y).sqrt() * EARTH_MEAN_RADIUS
}

/// ES's `DistanceUnit`s in its declaration order (parsing tries suffixes in this order), with
/// their length in metres.
const UNITS: &[(&[&str], f64)] = &[
    (&["in", "inch"], 0.0254),
    (&["yd", "yards"], 0.9144),
    (&["ft", "feet"], 0.3048),
    (&["km", "kilometers"], 1000.0),
    (&["NM", "nmi", "nauticalmiles"], 1852.0),
    (&["mm", "millimeters"], 0.001),
    (&["cm", "centimeters"], 0.01),
    (&["mi", "miles"], 1609.344),
    (&["m", "meters"], 1.0),
];

/// A unit's name (`unit` options): its length in metres.
pub fn unit_meters(name: &str) -> Result<f64> {
    UNITS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map(|(_, m)| *m)
        .ok_or_else(|| EngineError::IllegalArgument(format!("No distance unit match [{name}]")))
}

/// A distance (`10km`, `"500"`, or a number of metres) in metres.
pub fn parse_distance(value: &serde_json::Value) -> Result<f64> {
    match value {
        serde_json::Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(text) => parse_distance_text(text),
        other => Err(EngineError::Parsing(format!("[geo_distance] failed to parse distance [{other}]"))),
    }
}

fn parse_distance_text(text: &str) -> Result<f64> {
    let bad = || EngineError::IllegalArgument(format!("failed to parse distance [{text}]"));
    for (names, meters) in UNITS {
        if let Some(number) = names.iter().find_map(|n| text.strip_suffix(n)) {
            return number.trim().parse::<f64>().map(|v| v * meters).map_err(|_| bad());
        }
    }
    text.trim().parse::<f64>().map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn haversine_uses_the_mean_radius() {
        // A degree of longitude on the equator: 2 * pi * R / 360.
        let d = haversin_meters(0.0, 0.0, 0.0, 1.0);
        assert!((d - 111_195.080_2).abs() < 1e-3, "{d}");
        assert_eq!(haversin_meters(10.0, 20.0, 10.0, 20.0), 0.0);
        // Paris - Berlin, about 878 km.
        let d = haversin_meters(48.8566, 2.3522, 52.52, 13.405);
        assert!((d / 1000.0 - 877.5).abs() < 1.0, "{d}");
        let p = plane_meters(0.0, 0.0, 0.0, 1.0);
        assert!((p - 111_195.080_2).abs() < 1e-3, "{p}");
    }

    #[test]
    fn parses_units_like_elasticsearch() {
        assert_eq!(parse_distance(&json!("10km")).unwrap(), 10_000.0);
        assert_eq!(parse_distance(&json!("50mi")).unwrap(), 50.0 * 1609.344);
        assert_eq!(parse_distance(&json!("500m")).unwrap(), 500.0);
        assert_eq!(parse_distance(&json!("12mm")).unwrap(), 0.012);
        assert_eq!(parse_distance(&json!("2nmi")).unwrap(), 3704.0);
        assert_eq!(parse_distance(&json!("250")).unwrap(), 250.0);
        assert_eq!(parse_distance(&json!(75)).unwrap(), 75.0);
        assert!(parse_distance(&json!("far")).is_err());
        assert_eq!(unit_meters("km").unwrap(), 1000.0);
        assert!(unit_meters("parsec").is_err());
    }
}
