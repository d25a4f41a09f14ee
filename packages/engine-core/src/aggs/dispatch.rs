//! The one place that knows every aggregation type: the parse of `aggs`/`aggregations`,
//! one match arm per type name, and each request kind's implementation of the trait
//! (`AggKind::aggregation`, through which rendering reaches every type). Adding an
//! aggregation is a file under `bucket/` or `metric/`, its options in `options.rs` and
//! `request::AggKind`, and an arm in each match here.

use serde_json::{Map, Value};

use super::aggregation::{AggDef, Aggregation, FieldRef};
use super::bucket::adjacency_matrix::AdjacencyMatrix;
use super::bucket::auto_date_histogram::AutoDateHistogram;
use super::bucket::composite::Composite;
use super::bucket::date_histogram::DateHistogram;
use super::bucket::filters::Filters;
use super::bucket::global::Global;
use super::bucket::histogram::Histogram;
use super::bucket::missing::Missing;
use super::bucket::nested::Nested;
use super::bucket::random_sampler::RandomSampler;
use super::bucket::range::Range;
use super::bucket::rare_terms::RareTerms;
use super::bucket::sampler::Sampler;
use super::bucket::significant::Significant;
use super::bucket::terms::Terms;
use super::bucket::variable_width::VariableWidthHistogram;
use super::intermediate::AggFruit;
use super::metric::cardinality::Cardinality;
use super::metric::matrix_stats::MatrixStats;
use super::metric::quantiles::{MedianAbsoluteDeviation, PercentileRanks, Percentiles};
use super::metric::scripted_metric::ScriptedMetric;
use super::metric::stats::Stats;
use super::metric::top_hits::TopHits;
use super::metric::weighted_avg::WeightedAvg;
use super::request::{AggField, AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};
use crate::store::value_format::{AggMissing, ValueFormat};

impl AggKind {
    /// The type's implementation of the aggregation trait.
    pub fn aggregation(&self) -> &'static dyn Aggregation {
        match self {
            AggKind::Metric { .. } => &Stats,
            AggKind::Terms { .. } => &Terms,
            AggKind::DateHistogram { .. } => &DateHistogram,
            AggKind::AutoDateHistogram(_) => &AutoDateHistogram,
            AggKind::Cardinality => &Cardinality,
            AggKind::Histogram { .. } => &Histogram,
            AggKind::Range { .. } => &Range,
            AggKind::Missing => &Missing,
            AggKind::Filters { .. } => &Filters,
            AggKind::Pipeline(_) => &Pipeline,
            AggKind::Join(_) => &Nested,
            AggKind::Percentiles { .. } => &Percentiles,
            AggKind::PercentileRanks { .. } => &PercentileRanks,
            AggKind::MedianAbsoluteDeviation { .. } => &MedianAbsoluteDeviation,
            AggKind::TopHits(_) => &TopHits,
            AggKind::Global => &Global,
            AggKind::RareTerms { .. } => &RareTerms,
            AggKind::Composite(_) => &Composite,
            AggKind::MatrixStats { .. } => &MatrixStats,
            AggKind::AdjacencyMatrix { .. } => &AdjacencyMatrix,
            AggKind::Significant(_) => &Significant,
            AggKind::VariableWidth(_) => &VariableWidthHistogram,
            AggKind::RandomSampler(_) => &RandomSampler,
            AggKind::Sampler { .. } => &Sampler,
            AggKind::WeightedAvg(_) => &WeightedAvg,
            AggKind::IpRange(_) => &crate::aggs::bucket::ip_range::IpRange,
            AggKind::Geo(g) if matches!(**g, crate::aggs::options::GeoAgg::Grid { .. }) => {
                &crate::aggs::geo::GeohashGrid
            }
            AggKind::Geo(_) => &crate::aggs::geo::GeoDistanceAgg,
        }
    }
}

/// Pipelines collect nothing: `crate::aggs::pipeline::apply` fills them in (or removes them) once
/// the tree is rendered.
struct Pipeline;

impl Aggregation for Pipeline {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        if def.has_subs() {
            return Err(EngineError::Parsing(format!("Aggregation [{}] cannot define sub-aggregations", def.name)));
        }
        let spec = crate::aggs::pipeline::parse(def.name, def.kind_name, def.body)?;
        Ok((AggKind::Pipeline(Box::new(spec)), FieldRef::Unresolved(String::new())))
    }

    fn render(&self, _req: &AggRequest, _fruit: &AggFruit) -> Value {
        Value::Null
    }
}

/// Parses the `aggs` object: `{name: {<type>: {...}, aggs?: {...}}}`.
pub fn parse_aggs(value: &Value, mapping: &Mapping) -> Result<Vec<AggRequest>> {
    let mut reqs = parse_level(value, mapping)?;
    super::bucket::nested::resolve(&mut reqs, mapping, None, false)?;
    check_composite_parents(&reqs)?;
    Ok(reqs)
}

/// ES's `_index` metadata field: every document of an index holds its name, so terms over it
/// count each document under the name (kept as the value of a field no document has).
pub fn index_name_values(reqs: &mut [AggRequest], index: &str) {
    for req in reqs {
        if req.field.name == "_index" && req.field.resolved.is_none() && req.kind.is_terms_like() {
            req.field.missing = Some(AggMissing::Str(index.to_string()));
            req.field.value_type = Some(FieldType::Keyword);
        }
        index_name_values(&mut req.subs, index);
    }
}

/// `composite` pages over the whole result: ES builds it only at the top level (or under a
/// `nested` join, which keeps one bucket per document).
fn check_composite_parents(reqs: &[AggRequest]) -> Result<()> {
    for parent in reqs {
        let joins = matches!(parent.kind, AggKind::Join(super::options::Join::Objects { .. }));
        if let Some(child) = parent.subs.iter().find(|s| matches!(s.kind, AggKind::Composite(_))) {
            if !joins {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!(
                        "[composite] aggregation cannot be used with a parent aggregation: [{}] is under [{}]",
                        child.name, parent.name
                    ),
                ));
            }
        }
        check_composite_parents(&parent.subs)?;
    }
    Ok(())
}

fn parse_level(value: &Value, mapping: &Mapping) -> Result<Vec<AggRequest>> {
    let obj =
        value.as_object().ok_or_else(|| EngineError::Parsing("Expected [START_OBJECT] under [aggregations]".into()))?;
    obj.iter().map(|(name, def)| parse_one(name, def, mapping)).collect()
}

fn parse_one(name: &str, def: &Value, mapping: &Mapping) -> Result<AggRequest> {
    // Bucket paths (`buckets_path`, `order`) address aggregations with `>` and `[..]`.
    if name.contains(['[', ']', '>']) {
        return Err(EngineError::Parsing(format!(
            "Invalid aggregation name [{name}]. Aggregation names can contain any character except '[', ']', and '>'"
        )));
    }
    let def = def.as_object().ok_or_else(|| EngineError::Parsing(format!("Expected [START_OBJECT] under [{name}]")))?;
    let mut kind_def: Option<(&str, &Map<String, Value>)> = None;
    let mut subs = Vec::new();
    let mut meta = None;
    for (key, value) in def {
        match key.as_str() {
            "aggs" | "aggregations" => subs = parse_level(value, mapping)?,
            "meta" => {
                if !value.is_object() {
                    return Err(EngineError::Parsing(format!(
                        "Expected [START_OBJECT] under [meta], but got a [{}] in [{name}]",
                        token_name(value)
                    )));
                }
                meta = Some(Box::new(value.clone()));
            }
            kind => {
                if let Some((first, _)) = kind_def {
                    return Err(EngineError::Parsing(format!(
                        "Found two aggregation type definitions in [{name}]: [{first}] and [{kind}]"
                    )));
                }
                let body = value
                    .as_object()
                    .ok_or_else(|| EngineError::Parsing(format!("Expected [START_OBJECT] under [{kind}]")))?;
                kind_def = Some((kind, body));
            }
        }
    }
    let (kind_name, body) =
        kind_def.ok_or_else(|| EngineError::Parsing(format!("Missing definition for aggregation [{name}]")))?;
    let def = AggDef { name, kind_name, body, mapping, subs: &subs };
    let (kind, field, parsed_by) = parse_kind(&def)?;
    let field = match field {
        FieldRef::Unresolved(name) => AggField::named(name),
        FieldRef::Field(field_name) => {
            // Text with fielddata aggregates its analyzed terms, from a column as a keyword's.
            let as_read = |fm: &crate::store::mapping::FieldMapping| match fm.field_type {
                FieldType::Text if fm.params.fielddata && !kind.reads_source() => FieldType::Keyword,
                other => other,
            };
            let resolved =
                mapping.get(&field_name).map(|fm| (mapping.schema.get_field_name(fm.field).to_string(), as_read(fm)));
            check_field_type(parsed_by, kind_name, &kind, &field_name, resolved.as_ref().map(|r| r.1))?;
            if parsed_by.refuses_subs() && !subs.is_empty() {
                return Err(EngineError::Parsing(format!(
                    "Aggregator [{name}] of type [{kind_name}] cannot accept sub-aggregations"
                )));
            }
            // The options ES's value-source aggregations share; a type that takes them lets
            // them through its own key check.
            let shared = matches!(kind, AggKind::Metric { .. } | AggKind::Terms { .. } | AggKind::Histogram { .. });
            let value_type = match body.get("value_type") {
                Some(v) if resolved.is_none() => Some(crate::store::value_format::parse_value_type(v)?),
                _ => None,
            };
            let ty = resolved.as_ref().map(|r| r.1).or(value_type);
            let takes_missing =
                shared || matches!(kind, AggKind::Cardinality | AggKind::Missing | AggKind::Range { .. });
            let missing = match body.get("missing") {
                Some(v) if takes_missing => Some(AggMissing::parse(v, ty, &field_name)?),
                _ => None,
            };
            let format = match body.get("format") {
                Some(Value::String(f)) if shared => Some(ValueFormat::parse(f, ty)?),
                Some(_) if shared => {
                    return Err(EngineError::XContentParse(format!("[{kind_name}] failed to parse field [format]")))
                }
                _ => None,
            };
            AggField { name: field_name, resolved, missing, format, value_type }
        }
    };
    Ok(AggRequest { name: name.to_string(), kind, field, subs, meta })
}

/// Jackson's name for the token a JSON value starts with.
fn token_name(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
        Value::Object(_) => "START_OBJECT",
    }
}

/// One arm per aggregation type name.
type Parsed = (AggKind, FieldRef, &'static dyn Aggregation);

/// Parses with the type `agg`, which then answers for the field type and sub-aggregations.
fn by<A: Aggregation + 'static>(def: &AggDef, agg: &'static A) -> Result<Parsed> {
    A::parse(def).map(|(kind, field)| (kind, field, agg as &'static dyn Aggregation))
}

fn parse_kind(def: &AggDef) -> Result<Parsed> {
    match def.kind_name {
        "avg" | "sum" | "min" | "max" | "value_count" | "stats" | "extended_stats" => by(def, &Stats),
        "scripted_metric" => by(def, &ScriptedMetric),
        "cardinality" => by(def, &Cardinality),
        "percentiles" => by(def, &Percentiles),
        "percentile_ranks" => by(def, &PercentileRanks),
        "median_absolute_deviation" => by(def, &MedianAbsoluteDeviation),
        "matrix_stats" => by(def, &MatrixStats),
        "weighted_avg" => by(def, &WeightedAvg),
        "top_hits" => by(def, &TopHits),
        "terms" => by(def, &Terms),
        "rare_terms" => by(def, &RareTerms),
        "significant_terms" | "significant_text" => by(def, &Significant),
        "histogram" => by(def, &Histogram),
        "variable_width_histogram" => by(def, &VariableWidthHistogram),
        "date_histogram" => by(def, &DateHistogram),
        "auto_date_histogram" => by(def, &AutoDateHistogram),
        "range" | "date_range" => by(def, &Range),
        "ip_range" => by(def, &crate::aggs::bucket::ip_range::IpRange),
        "missing" => by(def, &Missing),
        "filter" | "filters" => by(def, &Filters),
        "adjacency_matrix" => by(def, &AdjacencyMatrix),
        "global" => by(def, &Global),
        "nested" | "reverse_nested" => by(def, &Nested),
        "composite" => by(def, &Composite),
        "random_sampler" => by(def, &RandomSampler),
        "sampler" => by(def, &Sampler),
        "geohash_grid" => by(def, &crate::aggs::geo::GeohashGrid),
        "geo_distance" => by(def, &crate::aggs::geo::GeoDistanceAgg),
        other if crate::aggs::pipeline::is_pipeline(other) => by(def, &Pipeline),
        other => Err(EngineError::Parsing(format!("Unknown aggregation type [{other}]"))),
    }
}

fn check_field_type(
    agg: &dyn Aggregation,
    kind_name: &str,
    kind: &AggKind,
    field: &str,
    ty: Option<FieldType>,
) -> Result<()> {
    let Some(ty) = ty else { return Ok(()) };
    if ty == FieldType::Text && !kind.reads_source() {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
                "Fielddata is disabled on [{field}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead."
            ),
        ));
    }
    let unsupported = matches!(ty, FieldType::Binary | FieldType::Range(_))
        || (ty == FieldType::GeoPoint && !crate::aggs::geo::reads_geo(kind));
    if unsupported || !agg.accepts(kind, ty) {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Field [{field}] of type [{}] is not supported for aggregation [{kind_name}]", ty.name()),
        ));
    }
    Ok(())
}

/// `global` ignores the query, so it runs in a pass of its own over every document:
/// returns (top-level indexes of the `global` aggregations, the others' indexes). ES allows
/// `global` at the top level only, and `random_sampler` without a parent (`sampler` too here).
pub fn split_global(reqs: &[AggRequest]) -> Result<(Vec<usize>, Vec<usize>)> {
    super::bucket::random_sampler::check_top_level(reqs)?;
    super::bucket::sampler::check_top_level(reqs)?;
    fn nested(reqs: &[AggRequest]) -> Option<&str> {
        reqs.iter().find_map(|r| if r.kind == AggKind::Global { Some(r.name.as_str()) } else { nested(&r.subs) })
    }
    if let Some(name) = reqs.iter().find_map(|r| nested(&r.subs)) {
        return Err(EngineError::Parsing(format!(
            "Aggregator [{name}] of type [global] cannot be added as a sub-aggregation"
        )));
    }
    let (global, rest): (Vec<usize>, Vec<usize>) = (0..reqs.len()).partition(|i| reqs[*i].kind == AggKind::Global);
    Ok((global, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggs::options::TermsOrder;
    use crate::aggs::request::{Interval, MetricOp};
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
        assert_eq!(
            aggs[0].kind,
            AggKind::Terms { size: 10, min_doc_count: 1, order: TermsOrder::count_desc(), filter: None }
        );
        assert!(matches!(
            aggs[0].subs[0].kind,
            AggKind::DateHistogram { interval: Interval::Calendar(CalendarUnit::Month), min_doc_count: 0, .. }
        ));
        assert_eq!(aggs[0].subs[0].subs[0].kind, AggKind::Metric { op: MetricOp::Avg, sigma: 2.0 });
    }

    #[test]
    fn fixed_intervals_and_orders() {
        let aggs = parse_aggs(&json!({"h": {"date_histogram": {"field": "d", "fixed_interval": "30m"}}, "t": {"terms": {"field": "k", "order": {"_key": "asc"}}}}), &mapping()).unwrap();
        let by_name = |n: &str| aggs.iter().find(|a| a.name == n).unwrap().kind.clone();
        assert!(matches!(
            by_name("h"),
            AggKind::DateHistogram { interval: Interval::FixedMs(1_800_000), min_doc_count: 0, .. }
        ));
        assert_eq!(
            by_name("t"),
            AggKind::Terms { size: 10, min_doc_count: 1, order: TermsOrder::key(true), filter: None }
        );
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
        for name in ["a[0]", "a]", "a>b"] {
            let err = parse_aggs(&json!({name: {"max": {"field": "n"}}}), &m).unwrap_err();
            assert_eq!(err.es_type_and_status().0, "parsing_exception");
        }
        assert!(parse_aggs(&json!({"x": {"date_histogram": {"field": "d", "calendar_interval": "2d"}}}), &m).is_err());
    }
}
