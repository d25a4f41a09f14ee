//! Decoded vectors per segment. Segments never change once written, so a segment's vectors
//! are decoded from the bytes fast field once and then scanned from one contiguous array;
//! entries for segments the current searcher no longer has (merged away) are dropped. A
//! large segment also gets an approximate graph, built in the background (`graph`).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::{DocId, Searcher, SegmentReader, TantivyError};

use super::graph::{ensure_graph, GraphMetric, GraphSlot, GraphSource, GraphStats, GRAPH_MIN_ROWS};
use super::quantized::QuantizedRows;

/// The vectors of one segment: `docs[i]` owns `data[i * dim .. (i + 1) * dim]`, and row i
/// of `quantized` is its 8-bit copy (the scan's first pass); `graph`, once built, finds a
/// query's nearest rows without reading every row.
pub struct SegmentVectors {
    pub docs: Vec<DocId>,
    pub data: Vec<f32>,
    pub quantized: QuantizedRows,
    pub graph: GraphSlot,
}

impl SegmentVectors {
    fn load(reader: &SegmentReader, field: &str, dim: usize) -> tantivy::Result<SegmentVectors> {
        let Some(column) = reader.fast_fields().bytes(field)? else {
            return Ok(SegmentVectors {
                docs: Vec::new(),
                data: Vec::new(),
                quantized: QuantizedRows::build(&[], dim),
                graph: GraphSlot::default(),
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
        Ok(SegmentVectors { docs, data, quantized, graph: GraphSlot::default() })
    }
}

impl GraphSource for SegmentVectors {
    fn rows(&self) -> &[f32] {
        &self.data
    }

    fn slot(&self) -> &GraphSlot {
        &self.graph
    }
}

#[derive(Default)]
pub struct VectorCache {
    segments: Mutex<HashMap<SegmentId, Arc<SegmentVectors>>>,
    pub graphs: Arc<GraphStats>,
}

impl fmt::Debug for VectorCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.segments.lock().map(|s| s.len()).unwrap_or(0);
        write!(f, "VectorCache({n} segments)")
    }
}

impl VectorCache {
    /// The vectors of every segment of `searcher`, in segment order, decoding any not seen yet
    /// and queueing a graph for any large one without (`metric`: `None` for a space the graph
    /// cannot rank, which is always scanned). Decoding happens under the lock so concurrent
    /// first queries do the work once.
    pub fn segments(
        &self,
        searcher: &Searcher,
        field: &str,
        dim: usize,
        metric: Option<GraphMetric>,
    ) -> tantivy::Result<Vec<Arc<SegmentVectors>>> {
        let readers = searcher.segment_readers();
        self.load(readers.iter(), readers, field, dim, metric)
    }

    /// What a refresh does for the segments it publishes: decodes the large ones (those that
    /// can have a graph) and queues their graphs. Returns them, so a force merge can
    /// wait for the graphs (`wait_for_graphs`). Small segments stay for the first search.
    pub fn prepare(
        &self,
        searcher: &Searcher,
        field: &str,
        dim: usize,
        metric: GraphMetric,
    ) -> tantivy::Result<Vec<Arc<SegmentVectors>>> {
        let readers = searcher.segment_readers();
        let large = readers.iter().filter(|r| r.num_docs() as usize >= GRAPH_MIN_ROWS);
        self.load(large, readers, field, dim, Some(metric))
    }

    /// The vectors of `wanted` (segments of `readers`), decoding any not cached, queueing
    /// graphs, and dropping entries for segments `readers` no longer has.
    fn load<'a>(
        &self,
        wanted: impl Iterator<Item = &'a SegmentReader>,
        readers: &[SegmentReader],
        field: &str,
        dim: usize,
        metric: Option<GraphMetric>,
    ) -> tantivy::Result<Vec<Arc<SegmentVectors>>> {
        let mut cached = self.segments.lock().unwrap_or_else(|p| p.into_inner());
        let mut out = Vec::with_capacity(readers.len());
        for reader in wanted {
            let id = reader.segment_id();
            let vectors = match cached.get(&id) {
                Some(v) => v.clone(),
                None => {
                    let v = Arc::new(SegmentVectors::load(reader, field, dim)?);
                    cached.insert(id, v.clone());
                    v
                }
            };
            if let Some(metric) = metric {
                ensure_graph(&vectors, dim, metric, &self.graphs);
            }
            out.push(vectors);
        }
        if cached.len() > readers.len() || cached.keys().any(|id| !readers.iter().any(|r| r.segment_id() == *id)) {
            let live: HashSet<SegmentId> = readers.iter().map(|r| r.segment_id()).collect();
            cached.retain(|id, _| live.contains(id));
        }
        Ok(out)
    }

    /// Blocks until every queued graph of `segments` is built (or given up on).
    pub fn wait_for_graphs(segments: &[Arc<SegmentVectors>]) {
        for vectors in segments {
            vectors.graph.wait();
        }
    }
}
