//! Aggregation passes and `_count` over a large multi-segment index, and kNN scans of many
//! vectors, run their segments (or stretches of rows) on a small thread pool, so one heavy
//! request uses several cores of an otherwise idle machine instead of one (on 4 cores or
//! more: see `pool`). Segments are independent (each gets its own segment collector; fruits
//! merge exactly, as they do one after the other), so the answer is the same either way.
//!
//! Only where it pays: a request spends ~10-30 us handing segments to the pool, which would
//! be a loss for a term lookup, so small indexes, single segments and hits-only passes stay on
//! the calling thread.

use std::sync::OnceLock;

use tantivy::collector::Collector;
use tantivy::query::{EnableScoring, Query};
use tantivy::{Executor, Searcher};

/// Below this many documents a pass is too short for the hand-off to pay.
const MIN_DOCS: u64 = 100_000;

/// The pool: one thread per core, at most 4, on machines of 4 cores or more
/// (`EVERYCELL_SEARCH_THREADS` overrides; 1 turns the pool off). On 2 cores it stays off: the
/// client (here, the harness spinning on its socket while a request is out) and the HTTP
/// thread hold a core between them, so a second search thread has no idle core to run on, and
/// at 200 req/s every hand-off also pays an idle thread's wake-up. Measured on this 2-core box
/// in the harness (1M docs, p50 with the pool / without): histogram 8.65 / 6.55 ms, kNN 1.30 /
/// 1.13 ms, max 2.27 / 2.28 ms; with back-to-back requests (wrk) it halved the same passes.
fn pool() -> Option<&'static Executor> {
    static POOL: OnceLock<Option<Executor>> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = std::env::var("EVERYCELL_SEARCH_THREADS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(if cores >= 4 { cores.min(4) } else { 1 });
        if threads < 2 {
            return None;
        }
        Executor::multi_thread(threads, "everycell-search-").ok()
    })
    .as_ref()
}

/// `f` over `items`, on the pool when `parallel` (and there is one), else in order here.
/// Results keep the items' order.
pub(crate) fn map_if<A: Send, R: Send>(
    parallel: bool,
    items: Vec<A>,
    f: impl Fn(A) -> tantivy::Result<R> + Sync,
) -> tantivy::Result<Vec<R>> {
    match pool() {
        Some(executor) if parallel && items.len() > 1 => executor.map(f, items.into_iter()),
        _ => items.into_iter().map(f).collect(),
    }
}

/// `default`, unless `EVERYCELL_PARALLEL_MIN_DOCS` says otherwise (tests set 0 so that small
/// indexes take the pool too).
pub(crate) fn threshold(default: u64) -> u64 {
    static OVERRIDE: OnceLock<Option<u64>> = OnceLock::new();
    OVERRIDE
        .get_or_init(|| std::env::var("EVERYCELL_PARALLEL_MIN_DOCS").ok().and_then(|v| v.parse().ok()))
        .unwrap_or(default)
}

/// Whether a pass over `searcher` is worth splitting across the pool.
pub(super) fn worth_it(searcher: &Searcher) -> bool {
    searcher.segment_readers().len() >= 2 && searcher.num_docs() >= threshold(MIN_DOCS) && pool().is_some()
}

/// `searcher.search`, with the segments collected on the pool.
pub(super) fn search<C: Collector>(searcher: &Searcher, query: &dyn Query, collector: &C) -> tantivy::Result<C::Fruit> {
    let Some(executor) = pool() else { return searcher.search(query, collector) };
    let scoring = if collector.requires_scoring() {
        EnableScoring::enabled_from_searcher(searcher)
    } else {
        EnableScoring::disabled_from_searcher(searcher)
    };
    searcher.search_with_executor(query, collector, executor, scoring)
}
