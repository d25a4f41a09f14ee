//! k-nearest-neighbour search over `knn_vector` fields, in the OpenSearch k-NN plugin's
//! dialect: the mapping (`dimension`, `method.space_type`), the `knn` query and its scores.
//!
//! Search is an exact scan, not an approximate graph: every live vector of every segment is
//! compared with the query vector, so recall is 1.0 by construction. Vectors are indexed as
//! a bytes fast field (little-endian f32) and decoded once per immutable segment into one
//! contiguous array that the distance loop walks front to back.

mod cache;
mod distance;
mod document;
mod dsl;
mod field;
mod query;

pub use document::add_vectors;
pub use dsl::{parse_knn, KnnAst};
pub use field::{add_vector_fields, parse_vector_specs, SpaceType, VectorField, VectorSpec, KNN_VECTOR_TYPE};
pub use query::lower_knn;
