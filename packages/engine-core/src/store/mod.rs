//! Where documents live: an index (`index.rs`: tantivy index, writer, reader, refresh), its
//! mapping and settings, the translog that makes writes durable before a commit, and the
//! writes themselves (`bulk.rs`, single documents in `writes.rs`) and reads by id (`get.rs`).

pub mod blocks;
pub mod bulk;
pub mod bulk_action;
pub mod counters;
pub mod document;
pub mod dynamic;
pub mod get;
pub mod ids;
pub mod ignored;
pub mod index;
pub mod mapping;
pub mod mapping_update;
pub mod memory_release;
pub mod names;
pub mod routing;
pub mod segment_files;
pub mod settings;
pub mod settings_limits;
pub mod translog;
pub mod versioning;
pub mod writes;
