//! Per-segment data derived from fast-field columns, built once per immutable segment and
//! cached: zone maps (min/max per block), bit-packed copies of unordered columns, a double
//! column's sort order (for range counts), the list of a segment's deleted documents, and the
//! cache that holds them by segment.

pub mod deleted_docs;
pub mod double_ranks;
pub mod packed_values;
pub mod segment_cache;
pub mod zone_map;
