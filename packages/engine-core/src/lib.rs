//! everycell engine core: an Elasticsearch-compatible subset over tantivy. Plain Rust,
//! covered by `cargo test`; the napi crate is a thin skin over [`engine::Engine`].

pub mod aggs;
pub mod analysis;
pub mod analyzers;
pub mod columns;
pub mod completion;
pub mod date;
pub mod engine;
pub mod error;
pub mod geo;
pub mod highlight;
pub mod hits;
pub mod ip;
pub mod json_source;
pub mod knn;
pub mod number;
pub(crate) mod parallel;
pub mod query;
pub mod range_field;
pub mod script;
pub mod search;
pub mod store;
pub mod strict_json;
pub mod suggest;
pub mod wildcard;

pub use engine::Engine;
pub use error::{EngineError, Result};
pub use query::tantivy::query_cache::entries as query_cache_entries;
