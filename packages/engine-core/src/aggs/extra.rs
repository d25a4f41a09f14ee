//! Parsing of the aggregations beyond the core set (`percentiles`, `percentile_ranks`,
//! `median_absolute_deviation`, `top_hits`, `global`, `rare_terms`, `composite`,
//! `adjacency_matrix`, `matrix_stats`, `significant_terms`, `significant_text`,
//! `variable_width_histogram`, `random_sampler`) and the dispatch of their rendering. Each validates
//! its own options, with ES's error types and messages.

use serde_json::{Map, Value};

use tantivy::collector::Collector;
use tantivy::{SegmentOrdinal, SegmentReader};

use super::composite::{render_composite, CompositeSpec, SegSources};
use super::matrix_stats::{MatrixColumns, MatrixField};
use super::quantiles::{render_mad, render_percentile_ranks, render_percentiles};
use super::render_extra::render_missing;
use super::significant::SignificantSpec;
use super::source_text::SourceText;
use super::top_hits::{render_top_hits, TopHitsSpec};
use super::variable_width::WidthSpec;
use super::{agg_err, AggFruit, AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::search::top_hits::TopHitsCollector;
use crate::store::mapping::{FieldType, Mapping};

/// ES's default `percents`.
const DEFAULT_PERCENTS: [f64; 7] = [1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0];
/// ES rejects a larger `max_doc_count` on `rare_terms`.
const MAX_RARE_DOC_COUNT: u64 = 100;

#[derive(Debug, Clone, PartialEq)]
pub enum ExtraKind {
    Percentiles {
        percents: Vec<f64>,
        keyed: bool,
        missing: Option<f64>,
    },
    PercentileRanks {
        values: Vec<f64>,
        keyed: bool,
        missing: Option<f64>,
    },
    MedianAbsoluteDeviation {
        missing: Option<f64>,
    },
    TopHits(TopHitsSpec),
    /// One bucket holding every document of the index, whatever the query.
    Global,
    /// Terms whose doc count is at most `max_doc_count`, collected exactly (ES uses a cuckoo
    /// filter whose false positives can only drop terms; exact counting never does).
    RareTerms {
        max_doc_count: u64,
    },
    Composite(CompositeSpec),
    MatrixStats {
        fields: Vec<MatrixField>,
    },
    /// A bucket per filter and per pair of filters matching together (`A`, `A&B`), by name.
    AdjacencyMatrix {
        filters: Vec<(String, crate::query::ast::QueryAst)>,
        separator: String,
    },
    /// `significant_terms` (keyword columns) and `significant_text` (re-analyzed `_source`).
    Significant(Box<SignificantSpec>),
    VariableWidth(WidthSpec),
    /// One bucket of a seeded random sample of the matches (`random_sampler.rs`).
    RandomSampler(super::random_sampler::SamplerSpec),
}

impl ExtraKind {
    /// The quantile aggregations keep every value of the field, matrix_stats every row.
    pub(super) fn collects_values(&self) -> bool {
        matches!(
            self,
            ExtraKind::Percentiles { .. }
                | ExtraKind::PercentileRanks { .. }
                | ExtraKind::MedianAbsoluteDeviation { .. }
                | ExtraKind::MatrixStats { .. }
                | ExtraKind::VariableWidth(_)
        )
    }

    /// Renders a `buckets` list (what sibling pipelines such as `max_bucket` walk).
    pub fn is_multi_bucket(&self) -> bool {
        matches!(
            self,
            ExtraKind::RareTerms { .. }
                | ExtraKind::Composite(_)
                | ExtraKind::AdjacencyMatrix { .. }
                | ExtraKind::Significant(_)
                | ExtraKind::VariableWidth(_)
        )
    }

    pub(super) fn missing_value(&self) -> Option<f64> {
        match self {
            ExtraKind::Percentiles { missing, .. }
            | ExtraKind::PercentileRanks { missing, .. }
            | ExtraKind::MedianAbsoluteDeviation { missing } => *missing,
            _ => None,
        }
    }

    /// Field types each aggregation reads (ES: numeric values sources for the quantiles).
    pub(super) fn accepts(&self, ty: FieldType) -> bool {
        match self {
            ExtraKind::VariableWidth(_) => ty.is_f64() || matches!(ty, FieldType::Long | FieldType::Integer),
            _ if self.collects_values() => ty != FieldType::Keyword,
            _ => true,
        }
    }
}

/// The `field` option, or "" for aggregations without one.
pub(super) fn field_of(body: &Map<String, Value>) -> String {
    body.get("field").and_then(Value::as_str).unwrap_or_default().to_string()
}

fn numbers(kind: &str, key: &str, value: &Value) -> Result<Vec<f64>> {
    let bad = || EngineError::XContentParse(format!("[{kind}] failed to parse field [{key}]"));
    value.as_array().ok_or_else(bad)?.iter().map(|v| v.as_f64().ok_or_else(bad)).collect()
}

/// The aggregation `kind_name` if it is one of ours; `None` hands it back to the core parser.
pub(super) fn parse(
    name: &str,
    kind_name: &str,
    body: &Map<String, Value>,
    mapping: &Mapping,
    has_subs: bool,
) -> Result<Option<AggKind>> {
    let allowed: &[&str] = match kind_name {
        "percentiles" => &["field", "percents", "keyed", "missing", "tdigest"],
        "percentile_ranks" => &["field", "values", "keyed", "missing", "tdigest"],
        "median_absolute_deviation" => &["field", "missing", "compression"],
        "top_hits" => {
            return TopHitsSpec::parse(name, body, mapping, has_subs).map(|s| Some(wrap(ExtraKind::TopHits(s))))
        }
        "global" => &[],
        "random_sampler" => {
            let spec = super::random_sampler::parse(name, body, has_subs)?;
            return Ok(Some(wrap(ExtraKind::RandomSampler(spec))));
        }
        "adjacency_matrix" => return parse_adjacency(name, body).map(|k| Some(wrap(k))),
        "matrix_stats" => {
            if has_subs {
                return Err(agg_err(format!(
                    "Aggregator [{name}] of type [matrix_stats] cannot accept sub-aggregations"
                )));
            }
            let fields = super::matrix_stats::parse(name, body, mapping)?;
            return Ok(Some(wrap(ExtraKind::MatrixStats { fields })));
        }
        "composite" => return CompositeSpec::parse(name, body, mapping).map(|s| Some(wrap(ExtraKind::Composite(s)))),
        "rare_terms" => &["field", "max_doc_count", "precision"],
        "significant_terms" | "significant_text" => {
            let spec = super::significant::parse(name, kind_name, body, mapping)?;
            return Ok(Some(wrap(ExtraKind::Significant(Box::new(spec)))));
        }
        "variable_width_histogram" => {
            if has_subs {
                // ES replays deferred sub-aggregations through its cluster merges; not done here.
                return Err(agg_err(format!(
                    "Aggregator [{name}] of type [variable_width_histogram] cannot accept sub-aggregations"
                )));
            }
            return Ok(Some(wrap(ExtraKind::VariableWidth(super::variable_width::parse(name, body)?))));
        }
        _ => return Ok(None),
    };
    let mut percents = None;
    let mut values = None;
    let mut keyed = true;
    let mut missing = None;
    let mut max_doc_count = 1;
    for (key, value) in body {
        if !allowed.contains(&key.as_str()) {
            return Err(EngineError::XContentParse(format!("[{kind_name}] unknown field [{key}]")));
        }
        let bad = || EngineError::XContentParse(format!("[{kind_name}] failed to parse field [{key}]"));
        match key.as_str() {
            "field" => {
                value.as_str().ok_or_else(bad)?;
            }
            "percents" => percents = Some(numbers(kind_name, key, value)?),
            "values" => values = Some(numbers(kind_name, key, value)?),
            "keyed" => keyed = value.as_bool().ok_or_else(bad)?,
            "missing" => {
                missing = Some(value.as_f64().or_else(|| value.as_str().and_then(|s| s.parse().ok())).ok_or_else(bad)?)
            }
            "max_doc_count" => max_doc_count = value.as_u64().ok_or_else(bad)?,
            // Accuracy knobs of ES's sketches; our computation is exact, so they change nothing.
            "tdigest" | "compression" | "precision" => {}
            _ => unreachable!("checked against the allowed list"),
        }
    }
    let needs_field = kind_name != "global";
    if needs_field && !body.contains_key("field") {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        ));
    }
    let kind = match kind_name {
        "percentiles" => {
            let percents = percents.unwrap_or_else(|| DEFAULT_PERCENTS.to_vec());
            if let Some(p) = percents.iter().find(|p| !(0.0..=100.0).contains(*p)) {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("percent must be in [0,100], got [{p}]: [{name}]"),
                ));
            }
            ExtraKind::Percentiles { percents, keyed, missing }
        }
        "percentile_ranks" => {
            let values = values.filter(|v| !v.is_empty()).ok_or_else(|| {
                EngineError::shard(ShardCause::IllegalArgument, format!("[values] must not be null: [{name}]"))
            })?;
            ExtraKind::PercentileRanks { values, keyed, missing }
        }
        "median_absolute_deviation" => ExtraKind::MedianAbsoluteDeviation { missing },
        "global" => ExtraKind::Global,
        _ => {
            if max_doc_count == 0 || max_doc_count > MAX_RARE_DOC_COUNT {
                return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
                    "[max_doc_count] must be greater than 0 and smaller than or equal to [{MAX_RARE_DOC_COUNT}], found [{max_doc_count}]"
                )));
            }
            ExtraKind::RareTerms { max_doc_count }
        }
    };
    if has_subs && kind.collects_values() {
        return Err(agg_err(format!("Aggregator [{name}] of type [{kind_name}] cannot accept sub-aggregations")));
    }
    Ok(Some(wrap(kind)))
}

impl AggKind {
    /// Keyed by field value like `terms` (keyword buckets become strings at harvest).
    pub fn is_terms_like(&self) -> bool {
        match self {
            AggKind::Terms { .. } => true,
            AggKind::Extra(x) => match &**x {
                ExtraKind::RareTerms { .. } => true,
                ExtraKind::Significant(spec) => spec.text.is_none(),
                _ => false,
            },
            _ => false,
        }
    }

    /// `significant_*`: the foreground size is counted besides the term buckets.
    pub(super) fn is_significant(&self) -> bool {
        matches!(self, AggKind::Extra(x) if matches!(**x, ExtraKind::Significant(_)))
    }

    /// Reads text from `_source` rather than a column, so text fields are accepted.
    pub(super) fn reads_source(&self) -> bool {
        matches!(self, AggKind::Extra(x) if matches!(&**x, ExtraKind::Significant(s) if s.text.is_some()))
    }
}

/// ES caps the filters of one `adjacency_matrix` (`index.max_adjacency_matrix_filters`).
const MAX_ADJACENCY_FILTERS: usize = 100;

fn parse_adjacency(name: &str, body: &Map<String, Value>) -> Result<ExtraKind> {
    let mut filters = Vec::new();
    let mut separator = "&".to_string();
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[adjacency_matrix] failed to parse field [{key}]"));
        match key.as_str() {
            "filters" => {
                for (filter_name, query) in value.as_object().ok_or_else(bad)? {
                    filters.push((filter_name.clone(), crate::query::dsl::parse_query(query)?));
                }
            }
            "separator" => separator = value.as_str().ok_or_else(bad)?.to_string(),
            _ => return Err(EngineError::XContentParse(format!("[adjacency_matrix] unknown field [{key}]"))),
        }
    }
    if filters.is_empty() {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("[filters] cannot be empty: [{name}]")));
    }
    if filters.len() > MAX_ADJACENCY_FILTERS {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
            "Number of filters is too large, must be less than or equal to: [{MAX_ADJACENCY_FILTERS}] but was [{}].",
            filters.len()
        ),
        ));
    }
    // Buckets come out sorted by key; sorting the filters makes pair keys `lower&higher`.
    filters.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(ExtraKind::AdjacencyMatrix { filters, separator })
}

/// `adjacency_matrix`: to the indexes of the filters a doc matches (ascending), adds
/// `n + i * n + j` for every matching pair `i < j`. Other kinds are left alone.
pub(super) fn adjacency_keys(kind: &AggKind, keys: &mut Vec<u64>) {
    let AggKind::Extra(x) = kind else { return };
    let ExtraKind::AdjacencyMatrix { filters, .. } = &**x else { return };
    let n = filters.len();
    let singles = keys.len();
    for a in 0..singles {
        for b in a + 1..singles {
            keys.push((n + keys[a] as usize * n + keys[b] as usize) as u64);
        }
    }
}

fn render_adjacency(
    req: &AggRequest,
    filters: &[(String, crate::query::ast::QueryAst)],
    separator: &str,
    buckets: &std::collections::HashMap<super::collect::BucketKey, super::collect::FruitBucket>,
) -> Value {
    let n = filters.len();
    let mut named: Vec<(String, &super::collect::FruitBucket)> = buckets
        .iter()
        .filter_map(|(key, b)| {
            let super::collect::BucketKey::Num(k) = key else { return None };
            let k = *k as usize;
            let name = if k < n {
                filters[k].0.clone()
            } else {
                let (i, j) = ((k - n) / n, (k - n) % n);
                format!("{}{separator}{}", filters[i].0, filters[j].0)
            };
            Some((name, b))
        })
        .filter(|(_, b)| b.count > 0)
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    let rendered: Vec<Value> = named
        .into_iter()
        .map(|(name, b)| {
            super::bucket_budget::consume();
            let mut obj = Map::new();
            obj.insert("key".into(), Value::String(name));
            if let Value::Object(rest) = render_missing(req, Some(b)) {
                obj.extend(rest);
            }
            Value::Object(obj)
        })
        .collect();
    serde_json::json!({ "buckets": rendered })
}

fn wrap(kind: ExtraKind) -> AggKind {
    AggKind::Extra(Box::new(kind))
}

/// `top_hits`: the per-search hits collector and one segment, to open one per bucket.
pub(super) type SegTopHits = (TopHitsCollector, SegmentOrdinal, SegmentReader);

/// Columns of aggregations reading several fields.
pub(super) enum SegColumns {
    Composite(SegSources),
    Matrix(MatrixColumns),
    Source(SourceText),
}

/// Per-segment state of `composite` and `matrix_stats` (columns) and `top_hits` (collector).
pub(super) fn open_segment(
    kind: &AggKind,
    segment: SegmentOrdinal,
    reader: &SegmentReader,
) -> tantivy::Result<(Option<SegColumns>, Option<SegTopHits>)> {
    let AggKind::Extra(x) = kind else { return Ok((None, None)) };
    match &**x {
        ExtraKind::Composite(spec) => Ok((Some(SegColumns::Composite(SegSources::open(spec, reader)?)), None)),
        ExtraKind::MatrixStats { fields } => Ok((Some(SegColumns::Matrix(MatrixColumns::open(fields, reader)?)), None)),
        ExtraKind::Significant(spec) => match &spec.text {
            Some(text) => Ok((Some(SegColumns::Source(SourceText::open(text, reader)?)), None)),
            None => Ok((None, None)),
        },
        ExtraKind::TopHits(spec) => {
            let collector = spec.collector();
            // Opened here once so a failure surfaces as an error, not an empty bucket later.
            collector.for_segment(segment, reader)?;
            Ok((None, Some((collector, segment, reader.clone()))))
        }
        _ => Ok((None, None)),
    }
}

/// True when some `top_hits` in the tree orders by (or tracks) relevance.
pub(super) fn needs_scores(reqs: &[AggRequest]) -> bool {
    reqs.iter().any(|r| {
        let here = matches!(&r.kind, AggKind::Extra(x) if matches!(&**x, ExtraKind::TopHits(s) if s.needs_scores()));
        here || needs_scores(&r.subs)
    })
}

/// `global` ignores the query, so it runs in a pass of its own over every document:
/// returns (top-level indexes of the `global` aggregations, the others' indexes). ES allows
/// `global` at the top level only.
pub fn split_global(reqs: &[AggRequest]) -> Result<(Vec<usize>, Vec<usize>)> {
    super::random_sampler::check_top_level(reqs)?;
    fn nested(reqs: &[AggRequest]) -> Option<&str> {
        reqs.iter().find_map(|r| {
            if matches!(&r.kind, AggKind::Extra(x) if **x == ExtraKind::Global) {
                Some(r.name.as_str())
            } else {
                nested(&r.subs)
            }
        })
    }
    if let Some(name) = reqs.iter().find_map(|r| nested(&r.subs)) {
        return Err(agg_err(format!("Aggregator [{name}] of type [global] cannot be added as a sub-aggregation")));
    }
    let is_global = |r: &AggRequest| matches!(&r.kind, AggKind::Extra(x) if **x == ExtraKind::Global);
    let (global, rest): (Vec<usize>, Vec<usize>) = (0..reqs.len()).partition(|i| is_global(&reqs[*i]));
    Ok((global, rest))
}

pub(super) fn render(req: &AggRequest, kind: &ExtraKind, fruit: &AggFruit) -> Value {
    let values: &[f64] = match fruit {
        AggFruit::Values(v) => v,
        _ => &[],
    };
    match kind {
        ExtraKind::Percentiles { percents, keyed, .. } => render_percentiles(req, values, percents, *keyed),
        ExtraKind::PercentileRanks { values: targets, keyed, .. } => {
            render_percentile_ranks(req, values, targets, *keyed)
        }
        ExtraKind::MedianAbsoluteDeviation { .. } => render_mad(values),
        ExtraKind::MatrixStats { fields } => super::matrix_stats::render(fields, values),
        ExtraKind::TopHits(spec) => match fruit {
            AggFruit::TopHits(hits) => render_top_hits(spec, hits),
            _ => Value::Null,
        },
        ExtraKind::Global => match fruit {
            AggFruit::Buckets(b) => render_missing(req, b.values().next()),
            _ => Value::Null,
        },
        ExtraKind::Composite(spec) => match fruit {
            AggFruit::Buckets(b) => render_composite(req, spec, b),
            _ => Value::Null,
        },
        ExtraKind::AdjacencyMatrix { filters, separator } => match fruit {
            AggFruit::Buckets(b) => render_adjacency(req, filters, separator, b),
            _ => Value::Null,
        },
        ExtraKind::RareTerms { max_doc_count } => match fruit {
            AggFruit::Buckets(b) => super::render::render_rare_terms(req, b, *max_doc_count),
            _ => Value::Null,
        },
        ExtraKind::Significant(spec) => match fruit {
            AggFruit::Buckets(b) => super::significant::render(req, spec, b),
            _ => Value::Null,
        },
        ExtraKind::VariableWidth(spec) => super::variable_width::render(values, spec),
        ExtraKind::RandomSampler(spec) => match fruit {
            AggFruit::Buckets(b) => super::random_sampler::render(req, spec, b.values().next()),
            _ => Value::Null,
        },
    }
}
