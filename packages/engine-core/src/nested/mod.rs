//! `nested` objects, stored as Lucene's block join stores them: each object of a document is
//! a hidden document of its own, written just before its parent in one indexing batch, so a
//! segment holds every document's objects directly before it (post-order: an object's own
//! nested objects come before the object). Merges keep that order.
//!
//! - `documents`: the hidden documents of one source document.
//! - `levels`: a segment's column of paths, and the walks between a document and its objects.
//! - `query`: the `nested` query, joining matching objects to their parents (score modes).
//! - `root_only`: top-level queries see root documents only, as in ES.

pub mod documents;
pub mod levels;
pub mod query;
mod root_only;

pub use root_only::{root_only, root_only_query};
