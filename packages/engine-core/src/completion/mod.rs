//! The `completion` field type as a value: its mapping parameters and context mappings, and how
//! a document's inputs are indexed. The suggesters that read it are `suggest/`, above the query
//! layer; this sits below the store, which maps and indexes the field.
//!
//! Layer: value types, below `store/`. Uses `geo/` and the leaves (ARCHITECTURE.md).

pub mod contexts;
pub mod field;
