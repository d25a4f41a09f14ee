//! The options each aggregation type's request carries (`request::AggKind`'s payloads),
//! kept together and apart from the types' behaviour (the files under `bucket/` and
//! `metric/` implement them), as tantivy keeps its request types in `agg_req.rs`.

use std::sync::Arc;

use serde_json::Value;
use tantivy::query::Query;
use tantivy::schema::Field;

use super::bucket::heuristic::Heuristic;
use crate::date::rounding::{Bounds, Interval, KeyFormat, Rounding};
use crate::date::zone::DateZone;
use crate::geo::distance::DistanceType;
use crate::geo::parse::GeoPoint;
use crate::hits::sort::SortSpec;
use crate::query::ast::QueryAst;
use crate::store::mapping::FieldType;
use crate::store::source_filter::SourceFilter;

// `auto_date_histogram`

#[derive(Debug, Clone, PartialEq)]
pub struct AutoDateSpec {
    pub target: usize,
    /// Index into the ladder of the finest rung (`minimum_interval`).
    pub first_rung: usize,
    pub key_format: KeyFormat,
}

// `date_histogram`

/// The options beyond the interval and `min_doc_count`; the defaults are plain UTC buckets.
#[derive(Debug, Clone, PartialEq)]
pub struct DateHistogramOpts {
    pub key_format: KeyFormat,
    pub offset_ms: i64,
    /// Already rounded down (without the offset), as ES stores them.
    pub extended_bounds: Option<Bounds>,
    pub hard_bounds: Option<Bounds>,
    pub keyed: bool,
}

impl Default for DateHistogramOpts {
    fn default() -> Self {
        DateHistogramOpts {
            key_format: KeyFormat::iso(DateZone::Utc),
            offset_ms: 0,
            extended_bounds: None,
            hard_bounds: None,
            keyed: false,
        }
    }
}

impl DateHistogramOpts {
    pub fn rounding(&self, interval: Interval) -> Rounding {
        Rounding { interval, zone: self.key_format.zone, offset_ms: self.offset_ms }
    }
}

// `composite`

#[derive(Debug, Clone, PartialEq)]
pub enum SourceKind {
    Terms,
    Histogram(f64),
    /// The interval rounded in the source's `time_zone`, shifted by its `offset`.
    DateHistogram(Rounding),
    /// `geotile_grid`: the map tile (at this zoom) of each point (`geo/tile.rs`).
    GeoTile(u32),
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompositeSource {
    pub name: String,
    pub kind: SourceKind,
    /// The tantivy field and its type; `None` when unmapped (every doc is then missing).
    pub field: Option<(String, FieldType)>,
    pub desc: bool,
    pub missing_bucket: bool,
    /// A date source's `format`: keys (and `after_key`) shown as text, `after` read from it.
    pub format: Option<SourceFormat>,
}

/// A date source's `format`: how its keys print, and the formats (in its zone) that read `after`.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFormat {
    pub key: crate::date::rounding::KeyFormat,
    pub parse: Vec<crate::date::DateFormat>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompositeSpec {
    pub size: usize,
    pub sources: Vec<CompositeSource>,
    pub after: Option<Vec<Value>>,
}

// `nested`

#[derive(Debug, Clone, PartialEq)]
pub enum Join {
    /// `nested`: each document's objects at `path`. `None` when the path is unmapped (ES
    /// answers an empty bucket then). `inside[p]`: path `p` lies inside the parents' level,
    /// which bounds the walk back over a parent's block.
    Objects { path: Option<usize>, inside: Vec<bool> },
    /// `reverse_nested`: each object's ancestor at `target` (`None`: the root document).
    Parents { target: Option<usize>, unmapped: bool },
}

// `random_sampler`

#[derive(Debug, Clone, PartialEq)]
pub struct SamplerSpec {
    pub probability: f64,
    /// The request's `seed`, or (as ES) a random one, echoed in the response either way.
    pub seed: i32,
    pub shard_seed: Option<i32>,
}

// `significant`

#[derive(Debug, Clone, PartialEq)]
pub struct SignificantSpec {
    pub size: usize,
    pub shard_size: usize,
    pub min_doc_count: u64,
    pub shard_min_doc_count: u64,
    pub heuristic: Heuristic,
    pub background: Option<Background>,
    pub include: Option<TermFilter>,
    pub exclude: Option<TermFilter>,
    /// `significant_text`: the `_source` paths re-analyzed per document.
    pub text: Option<TextSource>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextSource {
    pub source_paths: Vec<String>,
    pub source_field: Field,
    /// `filter_duplicate_text`: runs of tokens seen in earlier documents are not counted.
    pub filter_duplicate_text: bool,
}

/// `background_filter`, lowered once at parse time (the query needs the mapping, which
/// rendering does not have). Equality follows the DSL.
#[derive(Clone)]
pub struct Background {
    pub ast: QueryAst,
    pub(crate) query: Arc<dyn Query>,
}

impl PartialEq for Background {
    fn eq(&self, other: &Self) -> bool {
        self.ast == other.ast
    }
}

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.ast.fmt(f)
    }
}

/// `include`/`exclude`: a list of exact terms, or a regular expression over the whole term.
#[derive(Debug, Clone, PartialEq)]
pub enum TermFilter {
    Exact(Vec<String>),
    Pattern(String),
}

// `terms`

/// `include` / `exclude` (`terms.rs`): applied to the exact per-term counts before sizing,
/// as ES filters terms before it counts them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TermsFilter {
    pub include: Option<TermSelect>,
    pub exclude: Option<TermSelect>,
    /// `show_term_doc_count_error`: each bucket shows its error bound (always 0 here: counts
    /// are exact on one shard).
    pub show_error: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TermSelect {
    /// Terms as text (numbers in their shown form), or a regular expression over whole terms.
    Terms(TermFilter),
    /// Numeric terms by value.
    Numbers(Vec<f64>),
    /// `{partition, num_partitions}`: the terms whose hash falls in this partition.
    Partition { partition: u32, of: u32 },
}

// `histogram`

/// The options of a numeric `histogram` beyond `interval` and `min_doc_count`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HistogramOpts {
    pub offset: f64,
    /// `extended_bounds`: empty buckets from `min` to `max` (with `min_doc_count` 0).
    pub extended_bounds: Option<(Option<f64>, Option<f64>)>,
    /// `hard_bounds`: buckets outside `[min, max]` are dropped.
    pub hard_bounds: Option<(Option<f64>, Option<f64>)>,
    pub keyed: bool,
    /// `order`: `None` keeps key order ascending.
    pub order: Option<TermsOrder>,
}

// `terms_order`

#[derive(Debug, Clone, PartialEq)]
pub struct TermsOrder(pub Vec<OrderKey>);

#[derive(Debug, Clone, PartialEq)]
pub struct OrderKey {
    pub by: OrderBy,
    pub asc: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OrderBy {
    Count,
    Key,
    /// The sub-aggregation at this index; `stat` names a value of a multi-value metric (or
    /// `doc_count` of a single-bucket one). `inner`: the names below it when the path goes
    /// through single-bucket aggregations (`filtered>avg_price`), empty otherwise.
    Metric {
        sub: usize,
        stat: Option<String>,
        inner: Vec<String>,
    },
}

// `variable_width`

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WidthSpec {
    pub buckets: usize,
    pub shard_size: usize,
    pub initial_buffer: usize,
}

// `matrix_stats`

/// A field: its name in the request and its tantivy column (`true`: f64 column).
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixField {
    pub name: String,
    pub column: String,
    pub is_f64: bool,
}

// `weighted_avg`

#[derive(Debug, Clone, PartialEq)]
pub struct WeightedSpec {
    /// `None`: the field is unmapped, so only `missing` can supply values.
    pub value: Option<MatrixField>,
    pub value_missing: Option<f64>,
    pub weight: Option<MatrixField>,
    pub weight_missing: Option<f64>,
}

// `top_hits`

#[derive(Debug, Clone, PartialEq)]
pub struct TopHitsSpec {
    pub size: usize,
    pub from: usize,
    /// `None`: relevance order, and hits carry no `sort` values.
    pub sort: Option<Vec<SortSpec>>,
    pub source: SourceFilter,
    pub track_scores: bool,
    /// `version` / `seq_no_primary_term`: each hit shows its `_version` / `_seq_no` and `_primary_term`.
    pub meta: crate::hits::doc_meta::DocMeta,
}

// `range`, `date_range`, `ip_range`, `geo_distance`, `geohash_grid`

/// How range bounds are shown: numbers (`range`) or dates (`date_range`: ISO or `format`,
/// in its `time_zone`).
#[derive(Debug, Clone, PartialEq)]
pub enum RangeKeys {
    Numeric,
    Date(crate::date::rounding::KeyFormat),
}

/// One `range` bucket: `[from, to)`, optional custom key.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeSpec {
    pub from: Option<f64>,
    pub to: Option<f64>,
    pub key: Option<String>,
}

impl RangeSpec {
    #[inline]
    pub fn contains(&self, v: f64) -> bool {
        self.from.is_none_or(|f| v >= f) && self.to.is_none_or(|t| v < t)
    }
}

/// One bucket: `[from, to)` as 128-bit addresses (`None`: open), and its key.
#[derive(Debug, Clone, PartialEq)]
pub struct IpRangeBucket {
    pub from: Option<u128>,
    pub to: Option<u128>,
    pub key: String,
}

/// `ip_range`'s buckets (collected in `bucket::ip_range`).
#[derive(Debug, Clone, PartialEq)]
pub struct IpRangeSpec {
    pub ranges: Vec<IpRangeBucket>,
    pub keyed: bool,
}

/// `geohash_grid` and `geo_distance` (collected in `aggs::geo`, which holds its per-point keys).
#[derive(Debug, Clone, PartialEq)]
pub enum GeoAgg {
    Grid {
        precision: u8,
        size: usize,
        /// (top, bottom, left, right): only points inside count.
        bounds: Option<(f64, f64, f64, f64)>,
    },
    Distance {
        origin: GeoPoint,
        unit_meters: f64,
        distance_type: DistanceType,
        ranges: Vec<RangeSpec>,
        keyed: bool,
    },
}
