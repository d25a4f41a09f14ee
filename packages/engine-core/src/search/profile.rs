//! `profile: true`: ES's `profile` section for the one shard of the index, built from what the
//! search measured and collected. Timings are this engine's own, measured around its passes:
//! the query's `time_in_nanos` is the collection pass (hits and aggregations together: they
//! run in one pass here), each aggregation's `build_aggregation` is its rendering. Counts are
//! real: `collect_count` is how many (document, bucket) pairs reached the aggregation, the
//! debug figures come from the segments' columns. Class names are those ES's equivalent
//! query or aggregator has, so tools that read profiles recognise them.

use std::time::Duration;

use serde_json::{json, Map, Value};
use tantivy::columnar::Cardinality;
use tantivy::Searcher;

use super::collect_page::Page;
use super::SearchRequest;
use crate::aggs::intermediate::{AggFruit, FruitBucket};
use crate::aggs::request::{AggKind, AggRequest, MetricOp};
use crate::query::ast::QueryAst;
use crate::store::index::IndexHandle;
use crate::store::mapping::FieldType;

/// What the search measured, for the profile.
pub struct Measured {
    pub collect: Duration,
    pub render_aggs: Duration,
}

/// The `profile` object: one shard, one search, its aggregations.
pub fn render(
    handle: &IndexHandle,
    searcher: &Searcher,
    req: &SearchRequest,
    page: &Page,
    measured: &Measured,
) -> Value {
    let (query, aggs, fruits, matched) = (&req.query, &req.aggs, &page.aggs, page.top.total);
    let agg_defs = req.opts.profile.as_ref().filter(|d| !d.is_null());
    let nanos = |d: Duration| d.as_nanos() as u64;
    let collect = nanos(measured.collect);
    let query_node = query_profile(query, collect);
    let collector =
        json!([{ "name": "SimpleTopScoreDocCollector", "reason": "search_top_hits", "time_in_nanos": collect }]);
    let render_each = if aggs.is_empty() { 0 } else { nanos(measured.render_aggs) / aggs.len() as u64 };
    let aggregations: Vec<Value> = aggs
        .iter()
        .zip(fruits)
        .map(|(req, fruit)| {
            let seen = if req.kind == AggKind::Global { searcher.num_docs() } else { matched };
            let def = agg_defs.and_then(|d| d.get(&req.name));
            agg_profile(searcher, req, fruit, def, seen, render_each)
        })
        .collect();
    json!({ "shards": [{
        "id": format!("[everycell][{}][0]", handle.name),
        "searches": [{ "query": [query_node], "rewrite_time": 0, "collector": collector }],
        "aggregations": aggregations,
    }] })
}

/// The Lucene query ES builds for the DSL query, and its description.
fn query_type(query: &QueryAst) -> (&'static str, String) {
    match query {
        QueryAst::MatchAll => ("MatchAllDocsQuery", "*:*".into()),
        QueryAst::MatchNone => ("MatchNoDocsQuery", String::new()),
        QueryAst::Term { field, value } => ("TermQuery", format!("{field}:{}", text(value))),
        QueryAst::Terms { field, .. } => ("TermInSetQuery", format!("{field}:(...)")),
        QueryAst::Range(_) => ("IndexOrDocValuesQuery", String::new()),
        QueryAst::Match { field, text: t, .. } => ("BooleanQuery", format!("{field}:{t}")),
        QueryAst::Bool(_) => ("BooleanQuery", String::new()),
        QueryAst::MatchPhrase { field, text: t, .. } => ("PhraseQuery", format!("{field}:\"{t}\"")),
        QueryAst::Prefix { field, value } => ("PrefixQuery", format!("{field}:{value}*")),
        QueryAst::Wildcard { field, pattern } => ("WildcardQuery", format!("{field}:{pattern}")),
        QueryAst::Regexp { field, pattern } => ("RegexpQuery", format!("{field}:/{pattern}/")),
        QueryAst::Fuzzy { field, value, .. } => ("FuzzyQuery", format!("{field}:{value}")),
        QueryAst::Exists { field } => ("DocValuesFieldExistsQuery", field.clone()),
        QueryAst::Ids { .. } => ("TermInSetQuery", "_id:(...)".into()),
        QueryAst::ConstantScore { .. } => ("ConstantScoreQuery", String::new()),
        QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => query_type(query),
        QueryAst::Intervals { field, .. } => ("IntervalQuery", field.clone()),
        QueryAst::FunctionScore(_) => ("FunctionScoreQuery", String::new()),
        QueryAst::DisMax { .. } => ("DisjunctionMaxQuery", String::new()),
        QueryAst::Nested(_) => ("ESToParentBlockJoinQuery", String::new()),
        _ => ("Query", String::new()),
    }
}

fn text(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_string)
}

fn query_profile(query: &QueryAst, nanos: u64) -> Value {
    let (kind, description) = query_type(query);
    let breakdown = breakdown(
        &[
            "create_weight",
            "build_scorer",
            "next_doc",
            "advance",
            "match",
            "score",
            "shallow_advance",
            "compute_max_score",
            "set_min_competitive_score",
        ],
        "next_doc",
        nanos,
        1,
    );
    json!({ "type": kind, "description": description, "time_in_nanos": nanos, "breakdown": breakdown })
}

/// A breakdown with every key ES has (each with its `_count`): `measured` carries the time and
/// `count`, the rest were not measured apart and read 0.
fn breakdown(keys: &[&str], measured: &str, nanos: u64, count: u64) -> Value {
    let mut out = Map::new();
    for key in keys {
        let (t, c) = if *key == measured { (nanos, count) } else { (0, 0) };
        out.insert((*key).to_string(), json!(t));
        out.insert(format!("{key}_count"), json!(c));
    }
    Value::Object(out)
}

/// ES's aggregator class for the request (and how it collects, for `terms`).
fn aggregator_type(req: &AggRequest, def: Option<&Value>) -> &'static str {
    let ty = req.field.value_type();
    match &req.kind {
        AggKind::Terms { .. } => match ty {
            Some(FieldType::Keyword | FieldType::Ip) => {
                let hint =
                    def.and_then(|d| d.get("terms")).and_then(|t| t.get("execution_hint")).and_then(Value::as_str);
                if hint == Some("map") {
                    "MapStringTermsAggregator"
                } else {
                    "GlobalOrdinalsStringTermsAggregator"
                }
            }
            Some(_) => "NumericTermsAggregator",
            None => "UnmappedTerms",
        },
        AggKind::Metric { op, .. } => match op {
            MetricOp::Avg => "AvgAggregator",
            MetricOp::Sum => "SumAggregator",
            MetricOp::Min => "MinAggregator",
            MetricOp::Max => "MaxAggregator",
            MetricOp::ValueCount => "ValueCountAggregator",
            MetricOp::Stats => "StatsAggregator",
            MetricOp::ExtendedStats => "ExtendedStatsAggregator",
        },
        AggKind::Cardinality => "CardinalityAggregator",
        AggKind::DateHistogram { .. } => "DateHistogramAggregator",
        AggKind::AutoDateHistogram(_) => "AutoDateHistogramAggregator",
        AggKind::Histogram { .. } => "NumericHistogramAggregator",
        AggKind::Range { .. } => "RangeAggregator",
        AggKind::Missing => "MissingAggregator",
        AggKind::Filters { single: true, .. } => "FilterAggregator",
        AggKind::Filters { .. } => "FiltersAggregator",
        AggKind::Global => "GlobalAggregator",
        AggKind::Sampler { .. } => "SamplerAggregator",
        AggKind::Join(crate::aggs::options::Join::Objects { .. }) => "NestedAggregator",
        AggKind::Join(_) => "ReverseNestedAggregator",
        AggKind::Percentiles { .. } => "TDigestPercentilesAggregator",
        AggKind::PercentileRanks { .. } => "TDigestPercentileRanksAggregator",
        AggKind::TopHits(_) => "TopHitsAggregator",
        AggKind::Composite(_) => "CompositeAggregator",
        AggKind::RareTerms { .. } => "RareTermsAggregator",
        AggKind::Significant(_) => "SignificantTermsAggregator",
        _ => "Aggregator",
    }
}

fn agg_profile(
    searcher: &Searcher,
    req: &AggRequest,
    fruit: &AggFruit,
    def: Option<&Value>,
    collected: u64,
    render_nanos: u64,
) -> Value {
    let keys = ["initialize", "build_leaf_collector", "collect", "post_collection", "build_aggregation", "reduce"];
    let mut breakdown = breakdown(&keys, "build_aggregation", render_nanos, 1);
    breakdown["collect_count"] = json!(collected);
    breakdown["build_leaf_collector_count"] = json!(searcher.segment_readers().len());
    let mut out = Map::new();
    out.insert("type".into(), json!(aggregator_type(req, def)));
    out.insert("description".into(), json!(req.name));
    out.insert("time_in_nanos".into(), json!(render_nanos));
    out.insert("breakdown".into(), breakdown);
    if let Some(debug) = debug(searcher, req, fruit, def) {
        out.insert("debug".into(), debug);
    }
    let buckets: Vec<&FruitBucket> = match fruit {
        AggFruit::Buckets(b) => b.values().collect(),
        _ => Vec::new(),
    };
    // A sub-aggregation sees each (document, bucket) pair of its parent's buckets.
    let children: Vec<Value> = req
        .subs
        .iter()
        .enumerate()
        .filter(|(_, sub)| !matches!(sub.kind, AggKind::Pipeline(_)))
        .map(|(i, sub)| {
            let seen: u64 = buckets.iter().map(|b| b.count).sum();
            let merged = buckets.iter().filter_map(|b| b.subs.get(i)).fold(AggFruit::empty(sub), |mut acc, f| {
                acc.merge(f.clone());
                acc
            });
            let sub_def =
                def.and_then(|d| d.get("aggs").or_else(|| d.get("aggregations"))).and_then(|a| a.get(&sub.name));
            agg_profile(searcher, sub, &merged, sub_def, seen, 0)
        })
        .collect();
    if !children.is_empty() {
        out.insert("children".into(), Value::Array(children));
    }
    Value::Object(out)
}

/// ES's `debug` figures for `terms`, as far as this engine has them: how keys are shown, the
/// buckets built, and for keywords how each segment's ordinals are laid out.
fn debug(searcher: &Searcher, req: &AggRequest, fruit: &AggFruit, def: Option<&Value>) -> Option<Value> {
    let AggKind::Terms { filter, .. } = &req.kind else { return None };
    let buckets = match fruit {
        AggFruit::Buckets(b) => b.len(),
        _ => 0,
    };
    let ty = req.field.value_type()?;
    if !matches!(ty, FieldType::Keyword | FieldType::Ip) {
        let strategy = if ty.is_f64() { "double_terms" } else { "long_terms" };
        return Some(json!({ "result_strategy": strategy, "total_buckets": buckets }));
    }
    let mut debug = json!({ "result_strategy": "terms", "has_filter": filter.is_some() });
    let hint = def.and_then(|d| d.get("terms")).and_then(|t| t.get("execution_hint")).and_then(Value::as_str);
    if hint != Some("map") {
        let (mut single, mut multi) = (0, 0);
        if let Some((name, _)) = &req.field.resolved {
            for reader in searcher.segment_readers() {
                if let Ok(Some(column)) = reader.fast_fields().str(name) {
                    match column.ords().get_cardinality() {
                        Cardinality::Multivalued => multi += 1,
                        _ => single += 1,
                    }
                }
            }
        }
        // Without `missing`, keyword terms count into an array by ordinal (`collect/`).
        let strategy = if req.field.missing.is_none() { "dense" } else { "remap" };
        debug["collection_strategy"] = json!(strategy);
        debug["segments_with_single_valued_ords"] = json!(single);
        debug["segments_with_multi_valued_ords"] = json!(multi);
    }
    Some(debug)
}
