//! A `terms` aggregation's `order`: one criterion or a list of them, each `_count`, `_key`
//! (`_term` is its old name) or a metric sub-aggregation (`"avg_price"`, `"stats.max"`,
//! `"pcts.99"`), ascending or descending. As in ES, a bucket tie always ends on the key
//! ascending unless the last criterion is already the key, and a metric that has no value
//! (the avg of no documents) sorts last in either direction.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::aggs::intermediate::FruitBucket;
use crate::aggs::options::{OrderBy, OrderKey, TermsOrder};
use crate::aggs::render::render_one;
use crate::aggs::request::{AggKind, AggRequest, MetricOp};
use crate::error::{EngineError, Result, ShardCause};

impl TermsOrder {
    /// ES's default: most documents first.
    pub fn count_desc() -> TermsOrder {
        TermsOrder(vec![OrderKey { by: OrderBy::Count, asc: false }])
    }

    pub fn key(asc: bool) -> TermsOrder {
        TermsOrder(vec![OrderKey { by: OrderBy::Key, asc }])
    }

    /// True when the order reads no sub-aggregation (the common, cheap case).
    pub fn is_count_or_key(&self) -> bool {
        self.0.iter().all(|k| !matches!(k.by, OrderBy::Metric { .. }))
    }

    /// Compares two buckets; `cmp_keys` orders their keys ascending, `values` holds each
    /// bucket's metric values in the order of this order's metric criteria.
    pub(crate) fn compare(
        &self,
        (a, a_values): (&FruitBucket, &[f64]),
        (b, b_values): (&FruitBucket, &[f64]),
        cmp_keys: impl Fn() -> Ordering,
    ) -> Ordering {
        let mut metric = 0;
        for key in &self.0 {
            let ord = match key.by {
                OrderBy::Count => directed(a.count.cmp(&b.count), key.asc),
                OrderBy::Key => directed(cmp_keys(), key.asc),
                OrderBy::Metric { .. } => {
                    metric += 1;
                    compare_discard_nan(a_values[metric - 1], b_values[metric - 1], key.asc)
                }
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        match self.0.last() {
            Some(OrderKey { by: OrderBy::Key, .. }) => Ordering::Equal,
            _ => cmp_keys(),
        }
    }

    /// The bucket's values for the metric criteria, in order (NaN where a metric has none).
    pub(crate) fn metric_values(&self, req: &AggRequest, bucket: &FruitBucket) -> Vec<f64> {
        self.0
            .iter()
            .filter_map(|k| match &k.by {
                OrderBy::Metric { sub, stat, inner } => {
                    Some(metric_value(&req.subs[*sub], bucket, *sub, inner, stat.as_deref()))
                }
                _ => None,
            })
            .collect()
    }
}

fn directed(ord: Ordering, asc: bool) -> Ordering {
    if asc {
        ord
    } else {
        ord.reverse()
    }
}

/// ES's `Comparators.compareDiscardNaN`: a missing value sorts after every real one.
fn compare_discard_nan(a: f64, b: f64, asc: bool) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => directed(a.total_cmp(&b), asc),
    }
}

/// A metric's value as ES sorts on it: the rendered `value` (or the named statistic or
/// percentile), with ES's empty `min`/`max` being +/- infinity and any other empty one NaN.
fn metric_value(sub: &AggRequest, bucket: &FruitBucket, index: usize, inner: &[String], stat: Option<&str>) -> f64 {
    let mut rendered = match bucket.subs.get(index) {
        Some(fruit) => render_one(sub, fruit),
        // A bucket shown with no documents (`min_doc_count: 0`) has no sub-results.
        None => render_one(sub, &crate::aggs::intermediate::AggFruit::empty(sub)),
    };
    // Down through single-bucket aggregations to the one the path ends on.
    let mut sub = sub;
    for name in inner {
        rendered = rendered.get(name.as_str()).cloned().unwrap_or(Value::Null);
        match sub.subs.iter().find(|s| &s.name == name) {
            Some(next) => sub = next,
            None => return f64::NAN,
        }
    }
    let found = match stat {
        None => rendered.get("value"),
        Some(stat) => rendered.get(stat).or_else(|| percentile(&rendered, stat)),
    };
    match found.and_then(Value::as_f64) {
        Some(v) => v,
        None => match (&sub.kind, stat) {
            (AggKind::Metric { op: MetricOp::Min, .. }, None) | (_, Some("min")) => f64::INFINITY,
            (AggKind::Metric { op: MetricOp::Max, .. }, None) | (_, Some("max")) => f64::NEG_INFINITY,
            _ => f64::NAN,
        },
    }
}

/// `pcts.99` reads the `values` entry whose percent equals 99.
fn percentile<'a>(rendered: &'a Value, stat: &str) -> Option<&'a Value> {
    let want: f64 = stat.parse().ok()?;
    let values = rendered.get("values")?.as_object()?;
    values.iter().find(|(k, _)| k.parse::<f64>().ok() == Some(want)).map(|(_, v)| v)
}

fn is_metric(kind: &AggKind) -> bool {
    matches!(
        kind,
        AggKind::Metric { .. }
            | AggKind::WeightedAvg(_)
            | AggKind::Cardinality
            | AggKind::Percentiles { .. }
            | AggKind::PercentileRanks { .. }
            | AggKind::MedianAbsoluteDeviation { .. }
    )
}

fn is_multi_value(kind: &AggKind) -> bool {
    matches!(kind, AggKind::Metric { op: MetricOp::Stats | MetricOp::ExtendedStats, .. })
        || matches!(kind, AggKind::Percentiles { .. } | AggKind::PercentileRanks { .. })
}

/// Parses `order` (an object or a list of one-entry objects) against the parsed
/// sub-aggregations. `bad` is the parse error for a malformed value.
pub(crate) fn parse(value: &Value, subs: &[AggRequest], bad: impl Fn() -> EngineError) -> Result<TermsOrder> {
    let entries: Vec<&Map<String, Value>> = match value {
        Value::Object(o) => vec![o],
        Value::Array(list) if !list.is_empty() => {
            list.iter().map(Value::as_object).collect::<Option<_>>().ok_or_else(&bad)?
        }
        _ => return Err(bad()),
    };
    let mut keys = Vec::new();
    for entry in entries {
        for (path, dir) in entry {
            let asc = match dir.as_str() {
                Some("asc") | Some("ASC") => true,
                Some("desc") | Some("DESC") => false,
                _ => return Err(bad()),
            };
            let by = match path.as_str() {
                "_count" => OrderBy::Count,
                "_key" | "_term" => OrderBy::Key,
                path => metric_path(path, subs)?,
            };
            keys.push(OrderKey { by, asc });
        }
    }
    if keys.is_empty() {
        return Err(bad());
    }
    Ok(TermsOrder(keys))
}

/// Aggregations with one bucket, which an order path may pass through (or end on, for their
/// `doc_count`).
fn is_single_bucket(kind: &AggKind) -> bool {
    matches!(
        kind,
        AggKind::Filters { single: true, .. }
            | AggKind::Missing
            | AggKind::Global
            | AggKind::Join(_)
            | AggKind::RandomSampler(_)
            | AggKind::Sampler { .. }
    )
}

/// `name` or `name.stat` (also `name[stat]`) naming a metric sub-aggregation, possibly below
/// single-bucket ones (`filtered>avg_price`), or a single-bucket one (`filtered`,
/// `filtered.doc_count`).
fn metric_path(path: &str, subs: &[AggRequest]) -> Result<OrderBy> {
    let (steps, last) = match path.rsplit_once('>') {
        Some((steps, last)) => (steps.split('>').collect::<Vec<_>>(), last),
        None => (Vec::new(), path),
    };
    let (name, stat) = match last.find(['.', '[']) {
        Some(i) => (&last[..i], Some(last[i + 1..].trim_end_matches(']').to_string())),
        None => (last, None),
    };
    let invalid = |name: &str| {
        EngineError::shard(ShardCause::AggregationExecution, format!(
            "Invalid aggregation order path [{path}]. The provided aggregation [{name}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets."
        ))
    };
    let not_single = || {
        EngineError::shard(ShardCause::AggregationExecution, format!(
            "Invalid aggregation order path [{path}]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end."
        ))
    };
    // The first name picks the sub-aggregation; later ones walk down single-bucket ones.
    let mut names = steps.iter().copied().chain([name]);
    let first_name = names.next().expect("a path has a name");
    let sub = subs.iter().position(|s| s.name == first_name).ok_or_else(|| invalid(first_name))?;
    let mut at = &subs[sub];
    let mut inner = Vec::new();
    for next in names {
        if !is_single_bucket(&at.kind) {
            return Err(not_single());
        }
        at = at.subs.iter().find(|s| s.name == next).ok_or_else(|| invalid(next))?;
        inner.push(next.to_string());
    }
    let kind = &at.kind;
    if matches!(kind, AggKind::Pipeline(_)) {
        return Err(invalid(name));
    }
    if is_single_bucket(kind) {
        return match stat.as_deref() {
            None | Some("doc_count") => Ok(OrderBy::Metric { sub, stat: Some("doc_count".into()), inner }),
            Some(_) => Err(EngineError::shard(ShardCause::AggregationExecution, format!(
                "Ordering on a single-bucket aggregation can only be done on its doc_count. Either drop the key (a la \"{name}\") or change it to \"doc_count\" (a la \"{name}.doc_count\") or \"key\"."
            ))),
        };
    }
    if !is_metric(kind) {
        return Err(EngineError::shard(ShardCause::AggregationExecution, format!(
            "Invalid aggregation order path [{path}]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end."
        )));
    }
    if stat.is_none() && is_multi_value(kind) {
        return Err(EngineError::shard(ShardCause::AggregationExecution, format!(
            "Invalid aggregation order path [{path}]. When ordering on a multi-value metrics aggregation a metric name must be specified."
        )));
    }
    Ok(OrderBy::Metric { sub, stat, inner })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggs::{AggField, AggFruit};
    use serde_json::json;

    fn metric(name: &str, op: MetricOp) -> AggRequest {
        AggRequest {
            name: name.into(),
            kind: AggKind::Metric { op, sigma: 2.0 },
            field: AggField::named("f"),
            subs: vec![],
            meta: None,
        }
    }

    fn subs() -> Vec<AggRequest> {
        vec![metric("a", MetricOp::Avg), metric("s", MetricOp::Stats)]
    }

    fn bucket(count: u64) -> FruitBucket {
        FruitBucket { count, subs: vec![AggFruit::empty(&subs()[0]), AggFruit::empty(&subs()[1])] }
    }

    #[test]
    fn parses_objects_lists_and_metric_paths() {
        let bad = || EngineError::XContentParse("bad".into());
        let order = parse(&json!([{"s.max": "asc"}, {"_count": "desc"}]), &subs(), bad).unwrap();
        assert_eq!(
            order.0,
            vec![
                OrderKey { by: OrderBy::Metric { sub: 1, stat: Some("max".into()), inner: vec![] }, asc: true },
                OrderKey { by: OrderBy::Count, asc: false },
            ]
        );
        assert_eq!(parse(&json!({"_term": "desc"}), &subs(), bad).unwrap(), TermsOrder::key(false));
        assert!(matches!(parse(&json!({"_count": "up"}), &subs(), bad), Err(EngineError::XContentParse(_))));
        assert!(matches!(parse(&json!([]), &subs(), bad), Err(EngineError::XContentParse(_))));
        let err = |v: Value| parse(&v, &subs(), bad).unwrap_err().to_es_body();
        assert_eq!(err(json!({"nope": "asc"}))["status"], 500);
        assert_eq!(err(json!({"nope": "asc"}))["error"]["root_cause"][0]["type"], "aggregation_execution_exception");
        let reason = err(json!({"s": "asc"}))["error"]["root_cause"][0]["reason"].clone();
        assert!(reason.as_str().unwrap().contains("a metric name must be specified"), "{reason}");
    }

    #[test]
    fn ties_end_on_the_key_and_missing_values_sort_last() {
        let order =
            TermsOrder(vec![OrderKey { by: OrderBy::Metric { sub: 0, stat: None, inner: vec![] }, asc: false }]);
        let (a, b) = (bucket(1), bucket(1));
        let key_less = || Ordering::Less;
        // Equal metric values: the key decides (ascending), whatever the metric's direction.
        assert_eq!(order.compare((&a, &[2.0]), (&b, &[2.0]), key_less), Ordering::Less);
        assert_eq!(order.compare((&a, &[1.0]), (&b, &[2.0]), key_less), Ordering::Greater);
        // NaN (an avg over no values) goes last both descending and ascending.
        assert_eq!(order.compare((&a, &[f64::NAN]), (&b, &[-5.0]), key_less), Ordering::Greater);
        let asc = TermsOrder(vec![OrderKey { by: OrderBy::Metric { sub: 0, stat: None, inner: vec![] }, asc: true }]);
        assert_eq!(asc.compare((&a, &[f64::NAN]), (&b, &[5.0]), key_less), Ordering::Greater);
        // A key order that ends the list adds no second key comparison.
        assert_eq!(TermsOrder::key(false).compare((&a, &[]), (&b, &[]), key_less), Ordering::Greater);
    }

    #[test]
    fn empty_metrics_read_as_es_values() {
        let req = AggRequest {
            name: "t".into(),
            kind: AggKind::Terms { size: 10, min_doc_count: 1, order: TermsOrder::count_desc(), filter: None },
            field: AggField::named("k"),
            subs: subs(),
            meta: None,
        };
        let order = TermsOrder(vec![
            OrderKey { by: OrderBy::Metric { sub: 0, stat: None, inner: vec![] }, asc: true },
            OrderKey { by: OrderBy::Metric { sub: 1, stat: Some("min".into()), inner: vec![] }, asc: true },
            OrderKey { by: OrderBy::Metric { sub: 1, stat: Some("count".into()), inner: vec![] }, asc: true },
        ]);
        let values = order.metric_values(&req, &bucket(3));
        assert!(values[0].is_nan());
        assert_eq!(values[1..], [f64::INFINITY, 0.0]);
    }
}
