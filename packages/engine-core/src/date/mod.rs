//! Dates as ES reads and writes them: formats (`format.rs`), date math (`math.rs`), range
//! bounds (`bound.rs`), Java patterns (`pattern.rs`), time zones (`zone.rs`) and the rounding
//! of date histograms (`rounding.rs`).

pub mod bound;
mod format;
mod iso_text;
pub mod math;
pub mod pattern;
pub mod rounding;
pub mod zone;

pub use format::*;
