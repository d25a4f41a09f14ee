//! Bucket aggregations, one file per type (ES pairs some: `range`/`date_range`,
//! `filter`/`filters`, `nested`/`reverse_nested`, `significant_terms`/`significant_text`).

pub mod adjacency_matrix;
pub mod auto_date_histogram;
mod auto_date_ladder;
pub mod composite;
pub mod composite_segment;
pub mod date_histogram;
pub mod filters;
pub mod global;
pub(crate) mod heuristic;
pub mod histogram;
pub mod ip_range;
pub mod missing;
pub mod nested;
pub mod random_sampler;
pub mod range;
pub mod rare_terms;
pub mod sampler;
pub mod significant;
pub(crate) mod source_text;
pub mod terms;
mod terms_filter;
pub mod terms_order;
pub mod text_dedup;
pub mod variable_width;
