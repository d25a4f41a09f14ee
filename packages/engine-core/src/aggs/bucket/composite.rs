//! `composite`: buckets keyed by a tuple of source values (terms, histogram, date_histogram),
//! paged in key order with `size` and `after`: the request's parsing and the rendering of a
//! page. Per segment (`composite_segment.rs`) a doc counts once in every combination of its
//! sources' values (the cartesian product, as ES does for multi-valued fields); at harvest each
//! tuple becomes its JSON array text (keyword ordinals resolved to
//! strings), so equal tuples from different segments merge as equal strings; rendering
//! parses them back, sorts them in the sources' orders and cuts the page.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket::date_histogram::parse_offset;
use crate::aggs::bucket_budget;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::{BucketKey, FruitBucket};
use crate::aggs::options::{CompositeSource, CompositeSpec, SourceFormat, SourceKind};
use crate::aggs::render::single_bucket;
use crate::aggs::request::AggKind;
use crate::aggs::request::{AggRequest, Interval};
use crate::date::bound::parse_date_bound_in_zone;
use crate::date::math::CalendarUnit;
use crate::date::parse_format_list;
use crate::date::rounding::{KeyFormat, KeyStyle, Rounding};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

fn bad(what: String) -> EngineError {
    EngineError::XContentParse(format!("[composite] {what}"))
}

fn parse_source(name: &str, kind: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<CompositeSource> {
    let mut field = None;
    let mut desc = false;
    let mut missing_bucket = false;
    let mut interval = None;
    let mut date_interval = None;
    let mut zone = DateZone::Utc;
    let mut offset_ms = 0;
    let mut format = None;
    let mut precision = 7;
    for (key, value) in body {
        let failed = || bad(format!("failed to parse field [{key}] of source [{name}]"));
        match (kind, key.as_str()) {
            (_, "field") => field = Some(value.as_str().ok_or_else(failed)?.to_string()),
            (_, "order") => {
                desc = match value.as_str() {
                    Some("asc") => false,
                    Some("desc") => true,
                    _ => return Err(failed()),
                }
            }
            (_, "missing_bucket") => missing_bucket = value.as_bool().ok_or_else(failed)?,
            ("histogram", "interval") => interval = Some(value.as_f64().filter(|i| *i > 0.0).ok_or_else(failed)?),
            ("date_histogram", "calendar_interval") => {
                let s = value.as_str().ok_or_else(failed)?;
                let unit = CalendarUnit::from_calendar_interval(s).ok_or_else(|| {
                    EngineError::shard(
                        ShardCause::IllegalArgument,
                        format!("The supplied interval [{s}] could not be parsed as a calendar interval."),
                    )
                })?;
                date_interval = Some(Interval::Calendar(unit));
            }
            ("date_histogram", "fixed_interval") => {
                let ms = crate::store::settings::parse_time_value_ms("fixed_interval", value)
                    .ok()
                    .flatten()
                    .filter(|ms| *ms > 0)
                    .ok_or_else(failed)?;
                date_interval = Some(Interval::FixedMs(ms as i64));
            }
            ("date_histogram", "time_zone") => {
                let text = value.as_str().ok_or_else(failed)?;
                zone = DateZone::parse(text)
                    .ok_or_else(|| EngineError::IllegalArgument(format!("Unknown time-zone ID: {text}")))?;
            }
            ("date_histogram", "offset") => offset_ms = parse_offset(value).ok_or_else(failed)?,
            ("date_histogram", "format") => format = Some(value.as_str().ok_or_else(failed)?),
            ("geotile_grid", "precision") => {
                precision = value.as_u64().ok_or_else(failed)? as u32;
                if precision > crate::geo::tile::MAX_PRECISION {
                    return Err(EngineError::IllegalArgument(format!(
                        "Invalid geotile_grid precision of {precision}. Must be between 0 and 29."
                    )));
                }
            }
            _ => return Err(bad(format!("unknown field [{key}] in source [{name}] of type [{kind}]"))),
        }
    }
    let field_name = field.ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        )
    })?;
    let resolved =
        mapping.get(&field_name).map(|fm| (mapping.schema.get_field_name(fm.field).to_string(), fm.field_type));
    let tiles = kind == "geotile_grid";
    if let (true, Some((_, ty))) = (tiles, &resolved) {
        if *ty != FieldType::GeoPoint {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("Field [{field_name}] of type [{}] is not supported for aggregation [geotile_grid]", ty.name()),
            ));
        }
    }
    if let (false, Some((_, FieldType::GeoPoint))) = (tiles, &resolved) {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Field [{field_name}] of type [geo_point] is not supported for aggregation [composite]"),
        ));
    }
    if let Some((_, FieldType::Text)) = resolved {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("Fielddata is disabled on [{field_name}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead.")));
    }
    let kind = match kind {
        "terms" => SourceKind::Terms,
        "geotile_grid" => SourceKind::GeoTile(precision),
        "histogram" => SourceKind::Histogram(interval.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("[interval] must be >0 for histogram source [{name}]"),
            )
        })?),
        _ => {
            let interval = date_interval.ok_or_else(|| {
                EngineError::shard(
                    ShardCause::IllegalArgument,
                    "Invalid interval specified, must be non-null and non-empty",
                )
            })?;
            SourceKind::DateHistogram(Rounding { interval, zone, offset_ms })
        }
    };
    let format = match format {
        Some(text) => {
            let invalid =
                |e: String| EngineError::shard(ShardCause::IllegalArgument, format!("Invalid format: [{text}]: {e}"));
            let style = KeyStyle::from_format(text).map_err(invalid)?;
            Some(SourceFormat { key: KeyFormat { zone, style }, parse: parse_format_list(text).map_err(invalid)? })
        }
        None => None,
    };
    let numeric = |t: FieldType| t.is_i64() || t.is_f64() || t == FieldType::Date;
    if let (SourceKind::Histogram(_) | SourceKind::DateHistogram(_), Some((_, ty))) = (&kind, &resolved) {
        if !numeric(*ty) {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("Field [{field_name}] of type [{}] is not supported for aggregation [{name}]", ty.name()),
            ));
        }
    }
    Ok(CompositeSource { name: name.to_string(), kind, field: resolved, desc, missing_bucket, format })
}

pub struct Composite;

impl Aggregation for Composite {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let spec = CompositeSpec::parse(def.name, def.body, def.mapping)?;
        Ok((AggKind::Composite(Box::new(spec)), FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::Composite(spec), AggFruit::Buckets(b)) => render_composite(req, spec, b),
            _ => Value::Null,
        }
    }
}

impl CompositeSpec {
    fn parse(name: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<Self> {
        let mut spec = CompositeSpec { size: 10, sources: Vec::new(), after: None };
        let mut after = None;
        for (key, value) in body {
            match key.as_str() {
                "size" => {
                    spec.size = value.as_u64().ok_or_else(|| bad("failed to parse field [size]".into()))? as usize
                }
                "after" => after = Some(value.as_object().ok_or_else(|| bad("[after] must be an object".into()))?),
                "sources" => {
                    let list = value.as_array().ok_or_else(|| bad("[sources] must be an array".into()))?;
                    for item in list {
                        let obj = item
                            .as_object()
                            .filter(|o| o.len() == 1)
                            .ok_or_else(|| bad("a source must be an object with one name".into()))?;
                        let (source_name, def) = obj.iter().next().expect("one entry");
                        let def = def
                            .as_object()
                            .filter(|o| o.len() == 1)
                            .ok_or_else(|| bad(format!("source [{source_name}] must have one type")))?;
                        let (kind, body) = def.iter().next().expect("one entry");
                        if !matches!(kind.as_str(), "terms" | "histogram" | "date_histogram" | "geotile_grid") {
                            return Err(bad(format!("unsupported source type [{kind}]")));
                        }
                        let body =
                            body.as_object().ok_or_else(|| bad(format!("source [{source_name}] must be an object")))?;
                        if spec.sources.iter().any(|s| &s.name == source_name) {
                            return Err(EngineError::shard(
                                ShardCause::IllegalArgument,
                                format!("Composite source names must be unique, found duplicates: [{source_name}]"),
                            ));
                        }
                        spec.sources.push(parse_source(source_name, kind, body, mapping)?);
                    }
                }
                _ => return Err(bad(format!("unknown field [{key}]"))),
            }
        }
        let max = crate::aggs::bucket_budget::limit();
        if spec.size as u64 > max {
            return Err(EngineError::TooManyBuckets {
                reason: format!(
                    "Trying to create too many buckets. Must be less than or equal to: [{max}] but was [{}]. This limit can be set by changing the [search.max_buckets] cluster level setting.",
                    spec.size
                ),
                max,
            });
        }
        if !body.contains_key("sources") {
            return Err(EngineError::XContentParse("Required [sources]".into()));
        }
        if spec.sources.is_empty() {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("Composite [sources] cannot be null or empty: [{name}]"),
            ));
        }
        if let Some(after) = after {
            if after.len() != spec.sources.len() {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("[after] has {} value and [sources] has {}", after.len(), spec.sources.len()),
                ));
            }
            let values = spec
                .sources
                .iter()
                .map(|s| {
                    let value = after.get(&s.name).ok_or_else(|| {
                        EngineError::shard(
                            ShardCause::IllegalArgument,
                            format!(
                                "Cannot set after key in the composite aggregation [{name}] - missing [{}] value",
                                s.name
                            ),
                        )
                    })?;
                    after_value(s, value)
                })
                .collect::<Result<Vec<_>>>()?;
            spec.after = Some(values);
        }
        Ok(spec)
    }
}

/// An `after` value as the source's keys are held: a formatted date read back (in the source's
/// zone) to epoch millis.
fn after_value(source: &CompositeSource, value: &Value) -> Result<Value> {
    // An address, held as the byte-ordered key its column holds.
    if let (Some((_, FieldType::Ip)), Value::String(text)) = (&source.field, value) {
        let ip = crate::ip::parse_ip(text)
            .ok_or_else(|| EngineError::IllegalArgument(format!("'{text}' is not an IP string literal.")))?;
        return Ok(Value::String(crate::ip::to_key(ip)));
    }
    if let (SourceKind::GeoTile(_), Value::String(text)) = (&source.kind, value) {
        let key = crate::geo::tile::parse_tile(text).ok_or_else(|| {
            EngineError::IllegalArgument(format!(
                "Invalid geotile_grid hash string of {text}. Must be three integers in a form \"zoom/x/y\"."
            ))
        })?;
        return Ok(Value::from(key));
    }
    let (Some(format), SourceKind::DateHistogram(rounding), Value::String(_)) = (&source.format, &source.kind, value)
    else {
        return Ok(value.clone());
    };
    let ms = parse_date_bound_in_zone(value, &format.parse, 0, false, &rounding.zone)
        .map_err(|e| EngineError::shard(ShardCause::Parse, format!("failed to parse date field [{value}]: [{e}]")))?;
    Ok(Value::from(ms))
}

/// A key value as shown: a date source with a `format` prints its key with it, a tile as
/// `z/x/y`, an address as ES prints it.
fn shown(source: &CompositeSource, value: &Value) -> Value {
    if let (Some((_, FieldType::Ip)), Value::String(key)) = (&source.field, value) {
        return Value::String(crate::ip::display_key(key));
    }
    match (&source.format, &source.kind, value.as_u64()) {
        (_, SourceKind::GeoTile(_), Some(key)) => Value::String(crate::geo::tile::tile_text(key)),
        (Some(format), _, _) => value.as_i64().map_or_else(|| value.clone(), |ms| Value::String(format.key.format(ms))),
        _ => value.clone(),
    }
}

/// One source's values in its order; a missing value sorts first ascending, last descending.
fn cmp_values(a: &Value, b: &Value, desc: bool) -> Ordering {
    let natural = match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.as_f64().unwrap_or(0.0).total_cmp(&b.as_f64().unwrap_or(0.0)),
    };
    if desc {
        natural.reverse()
    } else {
        natural
    }
}

fn cmp_keys(spec: &CompositeSpec, a: &[Value], b: &[Value]) -> Ordering {
    spec.sources
        .iter()
        .enumerate()
        .map(|(i, s)| cmp_values(&a[i], &b[i], s.desc))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

fn render_composite(req: &AggRequest, spec: &CompositeSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    let mut keyed: Vec<(Vec<Value>, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Str(text) => serde_json::from_str::<Vec<Value>>(text).ok().map(|v| (v, b)),
            BucketKey::Num(_) => None,
        })
        .filter(|(k, _)| spec.after.as_ref().is_none_or(|after| cmp_keys(spec, k, after) == Ordering::Greater))
        .collect();
    keyed.sort_by(|a, b| cmp_keys(spec, &a.0, &b.0));
    keyed.truncate(spec.size);
    let key_object = |values: &[Value]| -> Value {
        Value::Object(spec.sources.iter().zip(values).map(|(s, v)| (s.name.clone(), shown(s, v))).collect())
    };
    let mut out = Map::new();
    if let Some((last, _)) = keyed.last() {
        out.insert("after_key".into(), key_object(last));
    }
    let rendered: Vec<Value> = keyed
        .iter()
        .map(|(k, b)| {
            bucket_budget::consume();
            let mut obj = Map::new();
            obj.insert("key".into(), key_object(k));
            if let Value::Object(rest) = single_bucket(req, Some(b)) {
                obj.extend(rest);
            }
            Value::Object(obj)
        })
        .collect();
    out.insert("buckets".into(), Value::Array(rendered));
    Value::Object(out)
}
