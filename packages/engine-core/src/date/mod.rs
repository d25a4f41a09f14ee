//! Dates as ES reads and writes them: formats (`format.rs`), date math (`math.rs`), range
//! bounds (`bound.rs`), Java patterns (`pattern.rs`), time zones (`zone.rs`) and the rounding
//! of date histograms (`rounding.rs`).
//!
//! Layer: a leaf. Uses only `error` (ARCHITECTURE.md).

pub mod bound;
mod format;
mod iso_text;
pub mod math;
pub mod pattern;
pub mod rounding;
pub mod zone;

pub use format::*;

/// The wall clock in epoch milliseconds: what `now` means in date math and scripts.
pub(crate) fn now_ms() -> i64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
