//! The Elasticsearch side of lowering a kNN search: ES's field and query-vector checks (with
//! its "failed to create query" texts), cosine normalisation, and the `similarity` threshold
//! turned into the least score a neighbour may have.

use crate::error::{EngineError, Result, ShardCause};
use crate::knn::spec::VectorField;
use crate::knn::vector_checks::{element_error, magnitude_error, normalize, preview};
use crate::query::ast::KnnAst;
use crate::store::mapping::Mapping;

/// A kNN search ready to scan: the field, the vector as it is compared, and the least score
/// (shown scale) a neighbour needs to be kept.
pub struct Prepared<'a> {
    pub field: &'a VectorField,
    pub vector: Vec<f32>,
    pub min_score: Option<f32>,
}

fn create_err(reason: String) -> EngineError {
    EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {reason}"))
}

/// `Ok(None)`: nothing can match (ES answers no hits for an unmapped field, or a field that
/// has not seen its first vector yet).
pub fn prepare<'a>(ast: &KnnAst, mapping: &'a Mapping) -> Result<Option<Prepared<'a>>> {
    let Some(vf) = mapping.vectors.get(&ast.field) else {
        if mapping.get(&ast.field).is_some() {
            return Err(create_err("[knn] queries are only supported on [dense_vector] fields".into()));
        }
        return Ok(None);
    };
    if vf.dense.as_ref().is_some_and(|d| !d.index) {
        return Err(create_err(format!(
            "to perform knn search on field [{}], its mapping must have [index] set to [true]",
            ast.field
        )));
    }
    let Some(dims) = vf.dimension() else { return Ok(None) };
    if ast.vector.len() != dims {
        return Err(create_err(format!(
            "The query vector has a different number of dimensions [{}] than the document vectors [{dims}].",
            ast.vector.len()
        )));
    }
    if let Some(why) = element_error(vf.element, &ast.vector) {
        return Err(create_err(format!("{why}{}", preview(vf.element, &ast.vector))));
    }
    if let Some(why) = magnitude_error(vf, &ast.vector) {
        return Err(create_err(why));
    }
    let mut vector = ast.vector.clone();
    normalize(vf, &mut vector);
    // On the shown scale; `query::lower::knn` puts it on the search's.
    let min_score = ast.similarity.map(|s| vf.space.score_of_similarity(s, vf.element, dims));
    Ok(Some(Prepared { field: vf, vector, min_score }))
}
