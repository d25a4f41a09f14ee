//! A geo query run as a scan of the field's column (`GeoFilterQuery`), every match scoring a
//! constant as ES's point queries do. As in Lucene, a box compares encoded integers (lower edges
//! encoded up, upper edges down) and a distance is the haversine from the (unquantized) centre to
//! the decoded point, after a cheap box test on the encoded integers.

use tantivy::columnar::Column;
use tantivy::query::{BitSetDocSet, ConstScorer, EmptyQuery, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader};
use tantivy_common::BitSet;

use crate::error::{EngineError, Result, ShardCause};
use crate::geo::distance::{haversin_meters, EARTH_MEAN_RADIUS};
use crate::geo::encoding::{decode_lat, decode_lon, encode_lat, encode_lat_ceil, encode_lon, encode_lon_ceil, unpack};
use crate::geo::parse::GeoPoint;
use crate::query::geo_ast::{GeoQuery, GeoShape};
use crate::query::lower::LowerContext;
use crate::store::mapping::FieldType;

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
    use super::*;
    use crate::geo::encoding::pack;

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
