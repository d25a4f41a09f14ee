//! Keyword `terms` and `cardinality` without sub-aggregations, counted by term ordinal a block
//! at a time: one bulk read of the block's ordinals instead of an ordinal iterator per document
//! (a column-index lookup and a dynamic call each), over a column with at most one value per
//! document.

use tantivy::columnar::Cardinality;
use tantivy::DocId;

use super::{Accessor, Plan};

/// Counts `docs` by ordinal into `counts`; false (nothing counted) when the plan does not
/// qualify.
pub(super) fn collect_dense_block(
    plan: &Plan,
    counts: &mut [u64],
    docs: &[DocId],
    ords: &mut Vec<Option<u64>>,
) -> bool {
    let Accessor::Str(column) = &plan.accessor else { return false };
    let plain = plan.subs.is_empty() && plan.filters.is_none() && plan.sampler.is_none() && plan.missing.is_none();
    let column = column.ords();
    if !plain || column.get_cardinality() == Cardinality::Multivalued {
        return false;
    }
    ords.clear();
    ords.resize(docs.len(), None);
    column.first_vals(docs, ords);
    for ord in ords.iter().flatten() {
        counts[*ord as usize] += 1;
    }
    true
}
