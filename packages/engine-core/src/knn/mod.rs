//! k-nearest-neighbour search in two dialects: OpenSearch's k-NN plugin (`knn_vector`
//! mappings with `dimension` and `method.space_type`, the `knn` query) and Elasticsearch 8
//! (`dense_vector` mappings, the top-level `knn` search section, see `top_level`).
//!
//! Search is an exact scan, not an approximate graph: every live vector of every segment is
//! compared with the query vector, so recall is 1.0 by construction. Vectors are indexed as
//! a bytes fast field (little-endian f32) and decoded once per immutable segment into one
//! contiguous array, plus an 8-bit copy (`quantized`) that the first pass walks front to
//! back; its error is bounded, and only rows that bound cannot rule out are compared exactly.

mod cache;
mod dense_vector;
mod distance;
mod document;
mod dsl;
mod es_query;
mod field;
mod index_options;
mod quantized;
mod query;
mod restore_dims;
mod space;
mod spec;
mod top_level;
mod vector_checks;

pub use crate::query::ast::{KnnAst, KnnDialect};
pub use dense_vector::{render_mappings, DENSE_VECTOR_TYPE};
pub use document::add_vectors;
pub use dsl::parse_knn;
pub use field::{add_vector_fields, parse_vector_specs, SpaceType, KNN_VECTOR_TYPE};
pub use query::lower_knn;
pub use restore_dims::restore_inferred_dims;
pub use space::ElementType;
pub use spec::{VectorField, VectorSpec};
pub use top_level::with_top_level_knn;
