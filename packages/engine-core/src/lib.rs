//! everycell engine core: an Elasticsearch-compatible subset over tantivy. Plain Rust,
//! covered by `cargo test`; the napi crate is a thin skin over [`engine::Engine`].

pub mod aggs;
pub mod ast;
pub mod bulk;
pub mod date;
pub mod date_math;
pub mod document;
pub mod dsl;
pub mod engine;
pub mod error;
pub mod ids;
pub mod index;
pub mod lower;
pub mod mapping;
pub mod names;
pub mod search;
pub mod settings;
pub mod translog;

pub use engine::Engine;
pub use error::{EngineError, Result};
