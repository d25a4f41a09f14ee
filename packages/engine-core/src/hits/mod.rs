//! Hits: what orders and picks the documents a search returns, shared by the search itself and
//! the `top_hits` aggregation. Sort specs and their per-segment keys (`sort`, `sort_key`,
//! `geo_sort`), `search_after` positions, the top-N collectors with their sort values
//! (`top_hits`) and the per-hit metadata switches (`doc_meta`).
//!
//! Layer: hits, beside `query/`. Uses `store/`, the value types and the leaves (ARCHITECTURE.md).

pub mod doc_meta;
pub mod geo_sort;
pub mod order;
pub mod search_after;
pub mod sort;
pub(crate) mod sort_key;
pub mod top_hits;
