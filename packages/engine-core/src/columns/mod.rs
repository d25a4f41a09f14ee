//! Per-segment data derived from fast-field columns, built once per immutable segment and
//! cached: zone maps (min/max per block), bit-packed copies of unordered columns, a double
//! column's sort order (for range counts), the list of a segment's deleted documents, and the
//! cache that holds them by segment.
//!
//! Layer: a leaf. Uses only `error` (ARCHITECTURE.md).

pub mod deleted_docs;
pub mod double_ranks;
pub mod packed_values;
pub mod segment_cache;
pub mod zone_map;

/// The first index in `0..n` where `pred` turns false (`pred` holds on a prefix): a binary
/// search over positions whose values are read through `pred` (sort ranks, `sort_rank.rs` and
/// `double_ranks.rs`).
pub fn partition_point(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, n);
    while low < high {
        let mid = low + (high - low) / 2;
        if pred(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}
