//! The AST node of a geo query (`geo_distance`, `geo_bounding_box`): a field and the circle or
//! box its points must fall in. Parsed by `dsl::geo`, lowered by `lower::geo`.

use crate::geo::parse::GeoPoint;

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
