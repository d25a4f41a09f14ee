//! `geo_distance` and `geo_bounding_box`: the DSL parsed into a `GeoQuery`, lowered to a scan of
//! the field's column (`GeoFilterQuery`). Every match scores a constant, as ES's point queries do.
//! As in Lucene, a box compares encoded integers (lower edges encoded up, upper edges down) and a
//! distance is the haversine from the (unquantized) centre to the decoded point.

use serde_json::{Map, Value};
use tantivy::columnar::Column;
use tantivy::query::{BitSetDocSet, ConstScorer, EmptyQuery, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader};
use tantivy_common::BitSet;

use super::distance::{haversin_meters, parse_distance, DistanceType, EARTH_MEAN_RADIUS};
use super::encoding::{decode_lat, decode_lon, encode_lat, encode_lat_ceil, encode_lon, encode_lon_ceil, unpack};
use super::parse::{check_range, java, normalize, parse_point, GeoPoint};
use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::QueryAst;
use crate::query::lower::LowerContext;
use crate::store::mapping::FieldType;

#[derive(Debug, Clone, PartialEq)]
pub struct GeoQuery {
    pub field: String,
    pub shape: GeoShape,
    pub ignore_unmapped: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GeoShape {
    Distance { center: GeoPoint, meters: f64 },
    Box { top: f64, bottom: f64, left: f64, right: f64 },
}

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

/// The query over the field's column, or ES's error for a field that is not a geo point.
pub fn lower_geo(q: &GeoQuery, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(&q.field) else {
        if q.ignore_unmapped {
            return Ok(Box::new(EmptyQuery));
        }
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!("failed to find geo_point field [{}]", q.field),
        ));
    };
    if fm.field_type != FieldType::GeoPoint {
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!("field [{}] is not a geo_point field", q.field),
        ));
    }
    let test = match &q.shape {
        GeoShape::Distance { center, meters } => GeoTest::distance(*center, *meters),
        GeoShape::Box { top, bottom, left, right } => match GeoTest::bbox(*top, *bottom, *left, *right) {
            Some(t) => t,
            None => return Ok(Box::new(EmptyQuery)),
        },
    };
    let column = ctx.mapping.schema.get_field_name(fm.field).to_string();
    Ok(Box::new(GeoFilterQuery { column, test, score: ctx.scale }))
}

/// `term`/`terms`/`match` on a geo point: ES points to the geo queries.
pub(crate) fn refuse_exact(fm: &crate::store::mapping::FieldMapping) -> Result<()> {
    if fm.field_type != FieldType::GeoPoint {
        return Ok(());
    }
    Err(EngineError::shard(
        ShardCause::QueryShard,
        format!(
            "Geometry fields do not support exact searching, use dedicated geometry queries instead: [{}]",
            fm.name
        ),
    ))
}

pub(crate) fn refuse_range(fm: &crate::store::mapping::FieldMapping) -> Result<()> {
    if fm.field_type != FieldType::GeoPoint {
        return Ok(());
    }
    Err(EngineError::shard(
        ShardCause::IllegalArgument,
        format!("Field [{}] of type [geo_point] does not support range queries", fm.name),
    ))
}

/// Encoded latitude bounds and longitude bounds; `crosses`: the box spans the dateline (from
/// `lon_min` east to 180, and from -180 to `lon_max`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EncodedBox {
    lat_min: i32,
    lat_max: i32,
    lon_min: i32,
    lon_max: i32,
    crosses: bool,
}

impl EncodedBox {
    fn contains(&self, lat: i32, lon: i32) -> bool {
        if lat < self.lat_min || lat > self.lat_max {
            return false;
        }
        if self.crosses {
            lon >= self.lon_min || lon <= self.lon_max
        } else {
            lon >= self.lon_min && lon <= self.lon_max
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum GeoTest {
    Box(EncodedBox),
    /// The haversine from `center` within `meters`, after the (wider) `prefilter` box.
    Distance {
        center: GeoPoint,
        meters: f64,
        prefilter: EncodedBox,
    },
}

impl GeoTest {
    /// Lucene's `LatLonPoint.newBoxQuery`: none for a box that can hold no encodable point.
    fn bbox(top: f64, bottom: f64, mut left: f64, right: f64) -> Option<GeoTest> {
        if bottom == 90.0 {
            return None;
        }
        if left == 180.0 {
            if right == 180.0 {
                return None;
            } else if right < left {
                left = -180.0;
            }
        }
        Some(GeoTest::Box(EncodedBox {
            lat_min: encode_lat_ceil(bottom),
            lat_max: encode_lat(top),
            lon_min: encode_lon_ceil(left),
            lon_max: encode_lon(right),
            crosses: right < left,
        }))
    }

    fn distance(center: GeoPoint, meters: f64) -> GeoTest {
        // Degrees of latitude the radius spans, with a margin: the box only saves haversines.
        let dlat = (meters / EARTH_MEAN_RADIUS).to_degrees() * 1.001 + 1e-6;
        let (lat_lo, lat_hi) = (center.lat - dlat, center.lat + dlat);
        let everything =
            EncodedBox { lat_min: i32::MIN, lat_max: i32::MAX, lon_min: i32::MIN, lon_max: i32::MAX, crosses: false };
        let mut prefilter = everything;
        prefilter.lat_min = if lat_lo <= -90.0 { i32::MIN } else { encode_lat(lat_lo) };
        prefilter.lat_max = if lat_hi >= 90.0 { i32::MAX } else { encode_lat(lat_hi) };
        let widest_lat = lat_lo.abs().max(lat_hi.abs());
        if widest_lat < 89.0 {
            let dlon = dlat / widest_lat.to_radians().cos();
            if dlon < 179.0 {
                let wrap = |lon: f64| {
                    if lon > 180.0 {
                        lon - 360.0
                    } else if lon < -180.0 {
                        lon + 360.0
                    } else {
                        lon
                    }
                };
                let (west, east) = (wrap(center.lon - dlon), wrap(center.lon + dlon));
                prefilter.lon_min = encode_lon(west);
                prefilter.lon_max = encode_lon(east);
                prefilter.crosses = east < west;
            }
        }
        GeoTest::Distance { center, meters, prefilter }
    }

    pub fn matches(&self, packed: u64) -> bool {
        let (lat, lon) = unpack(packed);
        match self {
            GeoTest::Box(b) => b.contains(lat, lon),
            GeoTest::Distance { center, meters, prefilter } => {
                prefilter.contains(lat, lon)
                    && haversin_meters(center.lat, center.lon, decode_lat(lat), decode_lon(lon)) <= *meters
            }
        }
    }
}

/// Scans the segment's column once and keeps the documents with a matching point.
#[derive(Debug, Clone)]
pub struct GeoFilterQuery {
    column: String,
    test: GeoTest,
    score: Score,
}

impl Query for GeoFilterQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for GeoFilterQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let max_doc = reader.max_doc();
        let mut bits = BitSet::with_max_value(max_doc.max(1));
        if let Some(column) = reader.fast_fields().column_opt::<u64>(&self.column)? {
            collect_matches(&column, &self.test, max_doc, &mut bits);
        }
        Ok(Box::new(ConstScorer::new(BitSetDocSet::from(bits), self.score * boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            return Ok(Explanation::new("geo query", scorer.score()));
        }
        Err(tantivy::TantivyError::InvalidArgument(format!("document #({doc}) does not match")))
    }
}

fn collect_matches(column: &Column<u64>, test: &GeoTest, max_doc: DocId, bits: &mut BitSet) {
    // One point per document (every document has one): rows are doc ids.
    if matches!(column.index, tantivy::columnar::ColumnIndex::Full) {
        for doc in 0..max_doc {
            if test.matches(column.values.get_val(doc)) {
                bits.insert(doc);
            }
        }
        return;
    }
    for doc in 0..max_doc {
        if column.values_for_doc(doc).any(|v| test.matches(v)) {
            bits.insert(doc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::encoding::pack;
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

    #[test]
    fn box_tests_encoded_edges_and_the_dateline() {
        let GeoTest::Box(b) = GeoTest::bbox(10.0, -10.0, 170.0, -170.0).unwrap() else { panic!() };
        let inside = |lat: f64, lon: f64| b.contains(encode_lat(lat), encode_lon(lon));
        assert!(inside(0.0, 175.0) && inside(0.0, -175.0) && inside(0.0, 180.0));
        assert!(!inside(0.0, 0.0) && !inside(11.0, 175.0));
        assert!(GeoTest::bbox(90.0, 90.0, 0.0, 1.0).is_none());
        let test = GeoTest::bbox(1.0, 0.0, 0.0, 1.0).unwrap();
        assert!(test.matches(pack(0.0, 0.0)) && test.matches(pack(1.0, 1.0)));
        assert!(!test.matches(pack(-1e-9, 0.5)));
    }

    #[test]
    fn distance_matches_inside_the_circle_only() {
        let center = GeoPoint { lat: 48.8566, lon: 2.3522 };
        let test = GeoTest::distance(center, 900_000.0);
        assert!(test.matches(pack(52.52, 13.405)), "Berlin is about 878 km from Paris");
        assert!(!GeoTest::distance(center, 850_000.0).matches(pack(52.52, 13.405)));
        let near_dateline = GeoTest::distance(GeoPoint { lat: 0.0, lon: 179.9 }, 50_000.0);
        assert!(near_dateline.matches(pack(0.0, -179.9)));
        let pole = GeoTest::distance(GeoPoint { lat: 89.9, lon: 0.0 }, 100_000.0);
        assert!(pole.matches(pack(89.9, 180.0)));
    }
}
