//! `_geo_distance` sort: each hit by its distance (in `unit`) from one or more points, the
//! nearest of its points ascending (or by `mode`); documents without a point sort as +Infinity,
//! as in ES.

use serde_json::Value;
use tantivy::columnar::Column;

use crate::error::{EngineError, Result, ShardCause};
use crate::geo::distance::{unit_meters, DistanceType};
use crate::geo::encoding::decode;
use crate::geo::parse::{check_range, is_coordinate_array, normalize, parse_point, GeoPoint};
use crate::hits::order::{Order, SortMode};
use crate::store::mapping::{FieldType, Mapping};

#[derive(Debug, Clone, PartialEq)]
pub struct GeoSortSpec {
    pub field: String,
    /// Empty for an unmapped field with `ignore_unmapped`: every document is missing.
    pub tantivy_name: String,
    pub points: Vec<GeoPoint>,
    pub unit_meters: f64,
    pub distance_type: DistanceType,
}

const OPTIONS: &[&str] =
    &["order", "unit", "mode", "distance_type", "validation_method", "ignore_unmapped", "nested", "_name"];

fn parsing(what: impl std::fmt::Display) -> EngineError {
    EngineError::Parsing(format!("[_geo_distance] {what}"))
}

/// Parses `{"_geo_distance": {...}}`'s body: the distance spec, its order and its `mode`.
pub fn parse_geo_sort(body: &Value, mapping: &Mapping) -> Result<(GeoSortSpec, Order, Option<SortMode>)> {
    let obj = body.as_object().ok_or_else(|| parsing("sort must be an object"))?;
    let mut field = None;
    for (key, value) in obj {
        if OPTIONS.contains(&key.as_str()) {
            continue;
        }
        if let Some((first, _)) = field {
            return Err(parsing(format!("sort supports only one field, found [{first}] and [{key}]")));
        }
        field = Some((key, value));
    }
    let (name, value) = field.ok_or_else(|| parsing("sort needs a field and its point(s)"))?;
    if obj.contains_key("nested") {
        return Err(parsing("[nested] is not supported"));
    }
    let text = |key: &str| -> Result<Option<&str>> {
        obj.get(key).map(|v| v.as_str().ok_or_else(|| parsing(format!("[{key}] must be a string")))).transpose()
    };
    let order = match text("order")? {
        None | Some("asc") => Order::Asc,
        Some("desc") => Order::Desc,
        Some(other) => return Err(EngineError::IllegalArgument(format!("Unknown SortOrder [{other}]"))),
    };
    let unit_meters = unit_meters(text("unit")?.unwrap_or("m"))?;
    let distance_type = DistanceType::parse(text("distance_type")?.unwrap_or("arc"))?;
    let mode = match text("mode")? {
        None => None,
        Some("min") => Some(SortMode::Min),
        Some("max") => Some(SortMode::Max),
        Some("avg") => Some(SortMode::Avg),
        Some("median") => Some(SortMode::Median),
        Some("sum") => {
            return Err(EngineError::IllegalArgument(
                "sort_mode [sum] isn't supported for sorting by geo distance".into(),
            ))
        }
        Some(other) => return Err(EngineError::IllegalArgument(format!("Unknown MultiValueMode [{other}]"))),
    };
    let validation = text("validation_method")?.unwrap_or("STRICT").to_ascii_uppercase();
    let ignore_unmapped = obj.get("ignore_unmapped").and_then(Value::as_bool).unwrap_or(false);
    let raw = match value {
        Value::Array(items) if !is_coordinate_array(items) => items.iter().collect(),
        one => vec![one],
    };
    let points = raw
        .into_iter()
        .map(|v| {
            let p = parse_point(v).map_err(parsing)?;
            match validation.as_str() {
                "COERCE" => Ok(normalize(p)),
                "IGNORE_MALFORMED" => Ok(p),
                _ => check_range(&p, "")
                    .map(|_| p)
                    .map_err(|e| EngineError::IllegalArgument(e.trim_end_matches(" for ").to_string())),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let tantivy_name = match mapping.get(name) {
        Some(fm) if fm.field_type == FieldType::GeoPoint => mapping.schema.get_field_name(fm.field).to_string(),
        Some(fm) => {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("unable to apply geo distance sort to field [{name}] of type [{}]", fm.field_type.name()),
            ))
        }
        None if ignore_unmapped => String::new(),
        None => {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("failed to find mapper for [{name}] for geo distance based sort"),
            ))
        }
    };
    let spec = GeoSortSpec { field: name.clone(), tantivy_name, points, unit_meters, distance_type };
    Ok((spec, order, mode))
}

/// A segment's distances for one geo sort.
pub struct SegGeoSort {
    column: Option<Column<u64>>,
    spec: GeoSortSpec,
}

impl SegGeoSort {
    pub fn open(spec: &GeoSortSpec, reader: &tantivy::SegmentReader) -> tantivy::Result<SegGeoSort> {
        let column = match spec.tantivy_name.as_str() {
            "" => None,
            name => reader.fast_fields().column_opt::<u64>(name)?,
        };
        Ok(SegGeoSort { column, spec: spec.clone() })
    }

    /// The document's distance in the sort's unit: the nearest of its points (from the nearest
    /// sort point) for `min`, as `mode` says otherwise; +Infinity without a point.
    #[inline]
    pub fn distance(&self, doc: tantivy::DocId, order: Order, mode: Option<SortMode>) -> f64 {
        let Some(column) = &self.column else { return f64::INFINITY };
        let mode = mode.unwrap_or(if order == Order::Asc { SortMode::Min } else { SortMode::Max });
        let mut all: Vec<f64> = Vec::new();
        for packed in column.values_for_doc(doc) {
            let (lat, lon) = decode(packed);
            // Several sort points: each document value's distance is to the sort points' nearest (ES's
            // `GeoDistance` values are per point of the request, reduced by the mode).
            for p in &self.spec.points {
                let meters = self.spec.distance_type.meters(p.lat, p.lon, lat, lon);
                all.push(if self.spec.unit_meters == 1.0 { meters } else { meters / self.spec.unit_meters });
            }
        }
        reduce(&mut all, mode)
    }
}

fn reduce(all: &mut [f64], mode: SortMode) -> f64 {
    let n = all.len();
    if n == 0 {
        return f64::INFINITY;
    }
    match mode {
        SortMode::Min => all.iter().copied().fold(f64::INFINITY, f64::min),
        SortMode::Max => all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        SortMode::Sum => all.iter().sum(),
        SortMode::Avg => all.iter().sum::<f64>() / n as f64,
        SortMode::Median => {
            all.sort_unstable_by(f64::total_cmp);
            if n.is_multiple_of(2) {
                (all[n / 2 - 1] + all[n / 2]) / 2.0
            } else {
                all[n / 2]
            }
        }
    }
}

/// A hit's sort value as ES shows it: the distance, or "Infinity" for a document without a point.
pub fn sort_value_json(distance: f64) -> Value {
    if distance.is_infinite() {
        Value::String(if distance > 0.0 { "Infinity" } else { "-Infinity" }.into())
    } else {
        serde_json::json!(distance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(&json!({"properties": {"pin": {"type": "geo_point"}, "k": {"type": "keyword"}}}))
            .unwrap()
    }

    #[test]
    fn parses_points_units_and_modes() {
        let m = mapping();
        let (g, order, _) = parse_geo_sort(&json!({"pin": [-70, 40], "unit": "km", "order": "desc"}), &m).unwrap();
        assert_eq!(g.points, vec![GeoPoint { lat: 40.0, lon: -70.0 }]);
        assert_eq!((g.unit_meters, order), (1000.0, Order::Desc));
        let (g, _, mode) =
            parse_geo_sort(&json!({"pin": ["40,-70", {"lat": 1, "lon": 2}], "mode": "max"}), &m).unwrap();
        assert_eq!(g.points.len(), 2);
        assert_eq!(mode, Some(SortMode::Max));
        assert!(parse_geo_sort(&json!({"pin": [0, 0], "mode": "sum"}), &m).is_err());
        assert!(parse_geo_sort(&json!({"k": [0, 0]}), &m).is_err());
        assert!(parse_geo_sort(&json!({"nope": [0, 0]}), &m).is_err());
        assert!(parse_geo_sort(&json!({"nope": [0, 0], "ignore_unmapped": true}), &m).is_ok());
    }

    #[test]
    fn reduces_by_mode() {
        assert_eq!(reduce(&mut [3.0, 1.0, 2.0], SortMode::Min), 1.0);
        assert_eq!(reduce(&mut [3.0, 1.0, 2.0], SortMode::Median), 2.0);
        assert_eq!(reduce(&mut [], SortMode::Min), f64::INFINITY);
        assert_eq!(sort_value_json(f64::INFINITY), json!("Infinity"));
    }
}
