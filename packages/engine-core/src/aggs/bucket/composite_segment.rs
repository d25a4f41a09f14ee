//! `composite` in a segment: the sources' columns, every combination of a document's source
//! values (the cartesian product, as ES does for multi-valued fields), a dense count array for
//! keyword tuples, and each tuple's cross-segment key text (keyword ordinals resolved).

use std::cell::RefCell;

use serde_json::{json, Value};
use tantivy::columnar::{Cardinality, Column, StrColumn};
use tantivy::{DocId, SegmentReader};

use crate::aggs::intermediate::BucketKey;
use crate::aggs::options::{CompositeSpec, SourceKind};
use crate::store::mapping::FieldType;

/// Most tuples a segment counts in a dense array (8 bytes each: 2 MiB).
const DENSE_TUPLES_LIMIT: u64 = 1 << 18;

enum SourceColumn {
    I64(Column<i64>),
    F64(Column<f64>),
    Bool(Column<bool>),
    Str(StrColumn),
    /// Packed points (`geo/encoding.rs`), keyed by their tile.
    Geo(Column<u64>),
    None,
}

/// One segment's columns for the sources, in source order.
pub(crate) struct SegSources {
    columns: Vec<SourceColumn>,
    spec: CompositeSpec,
    scratch: RefCell<Scratch>,
}

/// Per-doc working buffers of [`SegSources::for_each_key`] (one segment, one thread).
struct Scratch {
    per_source: Vec<Vec<Option<u64>>>,
    idx: Vec<usize>,
    key: Vec<Option<u64>>,
    /// [`SegSources::count_block_dense`]: a block's ordinals of one source, and tuple indexes.
    block_ords: Vec<Option<u64>>,
    block_at: Vec<u64>,
}

impl SegSources {
    pub(crate) fn open(spec: &CompositeSpec, reader: &SegmentReader) -> tantivy::Result<SegSources> {
        let ff = reader.fast_fields();
        let mut columns = Vec::with_capacity(spec.sources.len());
        for source in &spec.sources {
            columns.push(match &source.field {
                None => SourceColumn::None,
                Some((name, FieldType::Keyword | FieldType::Ip)) => {
                    ff.str(name)?.map_or(SourceColumn::None, SourceColumn::Str)
                }
                Some((name, FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat)) => {
                    ff.column_opt::<f64>(name)?.map_or(SourceColumn::None, SourceColumn::F64)
                }
                Some((name, FieldType::Boolean)) => {
                    ff.column_opt::<bool>(name)?.map_or(SourceColumn::None, SourceColumn::Bool)
                }
                Some((name, FieldType::GeoPoint)) => {
                    ff.column_opt::<u64>(name)?.map_or(SourceColumn::None, SourceColumn::Geo)
                }
                Some((name, _)) => ff.column_opt::<i64>(name)?.map_or(SourceColumn::None, SourceColumn::I64),
            });
        }
        let n = columns.len();
        let scratch = Scratch {
            per_source: vec![Vec::new(); n],
            idx: vec![0; n],
            key: vec![None; n],
            block_ords: Vec::new(),
            block_at: Vec::new(),
        };
        Ok(SegSources { columns, spec: spec.clone(), scratch: RefCell::new(scratch) })
    }

    /// Raw values of one source for `doc`: ordinals, integers, or f64 bits of histogram keys.
    fn values(&self, i: usize, doc: DocId, out: &mut Vec<Option<u64>>) {
        out.clear();
        let source = &self.spec.sources[i];
        let f64_key = |v: f64| match source.kind {
            SourceKind::Histogram(step) => ((v / step).floor() * step).to_bits(),
            SourceKind::DateHistogram(rounding) => rounding.round(v as i64) as u64,
            SourceKind::Terms | SourceKind::GeoTile(_) => v.to_bits(),
        };
        let i64_key = |v: i64| match source.kind {
            SourceKind::Histogram(step) => ((v as f64 / step).floor() * step).to_bits(),
            SourceKind::DateHistogram(rounding) => rounding.round(v) as u64,
            SourceKind::Terms | SourceKind::GeoTile(_) => v as u64,
        };
        match &self.columns[i] {
            SourceColumn::I64(c) => out.extend(c.values_for_doc(doc).map(|v| Some(i64_key(v)))),
            SourceColumn::F64(c) => out.extend(c.values_for_doc(doc).map(|v| Some(f64_key(v)))),
            SourceColumn::Bool(c) => out.extend(c.values_for_doc(doc).map(|v| Some(u64::from(v)))),
            SourceColumn::Str(c) => out.extend(c.term_ords(doc).map(Some)),
            SourceColumn::Geo(c) => {
                let SourceKind::GeoTile(precision) = source.kind else { return };
                out.extend(c.values_for_doc(doc).map(|p| {
                    let (lat, lon) = crate::geo::encoding::decode(p);
                    Some(crate::geo::tile::tile_key(lat, lon, precision))
                }))
            }
            SourceColumn::None => {}
        }
        out.sort_unstable();
        out.dedup();
        if out.is_empty() && source.missing_bucket {
            out.push(None);
        }
    }

    /// Calls `f` with every key tuple of `doc` (none if a source has no value and no missing bucket).
    /// Runs once per matching doc: the value lists, odometer and key live in reused scratch
    /// buffers, so the common single-valued doc allocates nothing.
    pub(crate) fn for_each_key(&self, doc: DocId, f: &mut dyn FnMut(&[Option<u64>])) {
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { per_source, idx, key, .. } = &mut *scratch;
        for (i, values) in per_source.iter_mut().enumerate() {
            self.values(i, doc, values);
            if values.is_empty() {
                return;
            }
        }
        idx.iter_mut().for_each(|at| *at = 0);
        loop {
            for (slot, (values, at)) in key.iter_mut().zip(per_source.iter().zip(idx.iter())) {
                *slot = values[*at];
            }
            f(key);
            // Odometer over the sources' value lists.
            let mut pos = idx.len();
            loop {
                if pos == 0 {
                    return;
                }
                pos -= 1;
                idx[pos] += 1;
                if idx[pos] < per_source[pos].len() {
                    break;
                }
                idx[pos] = 0;
            }
        }
    }

    /// Slots per source when every source is a keyword `terms` source and all tuples fit a
    /// dense count array (ordinals, plus one slot for the missing value): counting then indexes
    /// an array instead of hashing a tuple per document.
    pub(crate) fn dense_slots(&self) -> Option<Vec<u64>> {
        let mut slots = Vec::with_capacity(self.columns.len());
        let mut total = 1u64;
        for (column, source) in self.columns.iter().zip(&self.spec.sources) {
            let (SourceColumn::Str(c), SourceKind::Terms) = (column, &source.kind) else { return None };
            let n = c.num_terms() as u64 + 1;
            total = total.checked_mul(n).filter(|t| *t <= DENSE_TUPLES_LIMIT)?;
            slots.push(n);
        }
        Some(slots)
    }

    /// Counts a block of documents into the dense array when every source column holds at
    /// most one value per document: each column decodes the block's ordinals in one call.
    /// False (nothing counted) when a column is multi-valued: count per document then.
    pub(crate) fn count_block_dense(&self, slots: &[u64], docs: &[DocId], counts: &mut [u64]) -> bool {
        let single = self.columns.iter().all(|c| match c {
            SourceColumn::Str(c) => c.ords().get_cardinality() != Cardinality::Multivalued,
            _ => false,
        });
        if !single {
            return false;
        }
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { block_ords, block_at, .. } = &mut *scratch;
        block_at.clear();
        block_at.resize(docs.len(), 0);
        block_ords.resize(docs.len(), None);
        // A doc without a value in a source that has no missing bucket forms no tuple.
        let mut skip: Vec<bool> = Vec::new();
        for ((column, source), n) in self.columns.iter().zip(&self.spec.sources).zip(slots) {
            let SourceColumn::Str(c) = column else { return false };
            c.ords().first_vals(docs, block_ords);
            for (i, (at, ord)) in block_at.iter_mut().zip(block_ords.iter()).enumerate() {
                if ord.is_none() && !source.missing_bucket {
                    if skip.is_empty() {
                        skip.resize(docs.len(), false);
                    }
                    skip[i] = true;
                }
                *at = *at * n + ord.unwrap_or(n - 1);
            }
        }
        for (i, at) in block_at.iter().enumerate() {
            if skip.get(i) != Some(&true) {
                counts[*at as usize] += 1;
            }
        }
        true
    }

    /// The tuple's index in the dense array (`slots` from [`Self::dense_slots`]).
    pub(crate) fn dense_index(slots: &[u64], key: &[Option<u64>]) -> usize {
        key.iter().zip(slots).fold(0u64, |at, (v, n)| at * n + v.unwrap_or(n - 1)) as usize
    }

    /// The tuple at a dense index (the inverse of [`Self::dense_index`]).
    pub(crate) fn dense_key(slots: &[u64], mut at: u64) -> Vec<Option<u64>> {
        let mut key = vec![None; slots.len()];
        for (slot, n) in key.iter_mut().zip(slots).rev() {
            let v = at % n;
            *slot = (v != n - 1).then_some(v);
            at /= n;
        }
        key
    }

    /// The tuple as JSON array text, keyword ordinals resolved (the cross-segment key).
    pub(crate) fn key_text(&self, raw: &[Option<u64>]) -> BucketKey {
        let mut buf = String::new();
        let values: Vec<Value> = raw
            .iter()
            .zip(&self.columns)
            .zip(&self.spec.sources)
            .map(|((v, col), source)| match (v, col, &source.kind) {
                (None, _, _) => Value::Null,
                (Some(ord), SourceColumn::Str(c), _) => {
                    buf.clear();
                    let _ = c.ord_to_str(*ord, &mut buf);
                    json!(buf)
                }
                (Some(bits), _, SourceKind::Histogram(_)) => json!(f64::from_bits(*bits)),
                (Some(bits), SourceColumn::F64(_), SourceKind::Terms) => json!(f64::from_bits(*bits)),
                (Some(b), SourceColumn::Bool(_), _) => json!(*b == 1),
                (Some(v), _, _) => json!(*v as i64),
            })
            .collect();
        BucketKey::Str(Value::Array(values).to_string())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dense_tuple_indexes_round_trip_with_missing_slots() {
        let slots = [4u64, 3, 5];
        let mut seen = std::collections::HashSet::new();
        for a in [Some(0), Some(2), None] {
            for b in [Some(1), None] {
                for c in [Some(0), Some(3), None] {
                    let key = vec![a, b, c];
                    let at = super::SegSources::dense_index(&slots, &key);
                    assert!(at < 60 && seen.insert(at), "{key:?} -> {at}");
                    assert_eq!(super::SegSources::dense_key(&slots, at as u64), key);
                }
            }
        }
    }
}
