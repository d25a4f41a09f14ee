//! k-nearest-neighbour search in two dialects: OpenSearch's k-NN plugin (`knn_vector`
//! mappings with `dimension` and `method.space_type`, the `knn` query) and Elasticsearch 8
//! (`dense_vector` mappings, the top-level `knn` search section).
//!
//! This folder holds the vector field itself: mappings, document checks, the segment vector
//! cache, distances, quantisation and the graph. The queries that use it sit in the query layer above:
//! `query::dsl::knn` (the `knn` query), `query::dsl::knn_top_level` (ES 8's section),
//! `query::lower::knn_es` and `query::lower::knn` (the scan).
//!
//! Vectors are indexed as a bytes fast field (little-endian f32) and decoded once per immutable
//! segment into one contiguous array, plus an 8-bit copy (`quantized`). A segment is searched
//! by an exact scan: the first pass walks the 8-bit copy front to back; its error is bounded,
//! and only rows that bound cannot rule out are compared exactly, so recall is 1.0. A segment
//! of at least `graph::GRAPH_MIN_ROWS` vectors also gets an HNSW graph, built in the
//! background; once it is ready, unfiltered searches take that segment's candidates from the
//! graph (approximate, recall measured by the harness's `knn.recall` row) and score them exactly.
//!
//! Layer: value types, below `store/`. Uses only the leaves (ARCHITECTURE.md).

pub(crate) mod cache;
pub(crate) mod dense_vector;
pub(crate) mod distance;
pub(crate) mod document;
pub(crate) mod field;
pub(crate) mod graph;
pub(crate) mod index_options;
pub(crate) mod quantized;
pub(crate) mod restore_dims;
pub(crate) mod space;
pub(crate) mod spec;
pub(crate) mod vector_checks;

pub use dense_vector::{render_mappings, DENSE_VECTOR_TYPE};
pub use document::add_vectors;
pub use field::{add_vector_fields, parse_vector_specs, SpaceType, KNN_VECTOR_TYPE};
pub use restore_dims::restore_inferred_dims;
pub use space::ElementType;
pub use spec::{VectorField, VectorSpec};
