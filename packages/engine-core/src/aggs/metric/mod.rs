//! Metric aggregations, one file per type (`percentiles`, `percentile_ranks` and
//! `median_absolute_deviation` share `quantiles.rs`).

pub mod cardinality;
pub mod hdr;
pub mod matrix_stats;
pub mod quantiles;
pub mod scripted_metric;
pub mod stats;
pub mod top_hits;
pub mod weighted_avg;
