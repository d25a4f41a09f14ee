//! Request-time checks on the aggregation tree, with the errors OpenSearch 2.19 gives
//! (checked against the real server): where each pipeline may sit, whether its
//! `buckets_path` names existing aggregations, and the order pipelines at one level must run
//! in (a pipeline may read another's output).

use std::collections::HashSet;

use super::spec::PipelineSpec;
use crate::aggs::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};

fn validation(reason: String) -> EngineError {
    EngineError::ActionRequestValidation(format!("Validation Failed: 1: {reason};"))
}

pub fn spec(req: &AggRequest) -> Option<&PipelineSpec> {
    match &req.kind {
        AggKind::Pipeline(spec) => Some(spec),
        _ => None,
    }
}

pub fn is_multi_bucket(kind: &AggKind) -> bool {
    matches!(
        kind,
        AggKind::Terms { .. }
            | AggKind::Histogram { .. }
            | AggKind::DateHistogram { .. }
            | AggKind::AutoDateHistogram(_)
            | AggKind::Range { .. }
            | AggKind::Filters { single: false, .. }
            | AggKind::RareTerms { .. }
            | AggKind::Significant(_)
            | AggKind::Geo(_)
            | AggKind::IpRange(_)
            | AggKind::VariableWidth(_)
            | AggKind::AdjacencyMatrix { .. }
            | AggKind::Composite(_)
    )
}

/// Validates every level of the tree; `parent` is the aggregation whose buckets hold `reqs`.
pub fn validate(reqs: &[AggRequest], parent: Option<&AggRequest>) -> Result<()> {
    for req in reqs {
        match spec(req) {
            Some(spec) => validate_pipeline(&req.name, spec, reqs, parent)?,
            None => validate(&req.subs, Some(req))?,
        }
    }
    run_order(reqs).map(|_| ())
}

fn validate_pipeline(name: &str, spec: &PipelineSpec, level: &[AggRequest], parent: Option<&AggRequest>) -> Result<()> {
    let t = &spec.type_name;
    if spec.kind.is_sibling() {
        let path = &spec.paths[0].1;
        let first = level.iter().find(|r| r.name == path.first() && spec_of(r).is_none());
        match first {
            None => return Err(validation(format!("No aggregation found for path [{}]", path.raw))),
            Some(agg) if !is_multi_bucket(&agg.kind) => {
                return Err(validation(format!(
                    "The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation [{name}] found :{} for buckets path: {}",
                    agg.name, path.raw
                )))
            }
            Some(_) => {}
        }
    } else {
        let Some(parent) = parent else {
            return Err(validation(if spec.kind.needs_histogram_parent() {
                format!("{t} aggregation [{name}] must have a histogram, date_histogram or auto_date_histogram as parent but doesn't have a parent")
            } else {
                format!("{t} aggregation [{name}] must be declared inside of another aggregation")
            }));
        };
        if spec.kind.needs_histogram_parent() {
            match parent.kind {
                AggKind::Histogram { min_doc_count, .. } | AggKind::DateHistogram { min_doc_count, .. } => {
                    if min_doc_count != 0 {
                        return Err(validation(format!(
                            "parent histogram of {t} aggregation [{name}] must have min_doc_count of 0"
                        )));
                    }
                }
                // Its buckets are contiguous by construction (no min_doc_count option).
                AggKind::AutoDateHistogram(_) => {}
                _ => {
                    return Err(validation(format!(
                    "{t} aggregation [{name}] must have a histogram, date_histogram or auto_date_histogram as parent"
                )))
                }
            }
        } else if !is_multi_bucket(&parent.kind) {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("{t} aggregation [{name}] must be declared inside a multi-bucket aggregation"),
            ));
        }
    }
    let sort_paths: Vec<super::path::BucketsPath> = match &spec.kind {
        super::spec::PipelineKind::BucketSort { sorts, .. } => sorts
            .iter()
            .filter(|(f, _)| f != "_key" && f != "_count")
            .map(|(f, _)| super::path::BucketsPath::parse(f))
            .collect::<Result<_>>()?,
        _ => Vec::new(),
    };
    for path in spec.paths.iter().map(|(_, p)| p).chain(sort_paths.iter()) {
        if path.raw == "_count" || path.raw == "_key" {
            continue;
        }
        let Some(first) = level.iter().find(|r| r.name == path.first()) else {
            return Err(validation(format!("No aggregation found for path [{}]", path.raw)));
        };
        // Later elements must name sub-aggregations; the last may also be a pipeline,
        // `_count` or `_key`.
        let mut at = first;
        for (i, el) in path.elements.iter().enumerate().skip(1) {
            let last = i == path.elements.len() - 1;
            if last && (el.name == "_count" || el.name == "_key" || el.name == "_bucket_count") {
                break;
            }
            match at.subs.iter().find(|s| s.name == el.name && (last || spec_of(s).is_none())) {
                // A sibling reads one number per bucket: a multi-bucket aggregation inside the
                // buckets gives a list (or itself), which ES refuses when it resolves the path.
                Some(next)
                    if spec.kind.is_sibling()
                        && is_multi_bucket(&next.kind)
                        && el.key.as_deref() != Some("_bucket_count") =>
                {
                    let got = if last && el.key.is_none() { java_class(next) } else { "Object[]" };
                    return Err(EngineError::IllegalArgument(format!(
                        "buckets_path must reference either a number value or a single value numeric metric aggregation, got: [{got}] at aggregation [{}]",
                        el.name
                    )));
                }
                Some(next) => at = next,
                None => return Err(validation(format!("No aggregation [{}] found for path [{}]", el.name, path.raw))),
            }
        }
    }
    Ok(())
}

/// The class ES's result of a multi-bucket aggregation has (named in its errors).
fn java_class(req: &AggRequest) -> &'static str {
    use crate::store::mapping::FieldType;
    let ty = req.field.resolved.as_ref().map(|r| r.1);
    let long = |t: FieldType| t.is_i64() || t == FieldType::Boolean;
    match &req.kind {
        AggKind::Terms { .. } => match ty {
            None => "UnmappedTerms",
            Some(t) if t.is_f64() => "DoubleTerms",
            Some(t) if long(t) => "LongTerms",
            Some(_) => "StringTerms",
        },
        AggKind::RareTerms { .. } => match ty {
            Some(t) if long(t) || t.is_f64() => "LongRareTerms",
            _ => "StringRareTerms",
        },
        AggKind::Significant(_) => "SignificantStringTerms",
        AggKind::Histogram { .. } => "InternalHistogram",
        AggKind::DateHistogram { .. } => "InternalDateHistogram",
        AggKind::AutoDateHistogram(_) => "InternalAutoDateHistogram",
        AggKind::Range { keys: crate::aggs::RangeKeys::Date(_), .. } => "InternalDateRange",
        AggKind::Range { .. } => "InternalRange",
        AggKind::Filters { .. } => "InternalFilters",
        AggKind::IpRange(_) => "InternalBinaryRange",
        AggKind::VariableWidth(_) => "InternalVariableWidthHistogram",
        AggKind::AdjacencyMatrix { .. } => "InternalAdjacencyMatrix",
        AggKind::Composite(_) => "InternalComposite",
        AggKind::Geo(_) => "InternalGeoGrid",
        _ => "InternalMultiBucketAggregation",
    }
}

fn spec_of(req: &AggRequest) -> Option<&PipelineSpec> {
    spec(req)
}

/// Pipelines of one level in the order they must run: each after the pipelines its paths
/// read. A cycle is an error, as in ES.
pub fn run_order(reqs: &[AggRequest]) -> Result<Vec<&AggRequest>> {
    let mut done: Vec<&AggRequest> = Vec::new();
    let mut visiting: HashSet<&str> = HashSet::new();
    fn visit<'a>(
        req: &'a AggRequest,
        reqs: &'a [AggRequest],
        done: &mut Vec<&'a AggRequest>,
        visiting: &mut HashSet<&'a str>,
    ) -> Result<()> {
        if done.iter().any(|d| d.name == req.name) {
            return Ok(());
        }
        if !visiting.insert(&req.name) {
            return Err(EngineError::IllegalArgument(format!(
                "Cyclical dependency found with pipeline aggregator [{}]",
                req.name
            )));
        }
        if let Some(own) = spec(req) {
            for (_, path) in &own.paths {
                if let Some(dep) = reqs.iter().find(|r| r.name == path.first() && spec(r).is_some()) {
                    visit(dep, reqs, done, visiting)?;
                }
            }
        }
        visiting.remove(req.name.as_str());
        done.push(req);
        Ok(())
    }
    for req in reqs.iter().filter(|r| spec(r).is_some()) {
        visit(req, reqs, &mut done, &mut visiting)?;
    }
    Ok(done)
}
