//! Context mappings of a `completion` field (`category` and `geo`), the contexts a document's
//! suggestion carries and the contexts a query asks for, as ES's `ContextMappings` define them.
//! An indexed context is `<mapping index as a letter><value>`: a category's text, or a geo
//! point's geohash at the mapping's precision.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::geo::encoding::pack;
use crate::geo::geohash::{cell, cell_text, MAX_PRECISION};
use crate::geo::parse::parse_point;

#[derive(Debug, Clone, PartialEq)]
pub enum ContextKind {
    Category,
    /// The geohash length suggestions are indexed at.
    Geo {
        precision: u8,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ContextMapping {
    pub name: String,
    pub kind: ContextKind,
    /// A field of the document the context values are read from.
    pub path: Option<String>,
}

fn mapper(reason: String) -> EngineError {
    EngineError::MapperParsing(format!("Failed to parse mapping: {reason}"))
}

/// ES's `GeoUtils.geoHashLevelsForPrecision`: the geohash length whose cells are no larger than
/// `meters` across their diagonal.
pub fn geohash_levels_for_meters(meters: f64) -> u8 {
    const EARTH_EQUATOR: f64 = 2.0 * std::f64::consts::PI * 6_378_137.0;
    const EARTH_POLAR_DISTANCE: f64 = std::f64::consts::PI * 6_356_752.314_245;
    if meters <= 0.0 {
        return MAX_PRECISION;
    }
    let ratio = 1.0 + EARTH_POLAR_DISTANCE / EARTH_EQUATOR;
    let width = (meters * meters / (ratio * ratio)).sqrt();
    let part = (EARTH_EQUATOR / width).ceil();
    if part <= 1.0 {
        return 1;
    }
    let bits = part.log2().ceil() as u32;
    let (full, left) = (bits / 5, bits % 5);
    let even = full + u32::from(left > 0);
    let odd = full + u32::from(left > 3);
    (even + odd).min(u32::from(MAX_PRECISION)) as u8
}

/// A precision: a geohash length (a number or numeric string) or a distance (`5km`).
pub fn parse_precision(value: &Value) -> std::result::Result<u8, String> {
    let text = match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => return Err(format!("precision must be a number or a distance, got [{other}]")),
    };
    if let Ok(n) = text.parse::<i64>() {
        return if (1..=12).contains(&n) {
            Ok(n as u8)
        } else {
            Err(format!("Invalid geohash aggregation precision of {n}. Must be between 1 and 12."))
        };
    }
    let meters = crate::geo::distance::parse_distance(&Value::String(text)).map_err(|e| e.to_string())?;
    let levels = geohash_levels_for_meters(meters);
    Ok(levels)
}

pub fn parse_mappings(field: &str, value: &Value) -> Result<Vec<ContextMapping>> {
    let items = match value {
        Value::Array(items) => items.clone(),
        Value::Object(_) => vec![value.clone()],
        _ => return Err(mapper(format!("[contexts] of completion field [{field}] must be an array"))),
    };
    let mut out = Vec::new();
    for item in &items {
        let def = item.as_object().ok_or_else(|| mapper("context mapping must be an object".into()))?;
        let name = def
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| mapper("field [name] is missing in context mapping".into()))?
            .to_string();
        let kind = match def.get("type").and_then(Value::as_str) {
            Some("category") => ContextKind::Category,
            Some("geo") => {
                let precision = match def.get("precision") {
                    None => MAX_PRECISION,
                    Some(p) => parse_precision(p).map_err(mapper)?,
                };
                ContextKind::Geo { precision }
            }
            Some(other) => return Err(mapper(format!("unknown context type[{other}]"))),
            None => return Err(mapper("field [type] is missing in context mapping".into())),
        };
        for key in def.keys() {
            let known = matches!(key.as_str(), "name" | "type" | "path")
                || (key == "precision" && matches!(kind, ContextKind::Geo { .. }));
            if !known {
                return Err(mapper(format!("unknown field [{key}] in context mapping [{name}]")));
            }
        }
        let path = def.get("path").and_then(Value::as_str).map(str::to_string);
        if out.iter().any(|m: &ContextMapping| m.name == name) {
            return Err(mapper(format!("[{name}] context mapping is defined more than once")));
        }
        out.push(ContextMapping { name, kind, path });
    }
    Ok(out)
}

pub fn geohash(lat: f64, lon: f64, precision: u8) -> String {
    cell_text(cell(pack(lat, lon), precision), precision)
}

/// The eight cells around a geohash (fewer at the poles), as ES's `Geohash.addNeighbors`.
pub fn neighbours(hash: &str) -> Vec<String> {
    let precision = hash.len() as u32;
    let mut bits = 0u64;
    for c in hash.bytes() {
        let Some(v) = b"0123456789bcdefghjkmnpqrstuvwxyz".iter().position(|&b| b == c) else { return Vec::new() };
        bits = (bits << 5) | v as u64;
    }
    let total = 5 * precision;
    let (lon_bits, lat_bits) = (total.div_ceil(2), total / 2);
    let (mut lon, mut lat) = (0u64, 0u64);
    for i in 0..total {
        let bit = (bits >> (total - 1 - i)) & 1;
        if i % 2 == 0 {
            lon = (lon << 1) | bit;
        } else {
            lat = (lat << 1) | bit;
        }
    }
    let mut out = Vec::new();
    for dlat in [-1i64, 0, 1] {
        for dlon in [-1i64, 0, 1] {
            if dlat == 0 && dlon == 0 {
                continue;
            }
            let y = lat as i64 + dlat;
            if y < 0 || y >= 1 << lat_bits {
                continue;
            }
            let x = (lon as i64 + dlon).rem_euclid(1 << lon_bits) as u64;
            let (mut xi, mut yi, mut cell_bits) = (lon_bits, lat_bits, 0u64);
            for i in 0..total {
                let bit = if i % 2 == 0 {
                    xi -= 1;
                    (x >> xi) & 1
                } else {
                    yi -= 1;
                    (y as u64 >> yi) & 1
                };
                cell_bits = (cell_bits << 1) | bit;
            }
            out.push(cell_text(cell_bits, precision as u8));
        }
    }
    out
}

fn point_of(value: &Value) -> Result<(f64, f64)> {
    let p = parse_point(value).map_err(EngineError::IllegalArgument)?;
    Ok((p.lat, p.lon))
}

/// Every point in a context value: one point, or an array of points.
fn points(value: &Value) -> Result<Vec<(f64, f64)>> {
    match value {
        Value::Array(items) if !crate::geo::parse::is_coordinate_array(items) => items.iter().map(point_of).collect(),
        other => Ok(vec![point_of(other)?]),
    }
}

/// One document input's indexed contexts: those it names and those read from `path` fields.
/// `document_values` gives the values of a field of the document.
pub fn index_contexts(
    mappings: &[ContextMapping],
    given: Option<&Map<String, Value>>,
    document_values: &dyn Fn(&str) -> Vec<Value>,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, mapping) in mappings.iter().enumerate() {
        let tag = (b'a' + i as u8) as char;
        let mut values: Vec<Value> = Vec::new();
        if let Some(v) = given.and_then(|g| g.get(&mapping.name)) {
            values.push(v.clone());
        }
        if let Some(path) = &mapping.path {
            values.extend(document_values(path));
        }
        for value in values {
            match &mapping.kind {
                ContextKind::Category => {
                    let texts: Vec<String> = match &value {
                        Value::Array(items) => items.iter().map(category_text).collect::<Result<_>>()?,
                        other => vec![category_text(other)?],
                    };
                    out.extend(texts.into_iter().map(|t| format!("{tag}{t}")));
                }
                ContextKind::Geo { precision } => {
                    for (lat, lon) in points(&value)? {
                        out.push(format!("{tag}{}", geohash(lat, lon, *precision)));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn category_text(value: &Value) -> Result<String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(EngineError::IllegalArgument(format!(
            "context array must have string, number or boolean values, but was [{other}]"
        ))),
    }
}

/// One context a query accepts: the indexed context (or its prefix) and its boost.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryContext {
    pub mapping: usize,
    pub value: String,
    pub prefix: bool,
    pub boost: f32,
}

fn query_err(reason: String) -> EngineError {
    EngineError::Parsing(reason)
}

/// The query's `contexts` (`{name: value | [values] | {context, boost, prefix|precision, neighbours}}`).
pub fn query_contexts(mappings: &[ContextMapping], given: Option<&Value>) -> Result<Vec<QueryContext>> {
    let Some(given) = given else { return Ok(Vec::new()) };
    let obj = given.as_object().ok_or_else(|| query_err("[contexts] must be an object".into()))?;
    let mut out = Vec::new();
    for (name, value) in obj {
        let (i, mapping) = mappings.iter().enumerate().find(|(_, m)| &m.name == name).ok_or_else(|| {
            let names: Vec<&str> = mappings.iter().map(|m| m.name.as_str()).collect();
            EngineError::IllegalArgument(format!(
                "Unknown context name [{name}], must be one of [{}]",
                names.join(", ")
            ))
        })?;
        let items = match value {
            Value::Array(items)
                if !(matches!(mapping.kind, ContextKind::Geo { .. })
                    && crate::geo::parse::is_coordinate_array(items)) =>
            {
                items.clone()
            }
            other => vec![other.clone()],
        };
        for item in items {
            match &mapping.kind {
                ContextKind::Category => out.push(category_query(i, &item)?),
                ContextKind::Geo { precision } => out.extend(geo_query(i, *precision, &item)?),
            }
        }
    }
    Ok(out)
}

fn category_query(mapping: usize, item: &Value) -> Result<QueryContext> {
    match item {
        Value::Object(o) => {
            let value = o.get("context").ok_or_else(|| query_err("category context must have a [context]".into()))?;
            let boost = o.get("boost").and_then(Value::as_f64).unwrap_or(1.0) as f32;
            let prefix = o.get("prefix").is_some_and(|p| p == true || p == "true");
            Ok(QueryContext { mapping, value: category_text(value)?, prefix, boost })
        }
        other => Ok(QueryContext { mapping, value: category_text(other)?, prefix: false, boost: 1.0 }),
    }
}

/// A geo query context: the point's cell at the smaller of the two precisions, and around it
/// the neighbouring cells (or the cells of the `neighbours` precisions), as ES expands them.
fn geo_query(mapping: usize, mapping_precision: u8, item: &Value) -> Result<Vec<QueryContext>> {
    let (point, boost, precision, neighbour_levels) = match item {
        Value::Object(o) if o.contains_key("context") => {
            let precision = match o.get("precision") {
                None => MAX_PRECISION,
                Some(p) => parse_precision(p).map_err(EngineError::IllegalArgument)?,
            };
            let levels = match o.get("neighbours") {
                None => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|v| parse_precision(v).map_err(EngineError::IllegalArgument))
                    .collect::<Result<_>>()?,
                Some(v) => vec![parse_precision(v).map_err(EngineError::IllegalArgument)?],
            };
            let boost = o.get("boost").and_then(Value::as_f64).unwrap_or(1.0) as f32;
            (point_of(&o["context"])?, boost, precision, levels)
        }
        other => (point_of(other)?, 1.0, MAX_PRECISION, Vec::new()),
    };
    let min = precision.min(mapping_precision);
    let hash = geohash(point.0, point.1, min);
    let mut cells = vec![hash.clone()];
    if neighbour_levels.is_empty() && hash.len() == mapping_precision as usize {
        cells.extend(neighbours(&hash));
    } else {
        for level in neighbour_levels.into_iter().filter(|&l| (l as usize) < hash.len()) {
            let truncated = hash[..level as usize].to_string();
            cells.extend(neighbours(&truncated));
            cells.push(truncated);
        }
    }
    cells.sort();
    cells.dedup();
    Ok(cells
        .into_iter()
        .map(|c| QueryContext { mapping, prefix: c.len() < mapping_precision as usize, value: c, boost })
        .collect())
}

/// The rendered form of an indexed context: `(mapping name, value)`.
pub fn describe<'a>(mappings: &'a [ContextMapping], indexed: &'a str) -> Option<(&'a str, &'a str)> {
    let tag = indexed.as_bytes().first()?;
    let mapping = mappings.get(tag.checked_sub(b'a')? as usize)?;
    Some((mapping.name.as_str(), &indexed[1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn precision_from_distance_as_es() {
        assert_eq!(geohash_levels_for_meters(5000.0), 6);
        assert_eq!(parse_precision(&json!("5km")).unwrap(), 6);
        assert_eq!(parse_precision(&json!(3)).unwrap(), 3);
    }

    #[test]
    fn neighbours_surround_a_cell() {
        // One cell's width or height away (15 bits of each at 6 characters) is a neighbour.
        let (lat, lon) = (52.2212, 4.5312);
        let hash = geohash(lat, lon, 6);
        let n = neighbours(&hash);
        assert_eq!(n.len(), 8);
        assert!(!n.contains(&hash));
        let (w, h) = (360.0 / 32768.0, 180.0 / 32768.0);
        for (dlat, dlon) in [(h, 0.0), (-h, 0.0), (0.0, w), (0.0, -w), (h, w), (-h, -w)] {
            assert!(n.contains(&geohash(lat + dlat, lon + dlon, 6)), "{dlat} {dlon}");
        }
    }

    #[test]
    fn geo_query_reaches_nearby_points() {
        let mappings = vec![ContextMapping { name: "l".into(), kind: ContextKind::Geo { precision: 6 }, path: None }];
        let q = query_contexts(&mappings, Some(&json!({"l": {"lat": 52.2263, "lon": 4.543}}))).unwrap();
        let doc =
            index_contexts(&mappings, json!({"l": {"lat": 52.22, "lon": 4.53}}).as_object(), &|_| vec![]).unwrap();
        assert!(q.iter().any(|c| doc[0][1..] == c.value));
        let far =
            index_contexts(&mappings, json!({"l": {"lat": 53.31, "lon": 13.24}}).as_object(), &|_| vec![]).unwrap();
        assert!(!q.iter().any(|c| far[0][1..] == c.value));
    }
}
