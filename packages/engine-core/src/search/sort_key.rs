//! Sort keys: every sort value mapped to an order-preserving integer (keyword sorts use
//! segment-local term ordinals), flattened so a missing value sorts after all, as ES's default.

use tantivy::columnar::{Column, StrColumn};
use tantivy::{DocId, Score, SegmentOrdinal};

use super::sort::{Order, MAX_SORT_KEYS};

/// Order-preserving maps into u64.
pub(super) fn i64_key(v: i64) -> u64 {
    (v as u64) ^ (1 << 63)
}
pub(super) fn f64_key(v: f64) -> u64 {
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}
pub(super) fn f64_from_key(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}
/// Scores are keyed on the ES scale hits render, so a `_score` echoed back in `search_after`
/// encodes to exactly the key of the hit it came from (dividing by the constant keeps order).
fn score_key(s: f32) -> u64 {
    score_key_es(s / crate::query::lower::context::ES_SCORE_SCALE)
}
pub(super) fn score_key_es(es_score: f32) -> u64 {
    f64_key(es_score as f64)
}

/// One sort value: (missing, encoded) flattened to a u128 so "missing" sorts after all.
pub(super) fn part(value: Option<u64>, order: Order) -> u128 {
    match value {
        None => u128::MAX,
        Some(v) => (if order == Order::Desc { !v } else { v }) as u128,
    }
}

pub(super) enum SegSource {
    Score,
    /// The segment ordinal: `_doc` keys are global, `(segment << 32) | doc`, so hits from
    /// several segments merge in index order (and `search_after` can echo them back).
    Doc(SegmentOrdinal),
    I64(Column<i64>),
    F64(Column<f64>),
    Bool(Column<bool>),
    Str(StrColumn),
    Missing,
}

impl SegSource {
    pub(super) fn value(&self, doc: DocId, score: Score, order: Order) -> Option<u64> {
        let pick = |it: &mut dyn Iterator<Item = u64>| if order == Order::Asc { it.min() } else { it.max() };
        match self {
            SegSource::Score => Some(score_key(score)),
            SegSource::Doc(segment) => Some(((*segment as u64) << 32) | doc as u64),
            // One value per document (the usual case): read it directly, no iterator.
            SegSource::I64(c) if single_valued(c) => c.first(doc).map(i64_key),
            SegSource::F64(c) if single_valued(c) => c.first(doc).map(f64_key),
            SegSource::I64(c) => pick(&mut c.values_for_doc(doc).map(i64_key)),
            SegSource::F64(c) => pick(&mut c.values_for_doc(doc).map(f64_key)),
            SegSource::Bool(c) => pick(&mut c.values_for_doc(doc).map(u64::from)),
            SegSource::Str(c) => pick(&mut c.term_ords(doc)),
            SegSource::Missing => None,
        }
    }
}

pub(super) fn single_valued<T>(column: &Column<T>) -> bool {
    !matches!(column.index, tantivy::columnar::ColumnIndex::Multivalued(_))
}

pub(super) type SortKey = [u128; MAX_SORT_KEYS];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_preserve_order() {
        let ints = [i64::MIN, -5, 0, 3, i64::MAX];
        assert!(ints.windows(2).all(|w| i64_key(w[0]) < i64_key(w[1])));
        let floats = [f64::NEG_INFINITY, -2.5, -0.0, 0.5, 1e300];
        assert!(floats.windows(2).all(|w| f64_key(w[0]) < f64_key(w[1])));
        assert_eq!(f64_from_key(f64_key(-2.5)), -2.5);
        assert!(part(Some(u64::MAX), Order::Asc) < part(None, Order::Asc));
        assert!(part(Some(0), Order::Desc) < part(None, Order::Desc));
    }
}
