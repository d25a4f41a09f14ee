//! Decoded vectors per segment. Segments never change once written, so a segment's vectors
//! are decoded from the bytes fast field once and then scanned from one contiguous array;
//! entries for segments the current searcher no longer has (merged away) are dropped.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::{DocId, Searcher, SegmentReader, TantivyError};

use super::quantized::QuantizedRows;

/// The vectors of one segment: `docs[i]` owns `data[i * dim .. (i + 1) * dim]`, and row i
/// of `quantized` is its 8-bit copy (the scan's first pass).
pub struct SegmentVectors {
    pub docs: Vec<DocId>,
    pub data: Vec<f32>,
    pub quantized: QuantizedRows,
}

impl SegmentVectors {
    fn load(reader: &SegmentReader, field: &str, dim: usize) -> tantivy::Result<SegmentVectors> {
        let Some(column) = reader.fast_fields().bytes(field)? else {
            return Ok(SegmentVectors {
                docs: Vec::new(),
                data: Vec::new(),
                quantized: QuantizedRows::build(&[], dim),
            });
        };
        // The column is dictionary-encoded: decode each distinct vector once, in ordinal order.
        let mut by_ord = Vec::with_capacity(column.num_terms() * dim);
        let mut terms = column.dictionary().stream()?;
        while terms.advance() {
            let key = terms.key();
            if key.len() != dim * 4 {
                return Err(TantivyError::InternalError(format!(
                    "vector field [{field}] holds {} bytes where {} were expected",
                    key.len(),
                    dim * 4
                )));
            }
            by_ord.extend(key.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        }
        let ords = column.ords();
        let mut docs = Vec::new();
        let mut data = Vec::new();
        for doc in 0..reader.max_doc() {
            if let Some(ord) = ords.first(doc) {
                let start = ord as usize * dim;
                docs.push(doc);
                data.extend_from_slice(&by_ord[start..start + dim]);
            }
        }
        let quantized = QuantizedRows::build(&data, dim);
        Ok(SegmentVectors { docs, data, quantized })
    }
}

#[derive(Default)]
pub struct VectorCache {
    segments: Mutex<HashMap<SegmentId, Arc<SegmentVectors>>>,
}

impl fmt::Debug for VectorCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.segments.lock().map(|s| s.len()).unwrap_or(0);
        write!(f, "VectorCache({n} segments)")
    }
}

impl VectorCache {
    /// The vectors of every segment of `searcher`, in segment order, decoding any not seen yet.
    /// Decoding happens under the lock so concurrent first queries do the work once.
    pub fn segments(&self, searcher: &Searcher, field: &str, dim: usize) -> tantivy::Result<Vec<Arc<SegmentVectors>>> {
        let mut cached = self.segments.lock().unwrap_or_else(|p| p.into_inner());
        let readers = searcher.segment_readers();
        let mut out = Vec::with_capacity(readers.len());
        for reader in readers {
            let id = reader.segment_id();
            let vectors = match cached.get(&id) {
                Some(v) => v.clone(),
                None => {
                    let v = Arc::new(SegmentVectors::load(reader, field, dim)?);
                    cached.insert(id, v.clone());
                    v
                }
            };
            out.push(vectors);
        }
        if cached.len() > readers.len() {
            let live: HashSet<SegmentId> = readers.iter().map(|r| r.segment_id()).collect();
            cached.retain(|id, _| live.contains(id));
        }
        Ok(out)
    }
}
