//! Where documents live: an index (`index.rs`: tantivy index, writer, reader, refresh), its
//! mapping and settings, the translog that makes writes durable before a commit, and the
//! writes themselves (`bulk.rs`, single documents in `writes.rs`) and reads by id (`get.rs`).
//!
//! Layer: the store, below `query/` and `hits/`. Uses the value types and the leaves
//! (ARCHITECTURE.md).

pub mod blocks;
pub mod bulk;
pub mod bulk_action;
pub mod bulk_item;
pub mod codec;
pub mod counters;
pub mod document;
pub mod dynamic;
pub mod get;
pub(crate) mod hit_fields;
pub mod ids;
pub mod ignored;
pub mod index;
pub mod mapping;
pub mod mapping_update;
pub mod memory_release;
pub mod names;
pub mod nested_documents;
pub mod nested_levels;
pub mod routing;
pub mod segment_files;
pub mod settings;
pub mod settings_limits;
pub mod similarity;
pub mod source_filter;
pub mod translog;
pub mod value_format;
pub mod versioning;
pub mod writes;
