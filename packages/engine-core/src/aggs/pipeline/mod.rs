//! Pipeline aggregations, computed after collection on the rendered aggregation tree, as
//! ES computes them in its final reduce. A pipeline is parsed into an
//! [`AggKind::Pipeline`](crate::aggs::AggKind) request that collects nothing and renders
//! as a placeholder; [`validate`] checks the tree before rendering and [`apply`] replaces
//! the placeholders (or drops and reorders buckets) after it.

mod apply;
mod parent;
pub mod path;
mod sibling;
pub mod spec;
mod validate;
mod values;

pub use apply::apply;
pub use spec::{parse, GapPolicy, PipelineKind, PipelineSpec, PIPELINE_TYPES};
pub use validate::validate;

pub fn is_pipeline(type_name: &str) -> bool {
    PIPELINE_TYPES.contains(&type_name)
}
