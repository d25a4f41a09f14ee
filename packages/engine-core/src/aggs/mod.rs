//! Aggregations, in tantivy's `aggregation/` shape: the request tree (`request.rs`, each
//! type's options in `options.rs`, parsed by type name in `dispatch.rs`), one file per
//! aggregation type under `bucket/` and `metric/` behind one trait (`aggregation.rs`:
//! parse, field types, render),
//! an exact per-segment collector over fast fields (`collect/`), the intermediate result that
//! merges across segments (`intermediate.rs`) and the final rendering (`render.rs`).
//! We collect ourselves rather than through tantivy's aggregation module because ES
//! semantics differ there: tantivy's terms counts are approximate across segments and its
//! date_histogram has no calendar intervals.
//!
//! Layer: aggregations, below `search/`. Uses `hits/`, `query/`, `store/` and below
//! (ARCHITECTURE.md).

pub mod aggregation;
pub mod bucket;
pub(crate) mod bucket_budget;
pub mod collect;
pub mod dispatch;
pub mod geo;
pub mod intermediate;
pub(crate) mod ip_terms_select;
pub mod metric;
pub mod multi_index;
pub mod options;
pub mod pipeline;
pub mod render;
pub mod request;
pub mod typed_keys;

pub use bucket::filters::{filter_weights, lone_filter};
pub use bucket_budget::MAX_BUCKETS;
pub use collect::AggCollector;
pub use dispatch::{parse_aggs, split_global};
pub use intermediate::{AggFruit, BucketKey, FruitBucket};
pub use metric::top_hits::HitsContext;
pub use options::{OrderBy, OrderKey, TermsOrder};
pub use render::{render_aggs, write_aggs};
pub use request::{AggField, AggKind, AggRequest, Interval, MetricOp, RangeKeys, RangeSpec};
