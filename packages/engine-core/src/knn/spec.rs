//! The vector field types both dialects' mappings produce: a field as declared
//! (`VectorSpec`) and as indexed (`VectorField`), with what only ES `dense_vector` has.

use std::sync::{Arc, OnceLock};

use serde_json::Value;
use tantivy::schema::Field;

use super::cache::VectorCache;
use super::graph::GraphMetric;
use super::space::{ElementType, SpaceType};

/// A vector field as declared, before it has a tantivy field.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorSpec {
    pub name: String,
    /// `None`: an ES `dense_vector` without `dims`, set by the first document that has one.
    pub dimension: Option<usize>,
    pub space: SpaceType,
    pub element: ElementType,
    /// `Some` for ES `dense_vector` fields: what their errors and `GET _mapping` need.
    pub dense: Option<DenseVectorOptions>,
}

#[derive(Debug, Clone)]
pub struct VectorField {
    /// Full dotted ES name; also the path of the value in `_source`.
    pub name: String,
    /// Set once: from the mapping, or by the first document (shared by every clone of the
    /// mapping, so the writer and searches see the same value).
    pub dims: Arc<OnceLock<usize>>,
    pub space: SpaceType,
    pub element: ElementType,
    pub dense: Option<DenseVectorOptions>,
    pub field: Field,
    /// The tantivy field name, which fast-field readers are looked up by.
    pub tantivy_name: String,
    /// Decoded per-segment vectors, shared by every search on this index.
    pub cache: Arc<VectorCache>,
}

impl VectorField {
    pub fn dimension(&self) -> Option<usize> {
        self.dims.get().copied()
    }

    /// Whether stored and query vectors are scaled to unit length (ES normalises cosine
    /// vectors too, and it turns the cosine into a plain dot product for the scan).
    pub fn normalizes(&self) -> bool {
        self.space == SpaceType::Cosine && self.dense.as_ref().is_some_and(|d| d.index)
    }

    /// How an approximate graph may rank this field's vectors: l2 as it is, the inner product
    /// only where every vector has unit length (there it orders as the similarity does).
    /// `None`: the field is always scanned.
    pub fn graph_metric(&self) -> Option<GraphMetric> {
        match (self.space, self.element) {
            (SpaceType::L2, _) => Some(GraphMetric::L2),
            (SpaceType::Cosine, _) if self.normalizes() => Some(GraphMetric::Dot),
            (SpaceType::DotProduct, ElementType::Float) => Some(GraphMetric::Dot),
            _ => None,
        }
    }
}

/// What only `dense_vector` fields have, beyond the shared `VectorSpec`.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseVectorOptions {
    /// `index: false` fields keep their vectors but cannot be searched with `knn`.
    pub index: bool,
    /// ES prints `element_type` only when the mapping set it.
    pub element_configured: bool,
    /// As ES prints it (defaults filled in); `None` where ES has none (byte or unindexed).
    pub index_options: Option<Value>,
    pub meta: Option<Value>,
}
