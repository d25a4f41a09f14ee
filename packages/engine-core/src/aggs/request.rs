//! The aggregation request tree: every aggregation type's options in one enum (`AggKind`,
//! payloads in `options.rs`) and the field each reads. `dispatch.rs` parses it by type name.

use super::options::{
    AutoDateSpec, CompositeSpec, DateHistogramOpts, HistogramOpts, Join, MatrixField, SamplerSpec, SignificantSpec,
    TermsFilter, TermsOrder, TopHitsSpec, WeightedSpec, WidthSpec,
};
pub use super::options::{RangeKeys, RangeSpec};
pub use crate::date::rounding::Interval;
use crate::query::ast::QueryAst;
use crate::store::mapping::FieldType;
use crate::store::value_format::{AggMissing, ValueFormat};

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
    /// `avg`, `sum`, `min`, `max`, `value_count`, `stats`, `extended_stats` (and the
    /// recognised `scripted_metric` shape, a sum).
    Metric {
        op: MetricOp,
        /// `extended_stats`' `sigma`: how many standard deviations its bounds lie from the mean.
        sigma: f64,
    },
    Terms {
        size: usize,
        min_doc_count: u64,
        order: TermsOrder,
        /// `include`/`exclude` and `show_term_doc_count_error` (`None`: neither given).
        filter: Option<Box<TermsFilter>>,
    },
    DateHistogram {
        interval: Interval,
        min_doc_count: u64,
        /// Zone, offset, bounds and key format (`date_histogram.rs`).
        opts: Box<DateHistogramOpts>,
    },
    /// Buckets at an interval picked to stay within a target count (`auto_date_histogram.rs`).
    AutoDateHistogram(Box<AutoDateSpec>),
    /// Exact distinct count (collected like terms; ES is exact too below 3000 values).
    Cardinality,
    Histogram {
        interval: f64,
        min_doc_count: u64,
        /// `offset`, bounds, `keyed`, `order` (`histogram.rs`).
        opts: Box<HistogramOpts>,
    },
    /// `geohash_grid` and `geo_distance` (`aggs/geo.rs`).
    Geo(Box<crate::aggs::options::GeoAgg>),
    Range {
        ranges: Vec<RangeSpec>,
        keys: RangeKeys,
        /// `keyed`: buckets as an object by key.
        keyed: bool,
    },
    /// One bucket: documents with no value in the field.
    Missing,
    /// One bucket per query (`filter` is the single-bucket form).
    Filters {
        buckets: Vec<(String, QueryAst)>,
        keyed: bool,
        single: bool,
        /// `other_bucket`: the key of the bucket for documents no filter matches.
        other: Option<String>,
    },
    /// A pipeline aggregation: collects nothing, computed on the rendered tree.
    Pipeline(Box<crate::aggs::pipeline::spec::PipelineSpec>),
    /// `nested` / `reverse_nested`: one bucket of the joined documents (`nested.rs`).
    Join(Join),
    Percentiles {
        percents: Vec<f64>,
        keyed: bool,
        missing: Option<f64>,
        /// `hdr.number_of_significant_value_digits` (`None`: the t-digest method).
        hdr: Option<u8>,
    },
    PercentileRanks {
        values: Vec<f64>,
        keyed: bool,
        missing: Option<f64>,
        /// `hdr.number_of_significant_value_digits` (`None`: the t-digest method).
        hdr: Option<u8>,
    },
    MedianAbsoluteDeviation {
        missing: Option<f64>,
    },
    TopHits(Box<TopHitsSpec>),
    /// One bucket holding every document of the index, whatever the query.
    Global,
    /// Terms whose doc count is at most `max_doc_count`, collected exactly (ES uses a cuckoo
    /// filter whose false positives can only drop terms; exact counting never does).
    RareTerms {
        max_doc_count: u64,
        /// `include` / `exclude` (`None`: neither given).
        filter: Option<Box<TermsFilter>>,
    },
    Composite(Box<CompositeSpec>),
    MatrixStats {
        fields: Vec<MatrixField>,
    },
    /// A bucket per filter and per pair of filters matching together (`A`, `A&B`), by name.
    AdjacencyMatrix {
        filters: Vec<(String, QueryAst)>,
        separator: String,
    },
    /// `significant_terms` (keyword columns) and `significant_text` (re-analyzed `_source`).
    Significant(Box<SignificantSpec>),
    VariableWidth(Box<WidthSpec>),
    /// One bucket of a seeded random sample of the matches (`random_sampler.rs`).
    RandomSampler(Box<SamplerSpec>),
    /// One bucket of the `shard_size` best-scoring matches of each index (`sampler.rs`).
    Sampler {
        shard_size: usize,
    },
    /// `sum(value * weight) / sum(weight)` (`weighted_avg.rs`).
    WeightedAvg(Box<WeightedSpec>),
    /// `ip_range`: buckets of address ranges and CIDR masks (`aggs/bucket/ip_range.rs`).
    IpRange(Box<crate::aggs::options::IpRangeSpec>),
}

/// The field an aggregation reads, resolved against the mapping (`None` when unmapped).
#[derive(Debug, Clone, PartialEq)]
pub struct AggField {
    pub name: String,
    pub resolved: Option<(String, FieldType)>,
    /// `missing`: what a document without a value counts as (metrics, `terms`, `histogram`).
    pub missing: Option<AggMissing>,
    /// `format` of `key_as_string` / `value_as_string` (metrics, `terms`, `histogram`).
    pub format: Option<ValueFormat>,
    /// `value_type`: the type an unmapped field's values (its `missing`) take (ES's `ValueType`).
    pub value_type: Option<FieldType>,
}

impl AggField {
    pub fn named(name: impl Into<String>) -> AggField {
        AggField { name: name.into(), resolved: None, missing: None, format: None, value_type: None }
    }

    /// The type values are read and shown as: the mapped one, else `value_type`.
    pub fn value_type(&self) -> Option<FieldType> {
        self.resolved.as_ref().map(|r| r.1).or(self.value_type)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct AggRequest {
    pub name: String,
    pub kind: AggKind,
    pub field: AggField,
    pub subs: Vec<AggRequest>,
    /// `meta`: an object echoed back as the aggregation's `meta` (ES's metadata).
    pub meta: Option<Box<serde_json::Value>>,
}

impl AggKind {
    /// Keyed by field value like `terms` (keyword buckets become strings at harvest).
    pub fn is_terms_like(&self) -> bool {
        match self {
            AggKind::Terms { .. } | AggKind::RareTerms { .. } => true,
            AggKind::Significant(spec) => spec.text.is_none(),
            _ => false,
        }
    }

    /// `significant_*`: the foreground size is counted besides the term buckets.
    pub fn is_significant(&self) -> bool {
        matches!(self, AggKind::Significant(_))
    }

    /// Reads text from `_source` rather than a column, so text fields are accepted.
    pub fn reads_source(&self) -> bool {
        matches!(self, AggKind::Significant(s) if s.text.is_some())
    }

    /// The quantile aggregations keep every value of the field, matrix_stats every row.
    pub fn collects_values(&self) -> bool {
        matches!(
            self,
            AggKind::Percentiles { .. }
                | AggKind::PercentileRanks { .. }
                | AggKind::MedianAbsoluteDeviation { .. }
                | AggKind::MatrixStats { .. }
                | AggKind::VariableWidth(_)
        )
    }

    /// The quantiles' `missing` value, collected for a document without one.
    pub fn missing_value(&self) -> Option<f64> {
        match self {
            AggKind::Percentiles { missing, .. }
            | AggKind::PercentileRanks { missing, .. }
            | AggKind::MedianAbsoluteDeviation { missing } => *missing,
            _ => None,
        }
    }
}

/// True when some `top_hits` in the tree orders by (or tracks) relevance.
pub fn needs_scores(reqs: &[AggRequest]) -> bool {
    reqs.iter().any(|r| {
        let here = matches!(&r.kind, AggKind::TopHits(s) if s.needs_scores());
        here || needs_scores(&r.subs)
    })
}
