//! Sort keys: every sort value mapped to an order-preserving integer (keyword sorts use
//! segment-local term ordinals), flattened so a missing value sorts after all, as ES's default,
//! or before all with `missing: _first`.

use tantivy::columnar::{Column, StrColumn};
use tantivy::{DocId, Score, SegmentOrdinal};

use crate::hits::sort::{Order, SortMode, SortSpec, MAX_SORT_KEYS};

/// Order-preserving maps into u64.
#[inline]
pub(crate) fn i64_key(v: i64) -> u64 {
    (v as u64) ^ (1 << 63)
}
#[inline]
pub(crate) fn f64_key(v: f64) -> u64 {
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}
#[inline]
pub(crate) fn f64_from_key(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}
/// Scores are keyed on the scale hits render, so a `_score` echoed back in `search_after`
/// encodes to exactly the key of the hit it came from (dividing by the constant keeps order).
#[inline]
fn score_key(s: f32, scale: f32) -> u64 {
    score_key_es(s / scale)
}
#[inline]
pub(crate) fn score_key_es(es_score: f32) -> u64 {
    f64_key(es_score as f64)
}

/// One sort value: (missing, encoded) flattened to a u128 so "missing" sorts after all.
#[inline]
pub(crate) fn part(value: Option<u64>, order: Order) -> u128 {
    match value {
        None => u128::MAX,
        Some(v) => (if order == Order::Desc { !v } else { v }) as u128,
    }
}

/// `part` with `missing: _first`: present values move up by one so missing can take 0.
#[inline]
fn part_first(value: Option<u64>, order: Order) -> u128 {
    match value {
        None => 0,
        Some(_) => part(value, order) + 1,
    }
}

/// The encoded value a collector key part stands for (`None`: missing), undoing `part`.
#[inline]
pub(crate) fn unpart(k: u128, order: Order, missing_first: bool) -> Option<u64> {
    let k = match (missing_first, k) {
        (false, u128::MAX) | (true, 0) => return None,
        (false, k) => k,
        (true, k) => k - 1,
    };
    Some(if order == Order::Desc { !(k as u64) } else { k as u64 })
}

pub(crate) enum SegSource {
    /// The score, shown divided by this scale.
    Score(f32),
    /// The segment ordinal: `_doc` keys are global, `(segment << 32) | doc`, so hits from
    /// several segments merge in index order (and `search_after` can echo them back).
    Doc(SegmentOrdinal),
    I64(Column<i64>),
    F64(Column<f64>),
    /// `numeric_type: double` on an integer column, `numeric_type: long` on a double one:
    /// each value is converted before the mode picks.
    I64AsF64(Column<i64>),
    F64AsI64(Column<f64>),
    Bool(Column<bool>),
    Str(StrColumn),
    /// `_geo_distance`: the distance as a double.
    Geo(Box<crate::hits::geo_sort::SegGeoSort>),
    Missing,
}

/// A document's values reduced by a sort mode, as ES's `MultiValueMode` does for longs
/// (`avg` and `median` round half up) and doubles.
fn pick_i64(values: impl Iterator<Item = i64>, mode: SortMode) -> Option<i64> {
    match mode {
        SortMode::Min => values.min(),
        SortMode::Max => values.max(),
        SortMode::Sum | SortMode::Avg | SortMode::Median => {
            let mut all: Vec<i64> = values.collect();
            let n = all.len();
            if n == 0 {
                return None;
            }
            Some(match mode {
                SortMode::Sum => all.iter().fold(0i64, |a, v| a.wrapping_add(*v)),
                SortMode::Avg => {
                    let total = all.iter().fold(0i64, |a, v| a.wrapping_add(*v));
                    if n > 1 {
                        (total as f64 / n as f64).round() as i64
                    } else {
                        total
                    }
                }
                _ => {
                    all.sort_unstable();
                    if n.is_multiple_of(2) {
                        ((all[n / 2 - 1] as f64 + all[n / 2] as f64) / 2.0).round() as i64
                    } else {
                        all[n / 2]
                    }
                }
            })
        }
    }
}

fn pick_f64(values: impl Iterator<Item = f64>, mode: SortMode) -> Option<f64> {
    let mut all: Vec<f64> = values.collect();
    let n = all.len();
    if n == 0 {
        return None;
    }
    Some(match mode {
        SortMode::Min => all.iter().copied().fold(f64::INFINITY, f64::min),
        SortMode::Max => all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        SortMode::Sum => all.iter().sum(),
        SortMode::Avg => all.iter().sum::<f64>() / n as f64,
        SortMode::Median => {
            all.sort_unstable_by(f64::total_cmp);
            if n.is_multiple_of(2) {
                (all[n / 2 - 1] + all[n / 2]) / 2.0
            } else {
                all[n / 2]
            }
        }
    })
}

impl SegSource {
    #[inline]
    pub(crate) fn value(&self, doc: DocId, score: Score, order: Order, mode: Option<SortMode>) -> Option<u64> {
        let mode = mode.unwrap_or(if order == Order::Asc { SortMode::Min } else { SortMode::Max });
        let pick = |it: &mut dyn Iterator<Item = u64>| if mode == SortMode::Min { it.min() } else { it.max() };
        match self {
            SegSource::Score(scale) => Some(score_key(score, *scale)),
            SegSource::Doc(segment) => Some(((*segment as u64) << 32) | doc as u64),
            // One value per document (the usual case): read it directly, whatever the mode.
            SegSource::I64(c) if single_valued(c) => c.first(doc).map(i64_key),
            SegSource::F64(c) if single_valued(c) => c.first(doc).map(f64_key),
            SegSource::I64(c) => pick_i64(c.values_for_doc(doc), mode).map(i64_key),
            SegSource::F64(c) => pick_f64(c.values_for_doc(doc), mode).map(f64_key),
            SegSource::I64AsF64(c) => pick_f64(c.values_for_doc(doc).map(|v| v as f64), mode).map(f64_key),
            SegSource::F64AsI64(c) => pick_i64(c.values_for_doc(doc).map(|v| v as i64), mode).map(i64_key),
            SegSource::Bool(c) => pick(&mut c.values_for_doc(doc).map(u64::from)),
            SegSource::Str(c) => pick(&mut c.term_ords(doc)),
            SegSource::Geo(g) => Some(f64_key(g.distance(doc, order, Some(mode)))),
            SegSource::Missing => None,
        }
    }
}

/// One segment's source for a sort spec, with the spec's mode and missing-value handling.
pub(crate) struct SegSort {
    pub source: SegSource,
    pub order: Order,
    mode: Option<SortMode>,
    missing_first: bool,
    /// `missing: <value>`, encoded for the source.
    missing_key: Option<u64>,
    /// Keyword keys are segment ordinals, merged as strings (a segment without the column
    /// still merges as strings, all missing).
    pub is_keyword: bool,
}

impl SegSort {
    pub(crate) fn new(source: SegSource, spec: &SortSpec) -> SegSort {
        let missing_key = spec.opts.missing_value.map(|v| match &source {
            SegSource::F64(_) | SegSource::I64AsF64(_) => f64_key(v),
            _ if spec.value_type().is_some_and(|t| t.is_f64()) => f64_key(v),
            _ => i64_key(v as i64),
        });
        SegSort {
            source,
            order: spec.order,
            mode: spec.opts.mode,
            missing_first: spec.opts.missing_first,
            missing_key,
            is_keyword: matches!(
                spec.value_type(),
                Some(crate::store::mapping::FieldType::Keyword | crate::store::mapping::FieldType::Ip)
            ),
        }
    }

    #[inline]
    pub(crate) fn substitutes_missing(&self) -> bool {
        self.missing_key.is_some()
    }

    /// The collector key part of a document.
    #[inline]
    pub(crate) fn key(&self, doc: DocId, score: Score) -> u128 {
        let value = self.source.value(doc, score, self.order, self.mode).or(self.missing_key);
        self.encode(value)
    }

    /// The key part of an encoded value (`None`: missing).
    #[inline]
    pub(crate) fn encode(&self, value: Option<u64>) -> u128 {
        if self.missing_first {
            part_first(value, self.order)
        } else {
            part(value, self.order)
        }
    }

    /// Moves a `search_after` key part from `part`'s doubled space into this sort's (see
    /// `search_after::doubled`).
    #[inline]
    pub(crate) fn shift_doubled(&self, doubled: u128) -> u128 {
        match (self.missing_first, doubled) {
            (false, d) => d,
            (true, u128::MAX) => 1,
            (true, d) => d + 2,
        }
    }

    #[inline]
    pub(crate) fn missing_first(&self) -> bool {
        self.missing_first
    }
}

pub(crate) fn single_valued<T>(column: &Column<T>) -> bool {
    !matches!(column.index, tantivy::columnar::ColumnIndex::Multivalued(_))
}

pub(crate) type SortKey = [u128; MAX_SORT_KEYS];

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

    #[test]
    fn missing_first_sorts_before_every_value_and_decodes_back() {
        for order in [Order::Asc, Order::Desc] {
            let (low, high) = (part_first(Some(0), order), part_first(Some(u64::MAX), order));
            assert!(part_first(None, order) < low.min(high));
            assert_eq!(unpart(part_first(Some(7), order), order, true), Some(7));
            assert_eq!(unpart(part_first(None, order), order, true), None);
            assert_eq!(unpart(part(Some(7), order), order, false), Some(7));
        }
    }

    #[test]
    fn modes_reduce_like_elasticsearch() {
        let v = || [3i64, 1, 4, 10].into_iter();
        assert_eq!(pick_i64(v(), SortMode::Sum), Some(18));
        assert_eq!(pick_i64(v(), SortMode::Avg), Some(5), "4.5 rounds half up");
        assert_eq!(pick_i64(v(), SortMode::Median), Some(4), "(3 + 4) / 2 rounds half up");
        assert_eq!(pick_f64([1.0, 2.0].into_iter(), SortMode::Avg), Some(1.5));
        assert_eq!(pick_f64([5.0, 1.0, 2.0].into_iter(), SortMode::Median), Some(2.0));
        assert_eq!(pick_i64(std::iter::empty(), SortMode::Sum), None);
    }
}
