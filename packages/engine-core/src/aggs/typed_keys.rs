//! `typed_keys`: every aggregation's name in the response becomes `<type>#<name>`, with
//! the type as ES's clients read it to pick a result class (`sterms` for keyword terms,
//! `lterms` for integers, `tdigest_percentiles`, ...). Applied to the rendered tree, into
//! each bucket's sub-aggregations.

use serde_json::{Map, Value};

use super::request::{AggKind, AggRequest, MetricOp, RangeKeys};
use crate::aggs::pipeline::spec::PipelineKind;
use crate::store::mapping::FieldType;

/// ES's type name of an aggregation's result.
pub fn type_name(req: &AggRequest) -> &'static str {
    let ty = req.field.resolved.as_ref().map(|r| r.1);
    // An unmapped field's terms results answer to the string result's type in ES
    // (`UnmappedTerms.getType()` is `sterms`, `UnmappedSignificantTerms`' is `sigsterms`).
    let family = |string: &'static str, long: &'static str, double: &'static str, unmapped: &'static str| match ty {
        Some(FieldType::Keyword | FieldType::Ip) => string,
        Some(FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat) => double,
        Some(_) => long,
        None => unmapped,
    };
    match &req.kind {
        AggKind::Metric { op, .. } => match op {
            MetricOp::Avg => "avg",
            MetricOp::Sum => "sum",
            MetricOp::Min => "min",
            MetricOp::Max => "max",
            MetricOp::ValueCount => "value_count",
            MetricOp::Stats => "stats",
            MetricOp::ExtendedStats => "extended_stats",
        },
        AggKind::Terms { .. } => family("sterms", "lterms", "dterms", "sterms"),
        AggKind::RareTerms { .. } => family("srareterms", "lrareterms", "drareterms", "sterms"),
        AggKind::Significant(spec) if spec.text.is_some() => "sigsterms",
        AggKind::Significant(_) => family("sigsterms", "siglterms", "siglterms", "sigsterms"),
        AggKind::DateHistogram { .. } => "date_histogram",
        AggKind::AutoDateHistogram(_) => "auto_date_histogram",
        AggKind::Histogram { .. } => "histogram",
        AggKind::VariableWidth(_) => "variable_width_histogram",
        AggKind::Cardinality => "cardinality",
        AggKind::Range { keys: RangeKeys::Date(_), .. } => "date_range",
        AggKind::Range { .. } => "range",
        AggKind::Missing => "missing",
        AggKind::Filters { single: true, .. } => "filter",
        AggKind::Filters { .. } => "filters",
        AggKind::AdjacencyMatrix { .. } => "adjacency_matrix",
        AggKind::Global => "global",
        AggKind::Join(crate::aggs::options::Join::Objects { .. }) => "nested",
        AggKind::Join(_) => "reverse_nested",
        AggKind::Composite(_) => "composite",
        AggKind::MatrixStats { .. } => "matrix_stats",
        AggKind::Percentiles { hdr: None, .. } => "tdigest_percentiles",
        AggKind::Percentiles { hdr: Some(_), .. } => "hdr_percentiles",
        AggKind::PercentileRanks { hdr: None, .. } => "tdigest_percentile_ranks",
        AggKind::PercentileRanks { hdr: Some(_), .. } => "hdr_percentile_ranks",
        AggKind::MedianAbsoluteDeviation { .. } => "median_absolute_deviation",
        AggKind::TopHits(_) => "top_hits",
        AggKind::RandomSampler(_) => "random_sampler",
        AggKind::Sampler { .. } => "sampler",
        AggKind::WeightedAvg(_) => "weighted_avg",
        AggKind::IpRange(_) => "ip_range",
        AggKind::Geo(g) if matches!(**g, crate::aggs::options::GeoAgg::Grid { .. }) => "geohash_grid",
        AggKind::Geo(_) => "geo_distance",
        AggKind::Pipeline(spec) => match spec.kind {
            PipelineKind::MaxBucket | PipelineKind::MinBucket => "bucket_metric_value",
            PipelineKind::StatsBucket => "stats_bucket",
            PipelineKind::PercentilesBucket { .. } => "percentiles_bucket",
            PipelineKind::Derivative => "derivative",
            _ => "simple_value",
        },
    }
}

/// Renames the aggregations of one level (and, through their buckets, every level below).
pub fn apply(reqs: &[AggRequest], level: &mut Map<String, Value>) {
    for req in reqs {
        let Some(mut result) = level.remove(&req.name) else { continue };
        if !req.subs.is_empty() {
            rename_inside(&req.subs, &mut result);
        }
        level.insert(format!("{}#{}", type_name(req), req.name), result);
    }
}

/// Sub-aggregations sit in each bucket (a list or a keyed object of them), or, for
/// single-bucket aggregations, beside `doc_count` in the result itself.
fn rename_inside(subs: &[AggRequest], result: &mut Value) {
    let Some(obj) = result.as_object_mut() else { return };
    match obj.get_mut("buckets") {
        Some(Value::Array(buckets)) => {
            for bucket in buckets {
                if let Some(bucket) = bucket.as_object_mut() {
                    apply(subs, bucket);
                }
            }
        }
        Some(Value::Object(buckets)) => {
            for bucket in buckets.values_mut() {
                if let Some(bucket) = bucket.as_object_mut() {
                    apply(subs, bucket);
                }
            }
        }
        _ => apply(subs, obj),
    }
}
