//! An approximate nearest-neighbour graph (HNSW, from the `usearch` crate) over one large
//! segment's vectors, so a kNN search visits a few thousand of its rows instead of all of them.
//!
//! Segments never change, so a graph is built once per segment, off the request path: a
//! refresh or a search that finds a large segment without one queues it, and a single builder
//! thread builds graphs one at a time. Until a segment's graph is ready, searches scan it
//! exactly (the answer can only be better). Segments below `GRAPH_MIN_ROWS` are always
//! scanned: the 8-bit scan of 100k rows costs about as much as a request's HTTP handling.
//!
//! The graph holds half-precision copies of the vectors (half the memory of f32, recall within
//! 0.002 of f32 at 100k rows); the candidates it returns are re-scored with the exact float
//! kernel, so scores and their order are the exact scan's for every doc returned.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Instant;

use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

/// Segments with fewer vectors are scanned, never graphed.
pub const GRAPH_MIN_ROWS: usize = 100_000;

/// Links per node (HNSW's M; Lucene's default is 16).
const CONNECTIVITY: usize = 16;
/// Candidate list while inserting (ef_construction; OpenSearch's default is 100).
const EXPANSION_ADD: usize = 100;
/// Candidate list while searching (ef_search). On 1M clustered vectors of 64 dims it gives
/// recall@10 of 0.87-0.92 (`examples/knn_bench.rs` and the harness's `knn.recall` row, where
/// OpenSearch's Lucene graph, searched with ef = k, gets 0.42); about 1 ms per search here.
pub const EXPANSION_SEARCH: usize = 128;
/// Concurrent searches one graph serves; a search that finds none free scans the segment.
const SEARCH_CONTEXTS: usize = 32;

/// How a graph compares vectors: squared l2, or the inner product for unit-length vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphMetric {
    L2,
    Dot,
}

pub struct Graph {
    index: Index,
}

impl Graph {
    /// A graph over `rows` (row i has key i), inserted from `threads` threads.
    fn build(data: &[f32], dim: usize, metric: GraphMetric, threads: usize) -> Result<Graph, String> {
        let rows = data.len() / dim.max(1);
        let options = IndexOptions {
            dimensions: dim,
            metric: match metric {
                GraphMetric::L2 => MetricKind::L2sq,
                GraphMetric::Dot => MetricKind::IP,
            },
            quantization: ScalarKind::F16,
            connectivity: CONNECTIVITY,
            expansion_add: EXPANSION_ADD,
            expansion_search: EXPANSION_SEARCH,
            multi: false,
        };
        let index = Index::new(&options).map_err(|e| e.to_string())?;
        index.reserve_capacity_and_threads(rows, threads.max(SEARCH_CONTEXTS)).map_err(|e| e.to_string())?;
        let failed: Mutex<Option<String>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for first in 0..threads {
                let (index, failed) = (&index, &failed);
                scope.spawn(move || {
                    for row in (first..rows).step_by(threads) {
                        if let Err(e) = index.add(row as u64, &data[row * dim..(row + 1) * dim]) {
                            *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.to_string());
                            return;
                        }
                    }
                });
            }
        });
        match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(e),
            None => Ok(Graph { index }),
        }
    }

    /// The `wanted` rows nearest `query` by the graph among those `keep` accepts (all when
    /// `None`); `None` when the graph could not serve the search (no free search context), so
    /// the caller scans instead.
    pub fn nearest_rows(
        &self,
        query: &[f32],
        wanted: usize,
        keep: Option<&dyn Fn(usize) -> bool>,
    ) -> Option<Vec<usize>> {
        let matches = match keep {
            Some(keep) => self.index.filtered_search(query, wanted, |key| keep(key as usize)),
            None => self.index.search(query, wanted),
        }
        .ok()?;
        Some(matches.keys.into_iter().map(|key| key as usize).collect())
    }
}

/// A segment's graph slot: empty until the builder fills it (or records that it could not).
#[derive(Default)]
pub struct GraphSlot {
    queued: AtomicBool,
    built: OnceLock<Option<Graph>>,
}

impl GraphSlot {
    pub fn ready(&self) -> Option<&Graph> {
        self.built.get().and_then(Option::as_ref)
    }

    /// Blocks until the builder has finished with this slot, if it was queued.
    pub fn wait(&self) {
        if self.queued.load(Ordering::Acquire) {
            self.built.wait();
        }
    }
}

/// A field's graph builds, reported as the index's `warmer` stats (work done on new
/// segments before searches get their full speed).
#[derive(Default, Debug)]
pub struct GraphStats {
    /// Queued or being built.
    pub pending: AtomicU64,
    pub built: AtomicU64,
    pub millis: AtomicU64,
}

/// What a graph is built over: rows of floats, and the slot the graph goes into (a segment's
/// vectors, `cache::SegmentVectors`).
pub trait GraphSource: Send + Sync {
    fn rows(&self) -> &[f32];
    fn slot(&self) -> &GraphSlot;
}

struct Job {
    vectors: Weak<dyn GraphSource>,
    dim: usize,
    metric: GraphMetric,
    stats: Arc<GraphStats>,
}

fn builder() -> &'static Mutex<Sender<Job>> {
    static BUILDER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("everycell-knn-graph".into())
            .spawn(move || {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                // A segment merged away before its turn is not built.
                for job in rx {
                    let Some(vectors) = job.vectors.upgrade() else {
                        job.stats.pending.fetch_sub(1, Ordering::Relaxed);
                        continue;
                    };
                    let started = Instant::now();
                    let graph = Graph::build(vectors.rows(), job.dim, job.metric, threads).ok();
                    // Stats first: whoever waits on the slot reads them once it is set.
                    job.stats.built.fetch_add(1, Ordering::Relaxed);
                    job.stats.millis.fetch_add(started.elapsed().as_millis() as u64, Ordering::Relaxed);
                    job.stats.pending.fetch_sub(1, Ordering::Relaxed);
                    let _ = vectors.slot().built.set(graph);
                }
            })
            .expect("spawning the kNN graph builder");
        Mutex::new(tx)
    })
}

/// Queues a graph build for `vectors` unless it is too small or already queued.
pub fn ensure_graph<S: GraphSource + 'static>(
    vectors: &Arc<S>,
    dim: usize,
    metric: GraphMetric,
    stats: &Arc<GraphStats>,
) {
    let slot = vectors.slot();
    if vectors.rows().len() < GRAPH_MIN_ROWS * dim || slot.queued.swap(true, Ordering::AcqRel) {
        return;
    }
    stats.pending.fetch_add(1, Ordering::Relaxed);
    let source: Arc<dyn GraphSource> = vectors.clone();
    let job = Job { vectors: Arc::downgrade(&source), dim, metric, stats: stats.clone() };
    if builder().lock().unwrap_or_else(|p| p.into_inner()).send(job).is_err() {
        // The builder thread is gone: searches keep scanning this segment.
        stats.pending.fetch_sub(1, Ordering::Relaxed);
        let _ = slot.built.set(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_finds_the_nearest_rows_of_a_grid() {
        // 40 x 40 points on a plane, embedded in 4 dims: the nearest of (10.2, 20.1) is (10, 20).
        let mut data = Vec::new();
        for x in 0..40 {
            for y in 0..40 {
                data.extend_from_slice(&[x as f32, y as f32, 0.0, 1.0]);
            }
        }
        let graph = Graph::build(&data, 4, GraphMetric::L2, 2).unwrap();
        let rows = graph.nearest_rows(&[10.2, 20.1, 0.0, 1.0], 1, None).unwrap();
        assert_eq!(rows, vec![10 * 40 + 20]);
        let rows = graph.nearest_rows(&[10.2, 20.1, 0.0, 1.0], 1, Some(&|row| row != 10 * 40 + 20)).unwrap();
        assert_eq!(rows.len(), 1);
        assert_ne!(rows[0], 10 * 40 + 20, "the filter excludes a row");
    }
}
