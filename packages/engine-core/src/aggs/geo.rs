//! `geohash_grid` (documents by the geohash cell of their points) and `geo_distance` (documents in
//! rings of distance from an origin). Both collect through the shared keyed buckets
//! (`aggs/collect`): a cell's bits or a ring's index per point, a document counted once per bucket.

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::{AggFruit, BucketKey, FruitBucket};
use crate::aggs::options::GeoAgg;
use crate::aggs::render::{bucket_json, KeyValue};
use crate::aggs::request::{AggKind, AggRequest, RangeKeys, RangeSpec};
use crate::error::{EngineError, Result, ShardCause};
use crate::geo::distance::{unit_meters, DistanceType};
use crate::geo::encoding::decode;
use crate::geo::geohash::{cell, cell_text, MAX_PRECISION};
use crate::geo::parse::{parse_point, GeoPoint};
use crate::store::mapping::FieldType;

impl GeoAgg {
    /// The bucket keys of one point (a column value).
    pub fn push_keys(&self, packed: u64, keys: &mut Vec<u64>) {
        match self {
            GeoAgg::Grid { precision, bounds, .. } => {
                if let Some((top, bottom, left, right)) = bounds {
                    let (lat, lon) = decode(packed);
                    let lon_in =
                        if left <= right { lon >= *left && lon <= *right } else { lon >= *left || lon <= *right };
                    if !(lat >= *bottom && lat <= *top && lon_in) {
                        return;
                    }
                }
                keys.push(cell(packed, *precision));
            }
            GeoAgg::Distance { origin, unit_meters, distance_type, ranges, .. } => {
                let (lat, lon) = decode(packed);
                let meters = distance_type.meters(origin.lat, origin.lon, lat, lon);
                let d = if *unit_meters == 1.0 { meters } else { meters / unit_meters };
                keys.extend(ranges.iter().enumerate().filter(|(_, r)| r.contains(d)).map(|(i, _)| i as u64));
            }
        }
    }
}

/// Whether an aggregation may read a geo_point field (the others refuse it, as ES does).
pub fn reads_geo(kind: &AggKind) -> bool {
    matches!(
        kind,
        AggKind::Geo(_) | AggKind::Missing | AggKind::Metric { op: crate::aggs::request::MetricOp::ValueCount, .. }
    )
}

pub struct GeohashGrid;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GridOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "precision")]
    _precision: Option<IgnoredAny>,
    #[serde(rename = "size")]
    _size: Option<IgnoredAny>,
    #[serde(rename = "shard_size")]
    _shard_size: Option<IgnoredAny>,
    #[serde(rename = "bounds")]
    _bounds: Option<IgnoredAny>,
}

const DEFAULT_GRID_SIZE: usize = 10_000;

impl Aggregation for GeohashGrid {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<GridOptions>()?;
        let mut field = None;
        let mut precision = 5u8;
        let mut size = DEFAULT_GRID_SIZE;
        let mut bounds = None;
        for (key, value) in def.body {
            match key.as_str() {
                "field" => field = def.field_option()?,
                "precision" => precision = parse_precision(value).map_err(|_| def.bad_field(key))??,
                "size" | "shard_size" => {
                    let n = value.as_i64().ok_or_else(|| def.bad_field(key))?;
                    if n <= 0 {
                        return Err(EngineError::IllegalArgument(format!(
                            "[{key}] must be greater than 0. Found [{n}] in [{}]",
                            def.name
                        )));
                    }
                    if key == "size" {
                        size = n as usize;
                    }
                }
                "bounds" => bounds = Some(parse_bounds(def.kind_name, value)?),
                _ => {}
            }
        }
        let field = def.required_field(field)?;
        Ok((AggKind::Geo(Box::new(GeoAgg::Grid { precision, size, bounds })), FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty == FieldType::GeoPoint
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Geo(agg), AggFruit::Buckets(buckets)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        let GeoAgg::Grid { precision, size, .. } = **agg else { unreachable!("parsed as a grid") };
        let mut cells: Vec<(&u64, &FruitBucket)> = buckets
            .iter()
            .filter_map(|(k, b)| match k {
                BucketKey::Num(bits) => Some((bits, b)),
                BucketKey::Str(_) => None,
            })
            .collect();
        // Most documents first; ties by cell descending (ES's bucket queue compares the cells'
        // longs, which order as the geohash texts do, the other way round).
        cells.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(b.0.cmp(a.0)));
        let out: Vec<Value> = cells
            .into_iter()
            .take(size)
            .map(|(bits, b)| bucket_json(req, &KeyValue::Str(cell_text(*bits, precision)), Some(b), None))
            .collect();
        json!({ "buckets": out })
    }
}

/// A precision: 1-12, as a number, a numeric string or a distance (the level whose cells are
/// about that wide). Outer error: not a precision at all; inner: out of range.
fn parse_precision(value: &Value) -> std::result::Result<Result<u8>, ()> {
    let level = match value {
        Value::Number(n) => n.as_i64().ok_or(())?,
        Value::String(s) => match s.trim().parse::<i64>() {
            Ok(n) => n,
            Err(_) => {
                let meters = crate::geo::distance::parse_distance(value).map_err(|_| ())?;
                levels_for_distance(meters).min(MAX_PRECISION as i64)
            }
        },
        _ => return Err(()),
    };
    if !(1..=MAX_PRECISION as i64).contains(&level) {
        return Ok(Err(EngineError::IllegalArgument(format!(
            "Invalid geohash aggregation precision of {level}. Must be between 1 and {MAX_PRECISION}."
        ))));
    }
    Ok(Ok(level as u8))
}

/// ES's `GeoUtils.geoHashLevelsForPrecision`: the geohash length whose cells are no wider than `meters`.
fn levels_for_distance(meters: f64) -> i64 {
    const EARTH_EQUATOR: f64 = 2.0 * std::f64::consts::PI * 6_378_137.0;
    const EARTH_POLAR_DISTANCE: f64 = std::f64::consts::PI * 6_356_752.314245;
    if meters <= 0.0 {
        return 24;
    }
    let ratio = 1.0 + EARTH_POLAR_DISTANCE / EARTH_EQUATOR;
    let width = (meters * meters / (ratio * ratio)).sqrt();
    let part = (EARTH_EQUATOR / width).ceil();
    if part <= 1.0 {
        return 1;
    }
    let bits = part.log2().ceil() as i64;
    let full = bits / 5;
    let left = bits - full * 5;
    let even = full + i64::from(left > 0);
    let odd = full + i64::from(left > 3);
    even + odd
}

fn parse_bounds(kind: &str, value: &Value) -> Result<(f64, f64, f64, f64)> {
    let obj = value
        .as_object()
        .ok_or_else(|| EngineError::XContentParse(format!("[{kind}] failed to parse field [bounds]")))?;
    let corner = |key: &str| -> Result<GeoPoint> {
        let v = obj
            .get(key)
            .ok_or_else(|| EngineError::XContentParse(format!("[{kind}] failed to parse field [bounds]")))?;
        parse_point(v).map_err(|e| EngineError::XContentParse(format!("[{kind}] failed to parse field [bounds]: {e}")))
    };
    let (tl, br) = (corner("top_left")?, corner("bottom_right")?);
    Ok((tl.lat, br.lat, tl.lon, br.lon))
}

pub struct GeoDistanceAgg;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DistanceOptions {
    #[serde(rename = "field")]
    _field: Option<IgnoredAny>,
    #[serde(rename = "origin")]
    _origin: Option<IgnoredAny>,
    #[serde(rename = "unit")]
    _unit: Option<IgnoredAny>,
    #[serde(rename = "distance_type")]
    _distance_type: Option<IgnoredAny>,
    #[serde(rename = "ranges")]
    _ranges: Option<IgnoredAny>,
    #[serde(rename = "keyed")]
    _keyed: Option<IgnoredAny>,
}

impl Aggregation for GeoDistanceAgg {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<DistanceOptions>()?;
        let kind = def.kind_name;
        let bad = |what: String| EngineError::XContentParse(format!("[{kind}] {what}"));
        let mut field = None;
        let mut origin = None;
        let mut unit = 1.0;
        let mut distance_type = DistanceType::Arc;
        let mut ranges = None;
        let mut keyed = false;
        for (key, value) in def.body {
            match key.as_str() {
                "field" => field = def.field_option()?,
                "origin" => {
                    origin = Some(parse_point(value).map_err(|e| bad(format!("failed to parse field [origin]: {e}")))?)
                }
                "unit" => unit = unit_meters(value.as_str().ok_or_else(|| def.bad_field(key))?)?,
                "distance_type" => {
                    distance_type = DistanceType::parse(value.as_str().ok_or_else(|| def.bad_field(key))?)?
                }
                "ranges" => ranges = Some(parse_ranges(kind, value)?),
                "keyed" => keyed = value.as_bool().ok_or_else(|| def.bad_field(key))?,
                _ => {}
            }
        }
        let origin =
            origin.ok_or_else(|| bad(format!("Missing [origin] in geo_distance aggregator [{}]", def.name)))?;
        let field = def.required_field(field)?;
        let ranges = ranges.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("No [ranges] specified for the [{}] aggregation", def.name),
            )
        })?;
        let agg = GeoAgg::Distance { origin, unit_meters: unit, distance_type, ranges, keyed };
        Ok((AggKind::Geo(Box::new(agg)), FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty == FieldType::GeoPoint
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Geo(agg), AggFruit::Buckets(buckets)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        let GeoAgg::Distance { ranges, keyed, .. } = &**agg else { unreachable!("parsed as geo_distance") };
        let buckets: &HashMap<BucketKey, FruitBucket> = buckets;
        let mut out = crate::aggs::bucket::range::render_range(req, ranges, &RangeKeys::Numeric, *keyed, buckets);
        // ES shows a ring without `from` as starting at 0 (distances are never negative); its key keeps the `*`.
        let rendered: Vec<&mut Value> = match out.get_mut("buckets") {
            Some(Value::Array(items)) => items.iter_mut().collect(),
            Some(Value::Object(by_key)) => by_key.values_mut().collect(),
            _ => Vec::new(),
        };
        for bucket in rendered {
            if let Some(obj) = bucket.as_object_mut() {
                obj.entry("from").or_insert(json!(0.0));
            }
        }
        out
    }
}

/// `[from, to)` rings, in the request's order (ES's geo_distance keeps it, unlike `range`).
fn parse_ranges(kind: &str, value: &Value) -> Result<Vec<RangeSpec>> {
    let bad = |what: String| EngineError::XContentParse(format!("[{kind}] {what}"));
    let items = value.as_array().ok_or_else(|| bad("[ranges] must be an array".into()))?;
    let bound = |v: Option<&Value>| -> Result<Option<f64>> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                .map(Some)
                .ok_or_else(|| bad(format!("failed to parse range bound [{v}]"))),
        }
    };
    let ranges = items
        .iter()
        .map(|r| {
            let obj = r.as_object().ok_or_else(|| bad(format!("a range must be an object, found [{r}]")))?;
            if let Some(other) = obj.keys().find(|k| !matches!(k.as_str(), "from" | "to" | "key")) {
                return Err(bad(format!("unknown field [{other}]")));
            }
            let key = obj.get("key").map(|k| k.as_str().map(str::to_string).unwrap_or_else(|| k.to_string()));
            Ok(RangeSpec { from: bound(obj.get("from"))?, to: bound(obj.get("to"))?, key })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::encoding::pack;
    use serde_json::json;

    #[test]
    fn precision_forms_and_range() {
        assert_eq!(parse_precision(&json!(3)).unwrap().unwrap(), 3);
        assert_eq!(parse_precision(&json!("7")).unwrap().unwrap(), 7);
        assert!(parse_precision(&json!(13)).unwrap().is_err());
        assert!(parse_precision(&json!(0)).unwrap().is_err());
        assert!(parse_precision(&json!(true)).is_err());
        // A 1 km cell is about geohash level 6 (1.2 km x 0.6 km).
        let level = parse_precision(&json!("1km")).unwrap().unwrap();
        assert!((5..=7).contains(&level), "{level}");
    }

    #[test]
    fn rings_and_cells_per_point() {
        let rings = GeoAgg::Distance {
            origin: GeoPoint { lat: 48.8566, lon: 2.3522 },
            unit_meters: 1000.0,
            distance_type: DistanceType::Arc,
            ranges: vec![
                RangeSpec { from: None, to: Some(500.0), key: None },
                RangeSpec { from: Some(500.0), to: Some(1000.0), key: None },
            ],
            keyed: false,
        };
        let mut keys = Vec::new();
        rings.push_keys(pack(52.52, 13.405), &mut keys);
        assert_eq!(keys, vec![1]);
        let grid = GeoAgg::Grid { precision: 2, size: 10, bounds: None };
        keys.clear();
        grid.push_keys(pack(48.8566, 2.3522), &mut keys);
        assert_eq!(cell_text(keys[0], 2), "u0");
    }
}
