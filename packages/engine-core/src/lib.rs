//! everycell engine core: an Elasticsearch-compatible subset over tantivy. Plain Rust,
//! covered by `cargo test`; the napi crate is a thin skin over [`engine::Engine`].

pub mod aggs;
pub mod ast;
pub mod bulk;
pub mod column_docset;
pub mod column_range;
pub mod counting_disjunction;
pub mod date;
pub mod date_bound;
pub mod date_math;
pub mod date_pattern;
pub mod date_zone;
pub mod delete_by_query;
pub mod doc_writes;
pub mod document;
pub mod dsl;
pub mod engine;
pub mod error;
pub mod get;
pub mod highlight;
pub mod ids;
pub mod index;
pub mod knn;
pub mod limits;
pub mod lower;
pub mod lower_multi_term;
pub mod mapping;
pub mod memory_release;
pub mod msearch;
pub mod names;
pub mod nested;
mod packed_values;
pub mod pipeline;
mod query_cache;
pub mod regex_cache;
pub mod script;
pub mod search;
pub mod segment_cache;
pub mod settings;
pub mod standard_tokenizer;
pub mod translog;
pub mod zone_map;

pub use engine::Engine;
pub use error::{EngineError, Result};
pub use query_cache::entries as query_cache_entries;
