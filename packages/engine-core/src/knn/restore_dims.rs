//! A `dense_vector` mapped without `dims` learns them from its first document, in memory
//! only: the stored mapping stays as the client sent it. On reopen the dims are learnt back
//! from the vectors already indexed (every stored vector has them), before any new write.

use tantivy::Searcher;

use std::collections::BTreeMap;

use super::spec::VectorField;

pub fn restore_inferred_dims(vectors: &BTreeMap<String, VectorField>, searcher: &Searcher) -> tantivy::Result<()> {
    for vf in vectors.values().filter(|vf| vf.dimension().is_none()) {
        for reader in searcher.segment_readers() {
            let Some(column) = reader.fast_fields().bytes(&vf.tantivy_name)? else { continue };
            let mut terms = column.dictionary().stream()?;
            if terms.advance() {
                let _ = vf.dims.set(terms.key().len() / 4);
                break;
            }
        }
    }
    Ok(())
}
