//! Sort specs: the `sort` section (and the URL's `sort`) parsed against the mapping, with
//! ES's field sort options: `order`, `missing` (`_last`, `_first` or a value), `mode` (which
//! of a multi-valued field's values: `min`, `max`, and for numbers `sum`, `avg`, `median`),
//! `unmapped_type` (sort an unmapped field as if it were of that type, with no values),
//! `numeric_type` (sort and show numbers as another numeric type) and `format` (how date sort
//! values are shown). The collector that sorts is `top_hits.rs`; the keys it sorts by are
//! `sort_key.rs`.

use serde::Deserialize;
use serde_json::Value;

use crate::date::rounding::{KeyFormat, KeyStyle};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result, ShardCause};
pub use crate::hits::order::{Order, SortMode};
use crate::store::mapping::{FieldType, Mapping};

/// At most this many sort keys (hits carry their keys in a fixed-size array).
pub const MAX_SORT_KEYS: usize = 4;

#[derive(Debug, Clone, PartialEq)]
pub enum SortTarget {
    Score,
    Doc,
    /// `tantivy_name` is empty for an unmapped field sorted by `unmapped_type`: every
    /// document is then missing a value.
    Field {
        name: String,
        tantivy_name: String,
        field_type: FieldType,
    },
    /// `_geo_distance`: by the distance from points (`hits/geo_sort.rs`).
    GeoDistance(Box<crate::hits::geo_sort::GeoSortSpec>),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SortOpts {
    /// `missing: _first`: documents without a value sort before all others.
    pub missing_first: bool,
    /// `missing: <value>`: documents without a value sort (and show) as if they had it.
    pub missing_value: Option<f64>,
    pub mode: Option<SortMode>,
    /// `numeric_type`: the type values are sorted and shown as (`Long` or `Double`; a date is
    /// a long of milliseconds here).
    pub numeric_type: Option<FieldType>,
    /// `format` of a date sort: values are shown as dates in this format.
    pub format: Option<KeyFormat>,
}

impl SortOpts {
    /// Whether every option has ES's default (the fast page paths handle only that).
    pub fn is_default(&self) -> bool {
        *self == SortOpts::default()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SortSpec {
    pub target: SortTarget,
    pub order: Order,
    pub opts: SortOpts,
}

impl SortSpec {
    pub fn new(target: SortTarget, order: Order) -> SortSpec {
        SortSpec { target, order, opts: SortOpts::default() }
    }

    /// The type the values sort and show as: `numeric_type`, else the field's.
    pub fn value_type(&self) -> Option<FieldType> {
        match &self.target {
            SortTarget::Field { field_type, .. } => Some(self.opts.numeric_type.unwrap_or(*field_type)),
            _ => None,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FieldOptions {
    order: Option<String>,
    missing: Option<Value>,
    mode: Option<String>,
    unmapped_type: Option<String>,
    numeric_type: Option<String>,
    format: Option<String>,
}

/// Parses ES `sort`: a string, an object or an array of either.
pub fn parse_sort(value: &Value, mapping: &Mapping) -> Result<Vec<SortSpec>> {
    let items: Vec<&Value> = match value {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    if items.len() > MAX_SORT_KEYS {
        return Err(EngineError::Parsing(format!("[sort] at most {MAX_SORT_KEYS} sort keys are supported")));
    }
    items.into_iter().map(|item| parse_one(item, mapping)).collect()
}

fn parse_one(item: &Value, mapping: &Mapping) -> Result<SortSpec> {
    if let Some(geo) = item.as_object().filter(|o| o.len() == 1).and_then(|o| o.get("_geo_distance")) {
        let (spec, order, mode) = crate::hits::geo_sort::parse_geo_sort(geo, mapping)?;
        let opts = SortOpts { mode, ..SortOpts::default() };
        return Ok(SortSpec { target: SortTarget::GeoDistance(Box::new(spec)), order, opts });
    }
    let (name, opts) = match item {
        Value::String(s) => (s.as_str(), FieldOptions::default()),
        Value::Object(o) if o.len() == 1 => {
            let (name, opts) = o.iter().next().unwrap();
            let opts = match opts {
                Value::String(s) => FieldOptions { order: Some(s.clone()), ..FieldOptions::default() },
                Value::Object(_) => serde_json::from_value::<FieldOptions>(opts.clone())
                    .map_err(|e| EngineError::XContentParse(format!("[field_sort] {e}")))?,
                _ => return Err(EngineError::Parsing(format!("[sort] malformed sort for [{name}]"))),
            };
            (name.as_str(), opts)
        }
        _ => return Err(EngineError::Parsing("[sort] malformed sort: expected a field name or an object".into())),
    };
    let order = match opts.order.as_deref() {
        None => None,
        Some("asc") => Some(Order::Asc),
        Some("desc") => Some(Order::Desc),
        Some(other) => return Err(EngineError::IllegalArgument(format!("Unknown SortOrder [{other}]"))),
    };
    let target = match name {
        "_score" | "_doc" | "_shard_doc" => {
            if opts.missing.is_some()
                || opts.mode.is_some()
                || opts.unmapped_type.is_some()
                || opts.numeric_type.is_some()
            {
                return Err(EngineError::Parsing(format!("[{name}] sort only supports [order]")));
            }
            if name == "_score" {
                SortTarget::Score
            } else {
                SortTarget::Doc
            }
        }
        field => field_target(field, opts.unmapped_type.as_deref(), mapping)?,
    };
    let default = if target == SortTarget::Score { Order::Desc } else { Order::Asc };
    let mut spec = SortSpec::new(target, order.unwrap_or(default));
    if let SortTarget::Field { field_type, .. } = &spec.target {
        spec.opts = field_opts(name, *field_type, &opts)?;
    }
    Ok(spec)
}

fn field_target(field: &str, unmapped_type: Option<&str>, mapping: &Mapping) -> Result<SortTarget> {
    let Some(fm) = mapping.get(field) else {
        let Some(ty) = unmapped_type else {
            return Err(EngineError::shard(
                ShardCause::QueryShard,
                format!("No mapping found for [{field}] in order to sort on"),
            ));
        };
        let field_type = unmapped_type_of(ty).ok_or_else(|| {
            EngineError::shard(ShardCause::IllegalArgument, format!("No mapper found for type [{ty}]"))
        })?;
        return Ok(SortTarget::Field { name: field.to_string(), tantivy_name: String::new(), field_type });
    };
    if fm.field_type == FieldType::GeoPoint {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            "can't sort on geo_point field without using specific sorting feature, like geo_distance",
        ));
    }
    if matches!(fm.field_type, FieldType::Binary | FieldType::Range(_)) {
        return Err(EngineError::shard(ShardCause::IllegalArgument, "can't sort on binary field"));
    }
    // Text with fielddata sorts by its analyzed terms, which its column holds as a keyword's does.
    let field_type =
        if fm.field_type == FieldType::Text && fm.params.fielddata { FieldType::Keyword } else { fm.field_type };
    if field_type == FieldType::Text {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [{field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.")));
    }
    Ok(SortTarget::Field {
        name: field.to_string(),
        tantivy_name: mapping.schema.get_field_name(fm.field).to_string(),
        field_type,
    })
}

/// How an `unmapped_type` sorts: the family of values it would hold.
fn unmapped_type_of(name: &str) -> Option<FieldType> {
    Some(match name {
        "keyword" | "text" | "ip" | "version" | "wildcard" | "constant_keyword" => FieldType::Keyword,
        "long" | "unsigned_long" => FieldType::Long,
        "integer" | "short" | "byte" => FieldType::Integer,
        "double" | "scaled_float" => FieldType::Double,
        "float" | "half_float" => FieldType::Float,
        "date" | "date_nanos" => FieldType::Date,
        "boolean" => FieldType::Boolean,
        _ => return None,
    })
}

fn field_opts(name: &str, field_type: FieldType, opts: &FieldOptions) -> Result<SortOpts> {
    let numeric = field_type.is_i64() || field_type.is_f64();
    let mode = match opts.mode.as_deref() {
        None => None,
        Some("min") => Some(SortMode::Min),
        Some("max") => Some(SortMode::Max),
        Some(m @ ("sum" | "avg" | "median")) if !numeric => {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("we only support AVG, MEDIAN and SUM on number based fields ([{m}] on [{name}])"),
            ))
        }
        Some("sum") => Some(SortMode::Sum),
        Some("avg") => Some(SortMode::Avg),
        Some("median") => Some(SortMode::Median),
        Some(other) => return Err(EngineError::IllegalArgument(format!("Unknown MultiValueMode [{other}]"))),
    };
    let numeric_type = match opts.numeric_type.as_deref() {
        None => None,
        Some(_) if !numeric => {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("[numeric_type] option cannot be set on a non-numeric field, got [{}]", field_type.name()),
            ))
        }
        Some("long") => Some(FieldType::Long),
        Some("double") => Some(FieldType::Double),
        Some("date") => Some(FieldType::Date),
        Some(other) => {
            return Err(EngineError::IllegalArgument(format!(
                "invalid value for [numeric_type], must be [long, double, date, date_nanos], got {other}"
            )))
        }
    };
    let mut out = SortOpts { mode, numeric_type, ..SortOpts::default() };
    match &opts.missing {
        None => {}
        Some(Value::String(s)) if s == "_last" => {}
        Some(Value::String(s)) if s == "_first" => out.missing_first = true,
        Some(v) if numeric => {
            let parsed = match v {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            };
            out.missing_value = Some(parsed.ok_or_else(|| {
                EngineError::shard(ShardCause::Parse, format!("failed to parse missing value [{v}] for [{name}]"))
            })?);
        }
        Some(v) => {
            // A string standing in for missing values would have to sort among each segment's
            // own term ordinals; refused rather than sorted wrongly.
            return Err(EngineError::Parsing(format!(
                "[sort] a missing value [{v}] for the [{}] field [{name}] is not supported (only _first and _last)",
                field_type.name()
            )));
        }
    }
    if let Some(format) = &opts.format {
        if field_type != FieldType::Date {
            return Err(EngineError::Parsing(format!("[sort] [format] applies to date fields only, not [{name}]")));
        }
        let style = KeyStyle::from_format(format)
            .map_err(|e| EngineError::shard(ShardCause::IllegalArgument, format!("Invalid format: [{format}]: {e}")))?;
        out.format = Some(KeyFormat { zone: DateZone::Utc, style });
    }
    Ok(out)
}
