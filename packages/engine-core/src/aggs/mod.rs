//! Aggregations: parsing (`aggs`/`aggregations`), an exact collector over fast fields and
//! the ES response rendering. We collect ourselves rather than through tantivy's
//! aggregation module because ES semantics differ there: tantivy's terms counts are
//! approximate across segments and its date_histogram has no calendar intervals.

mod auto_date_histogram;
mod bucket_budget;
mod collect;
mod composite;
mod date_histogram;
mod extra;
mod filters;
mod fruit;
mod heuristic;
mod key_hasher;
mod matrix_stats;
mod nested;
mod quantiles;
mod random_sampler;
mod range_spec;
mod render;
mod render_extra;
mod significant;
mod source_text;
mod terms_order;
mod top_hits;
mod variable_width;

use range_spec::range_kind;

pub use bucket_budget::MAX_BUCKETS;
pub use collect::{AggCollector, AggFruit, BucketKey, FruitBucket};
pub use extra::{split_global, ExtraKind};
pub use filters::{filter_weights, lone_filter};
pub use render::render_aggs;
pub use terms_order::{OrderBy, OrderKey, TermsOrder};
pub use top_hits::HitsContext;

pub use crate::date::rounding::Interval;
use serde_json::{Map, Value};

use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricOp {
    Avg,
    Sum,
    Min,
    Max,
    ValueCount,
    Stats,
    ExtendedStats,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AggKind {
    Metric {
        op: MetricOp,
    },
    Terms {
        size: usize,
        min_doc_count: u64,
        order: TermsOrder,
    },
    DateHistogram {
        interval: Interval,
        min_doc_count: u64,
        /// Zone, offset, bounds and key format (`date_histogram.rs`).
        opts: Box<date_histogram::DateHistogramOpts>,
    },
    /// Buckets at an interval picked to stay within a target count (`auto_date_histogram.rs`).
    AutoDateHistogram(Box<auto_date_histogram::AutoDateSpec>),
    /// Exact distinct count (collected like terms; ES is exact too below 3000 values).
    Cardinality,
    Histogram {
        interval: f64,
        min_doc_count: u64,
    },
    Range {
        ranges: Vec<RangeSpec>,
        keys: RangeKeys,
    },
    /// One bucket: documents with no value in the field.
    Missing,
    /// One bucket per query (`filter` is the single-bucket form).
    Filters {
        buckets: Vec<(String, crate::query::ast::QueryAst)>,
        keyed: bool,
        single: bool,
        /// `other_bucket`: the key of the bucket for documents no filter matches.
        other: Option<String>,
    },
    /// A pipeline aggregation: collects nothing, computed on the rendered tree.
    Pipeline(Box<crate::pipeline::PipelineSpec>),
    /// The aggregations parsed and rendered in `extra` (quantiles, top_hits, composite, ...).
    Extra(Box<ExtraKind>),
    /// `nested` / `reverse_nested`: one bucket of the joined documents (`nested.rs`).
    Join(nested::Join),
}

/// How range bounds are shown: numbers (`range`) or dates (`date_range`, ISO or `format`).
#[derive(Debug, Clone, PartialEq)]
pub enum RangeKeys {
    Numeric,
    Date(Option<crate::date::pattern::JavaPattern>),
}

/// One `range` bucket: `[from, to)`, optional custom key.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeSpec {
    pub from: Option<f64>,
    pub to: Option<f64>,
    pub key: Option<String>,
}

impl RangeSpec {
    pub fn contains(&self, v: f64) -> bool {
        self.from.is_none_or(|f| v >= f) && self.to.is_none_or(|t| v < t)
    }
}

/// The field an aggregation reads, resolved against the mapping (`None` when unmapped).
#[derive(Debug, Clone, PartialEq)]
pub struct AggField {
    pub name: String,
    pub resolved: Option<(String, FieldType)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AggRequest {
    pub name: String,
    pub kind: AggKind,
    pub field: AggField,
    pub subs: Vec<AggRequest>,
}

fn agg_err(reason: String) -> EngineError {
    EngineError::Parsing(reason)
}

/// Parses the `aggs` object: `{name: {<type>: {...}, aggs?: {...}}}`.
pub fn parse_aggs(value: &Value, mapping: &Mapping) -> Result<Vec<AggRequest>> {
    let mut reqs = parse_level(value, mapping)?;
    nested::resolve(&mut reqs, mapping, None, false)?;
    Ok(reqs)
}

fn parse_level(value: &Value, mapping: &Mapping) -> Result<Vec<AggRequest>> {
    let obj = value.as_object().ok_or_else(|| agg_err("Expected [START_OBJECT] under [aggregations]".into()))?;
    obj.iter().map(|(name, def)| parse_one(name, def, mapping)).collect()
}

fn parse_one(name: &str, def: &Value, mapping: &Mapping) -> Result<AggRequest> {
    let def = def.as_object().ok_or_else(|| agg_err(format!("Expected [START_OBJECT] under [{name}]")))?;
    let mut kind_def: Option<(&str, &Map<String, Value>)> = None;
    let mut subs = Vec::new();
    for (key, value) in def {
        match key.as_str() {
            "aggs" | "aggregations" => subs = parse_level(value, mapping)?,
            "meta" => {}
            kind => {
                if let Some((first, _)) = kind_def {
                    return Err(agg_err(format!(
                        "Found two aggregation type definitions in [{name}]: [{first}] and [{kind}]"
                    )));
                }
                let body =
                    value.as_object().ok_or_else(|| agg_err(format!("Expected [START_OBJECT] under [{kind}]")))?;
                kind_def = Some((kind, body));
            }
        }
    }
    let (kind_name, body) = kind_def.ok_or_else(|| agg_err(format!("Missing definition for aggregation [{name}]")))?;
    if matches!(kind_name, "nested" | "reverse_nested") {
        let (kind, path) = nested::parse(name, kind_name, body)?;
        let field = AggField { name: path.unwrap_or_default(), resolved: None };
        return Ok(AggRequest { name: name.to_string(), kind, field, subs });
    }
    if matches!(kind_name, "filter" | "filters") {
        let kind = filters::parse_filters(kind_name, body)?;
        let field = AggField { name: String::new(), resolved: None };
        return Ok(AggRequest { name: name.to_string(), kind, field, subs });
    }
    if crate::pipeline::is_pipeline(kind_name) {
        if !subs.is_empty() {
            return Err(agg_err(format!("Aggregation [{name}] cannot define sub-aggregations")));
        }
        let kind = AggKind::Pipeline(Box::new(crate::pipeline::parse(name, kind_name, body)?));
        let field = AggField { name: String::new(), resolved: None };
        return Ok(AggRequest { name: name.to_string(), kind, field, subs });
    }
    if kind_name == "scripted_metric" {
        // Only the recognised "sum a field" shape: answered as a sum of that field.
        let field_name = crate::script::scripted_metric::summed_field(body)?;
        let resolved =
            mapping.get(&field_name).map(|fm| (mapping.schema.get_field_name(fm.field).to_string(), fm.field_type));
        let kind = AggKind::Metric { op: MetricOp::Sum };
        check_field_type(kind_name, &kind, &field_name, resolved.as_ref().map(|r| r.1))?;
        return Ok(AggRequest { name: name.to_string(), kind, field: AggField { name: field_name, resolved }, subs });
    }
    if matches!(kind_name, "date_histogram" | "auto_date_histogram") {
        let (kind, field_name) = if kind_name == "date_histogram" {
            date_histogram::parse(name, body, mapping)?
        } else {
            auto_date_histogram::parse(name, body)?
        };
        let resolved =
            mapping.get(&field_name).map(|fm| (mapping.schema.get_field_name(fm.field).to_string(), fm.field_type));
        check_field_type(kind_name, &kind, &field_name, resolved.as_ref().map(|r| r.1))?;
        return Ok(AggRequest { name: name.to_string(), kind, field: AggField { name: field_name, resolved }, subs });
    }
    if let Some(kind) = extra::parse(name, kind_name, body, mapping, !subs.is_empty())? {
        let field_name = extra::field_of(body);
        let resolved =
            mapping.get(&field_name).map(|fm| (mapping.schema.get_field_name(fm.field).to_string(), fm.field_type));
        check_field_type(kind_name, &kind, &field_name, resolved.as_ref().map(|r| r.1))?;
        return Ok(AggRequest { name: name.to_string(), kind, field: AggField { name: field_name, resolved }, subs });
    }
    let mut field = None;
    let mut size = 10usize;
    let mut min_doc_count = None;
    let mut order = TermsOrder::count_desc();
    let mut numeric_interval = None;
    let mut ranges: Option<Value> = None;
    let mut date_format = None;
    let allowed: &[&str] = match kind_name {
        "avg" | "sum" | "min" | "max" | "value_count" | "stats" | "extended_stats" | "cardinality" | "missing" => {
            &["field"]
        }
        "histogram" => &["field", "interval", "min_doc_count"],
        "range" => &["field", "ranges"],
        "date_range" => &["field", "ranges", "format"],
        "terms" => &["field", "size", "min_doc_count", "order", "shard_size"],
        other => return Err(agg_err(format!("Unknown aggregation type [{other}]"))),
    };
    for (key, value) in body {
        if !allowed.contains(&key.as_str()) {
            return Err(EngineError::XContentParse(format!("[{kind_name}] unknown field [{key}]")));
        }
        let bad = || EngineError::XContentParse(format!("[{kind_name}] failed to parse field [{key}]"));
        match key.as_str() {
            "field" => field = Some(value.as_str().ok_or_else(bad)?.to_string()),
            "size" => size = value.as_u64().ok_or_else(bad)? as usize,
            "shard_size" => {}
            "interval" => numeric_interval = Some(value.as_f64().filter(|i| *i > 0.0).ok_or_else(bad)?),
            "ranges" => ranges = Some(value.clone()),
            "format" => date_format = Some(value.as_str().ok_or_else(bad)?.to_string()),
            "min_doc_count" => min_doc_count = Some(value.as_u64().ok_or_else(bad)?),
            "order" => order = terms_order::parse(value, &subs, bad)?,
            _ => unreachable!("checked against the allowed list"),
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
    let kind = match kind_name {
        "avg" => AggKind::Metric { op: MetricOp::Avg },
        "sum" => AggKind::Metric { op: MetricOp::Sum },
        "min" => AggKind::Metric { op: MetricOp::Min },
        "max" => AggKind::Metric { op: MetricOp::Max },
        "value_count" => AggKind::Metric { op: MetricOp::ValueCount },
        "stats" => AggKind::Metric { op: MetricOp::Stats },
        "extended_stats" => AggKind::Metric { op: MetricOp::ExtendedStats },
        "cardinality" => AggKind::Cardinality,
        "missing" => AggKind::Missing,
        "histogram" => AggKind::Histogram {
            interval: numeric_interval.ok_or_else(|| {
                EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("[interval] must be >0 for histogram aggregation [{name}]"),
                )
            })?,
            min_doc_count: min_doc_count.unwrap_or(0),
        },
        "terms" => {
            if min_doc_count == Some(0) {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    "[terms] min_doc_count 0 is not supported",
                ));
            }
            AggKind::Terms { size, min_doc_count: min_doc_count.unwrap_or(1), order }
        }
        _ => {
            let spec = ranges.ok_or_else(|| {
                EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("No [ranges] specified for the [{name}] aggregation"),
                )
            })?;
            let (ranges, keys) = range_kind(kind_name, &spec, date_format.as_deref(), mapping.get(&field_name))?;
            AggKind::Range { ranges, keys }
        }
    };
    check_field_type(kind_name, &kind, &field_name, resolved.as_ref().map(|r| r.1))?;
    if matches!(kind, AggKind::Metric { .. } | AggKind::Cardinality) && !subs.is_empty() {
        return Err(agg_err(format!("Aggregator [{name}] of type [{kind_name}] cannot accept sub-aggregations")));
    }
    Ok(AggRequest { name: name.to_string(), kind, field: AggField { name: field_name, resolved }, subs })
}

fn check_field_type(kind_name: &str, kind: &AggKind, field: &str, ty: Option<FieldType>) -> Result<()> {
    let Some(ty) = ty else { return Ok(()) };
    if ty == FieldType::Text && !kind.reads_source() {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
            "Fielddata is disabled on [{field}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead."
        )));
    }
    let ok = match kind {
        AggKind::Metric { op: MetricOp::ValueCount }
        | AggKind::Terms { .. }
        | AggKind::Cardinality
        | AggKind::Missing
        | AggKind::Filters { .. }
        | AggKind::Join(_)
        | AggKind::Pipeline(_) => true,
        AggKind::Extra(x) => x.accepts(ty),
        AggKind::Metric { .. } => ty != FieldType::Keyword,
        AggKind::Range { keys: RangeKeys::Date(_), .. } => ty == FieldType::Date,
        AggKind::Histogram { .. } | AggKind::Range { .. } => ty.is_i64() || ty.is_f64(),
        AggKind::DateHistogram { .. } | AggKind::AutoDateHistogram(_) => {
            ty == FieldType::Date || ty.is_i64() || ty.is_f64()
        }
    };
    if !ok {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Field [{field}] of type [{}] is not supported for aggregation [{kind_name}]", ty.name()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::math::CalendarUnit;
    use serde_json::json;

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(&json!({"properties": {"k": {"type": "keyword"}, "t": {"type": "text"}, "n": {"type": "long"}, "d": {"type": "date"}}})).unwrap()
    }

    #[test]
    fn parses_nested_aggs_with_defaults() {
        let aggs = parse_aggs(
            &json!({"by_k": {"terms": {"field": "k"}, "aggs": {"per_month": {"date_histogram": {"field": "d", "calendar_interval": "month"}, "aggs": {"avg_n": {"avg": {"field": "n"}}}}}}}),
            &mapping(),
        )
        .unwrap();
        assert_eq!(aggs[0].kind, AggKind::Terms { size: 10, min_doc_count: 1, order: TermsOrder::count_desc() });
        assert!(matches!(
            aggs[0].subs[0].kind,
            AggKind::DateHistogram { interval: Interval::Calendar(CalendarUnit::Month), min_doc_count: 0, .. }
        ));
        assert_eq!(aggs[0].subs[0].subs[0].kind, AggKind::Metric { op: MetricOp::Avg });
    }

    #[test]
    fn fixed_intervals_and_orders() {
        let aggs = parse_aggs(&json!({"h": {"date_histogram": {"field": "d", "fixed_interval": "30m"}}, "t": {"terms": {"field": "k", "order": {"_key": "asc"}}}}), &mapping()).unwrap();
        let by_name = |n: &str| aggs.iter().find(|a| a.name == n).unwrap().kind.clone();
        assert!(matches!(
            by_name("h"),
            AggKind::DateHistogram { interval: Interval::FixedMs(1_800_000), min_doc_count: 0, .. }
        ));
        assert_eq!(by_name("t"), AggKind::Terms { size: 10, min_doc_count: 1, order: TermsOrder::key(true) });
    }

    #[test]
    fn rejects_unknown_types_fields_and_text() {
        let m = mapping();
        assert_eq!(
            parse_aggs(&json!({"x": {"cardinality_x": {"field": "k"}}}), &m).unwrap_err().to_string(),
            "Unknown aggregation type [cardinality_x]"
        );
        assert!(matches!(
            parse_aggs(&json!({"x": {"terms": {"field": "k", "bogus": 1}}}), &m),
            Err(EngineError::XContentParse(_))
        ));
        assert!(parse_aggs(&json!({"x": {"terms": {"field": "t"}}}), &m)
            .unwrap_err()
            .to_string()
            .contains("Fielddata is disabled"));
        assert!(parse_aggs(&json!({"x": {"avg": {"field": "k"}}}), &m).is_err());
        assert!(parse_aggs(&json!({"x": {"date_histogram": {"field": "d", "calendar_interval": "2d"}}}), &m).is_err());
    }
}
