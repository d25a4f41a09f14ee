//! `search.max_buckets` (65,535, ES's default): every bucket a multi-bucket aggregation
//! renders (empty histogram buckets included) is counted; past the limit rendering stops
//! early (so a 1 ms histogram over a year never materialises) and the search fails with
//! ES's `too_many_buckets_exception`. Rendering is single-threaded per search, so the
//! running count lives in a thread-local reset at the start of each render.

use std::cell::Cell;

pub const MAX_BUCKETS: u64 = 65_535;

thread_local! {
    static CREATED: Cell<u64> = const { Cell::new(0) };
    /// `search.max_buckets` for the search running on this thread (the engine sets it from
    /// the cluster settings around each search, `with_limit`).
    static LIMIT: Cell<u64> = const { Cell::new(MAX_BUCKETS) };
}

/// The limit in force on this thread.
pub fn limit() -> u64 {
    LIMIT.with(Cell::get)
}

/// Runs `f` with `limit` buckets allowed, then restores the previous limit.
pub fn with_limit<T>(limit: u64, f: impl FnOnce() -> T) -> T {
    let previous = LIMIT.with(|l| l.replace(limit));
    let out = f();
    LIMIT.with(|l| l.set(previous));
    out
}

pub(crate) fn reset() {
    CREATED.with(|c| c.set(0));
}

/// Counts one bucket; false once the limit is exceeded (callers stop creating buckets).
pub(crate) fn consume() -> bool {
    CREATED.with(|c| {
        let n = c.get().saturating_add(1);
        c.set(n);
        n <= limit()
    })
}

pub(crate) fn exceeded() -> Option<u64> {
    CREATED.with(|c| (c.get() > limit()).then(|| c.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_the_limit() {
        reset();
        assert!((0..MAX_BUCKETS).all(|_| consume()));
        assert_eq!(exceeded(), None);
        assert!(!consume());
        assert_eq!(exceeded(), Some(MAX_BUCKETS + 1));
        reset();
        assert_eq!(exceeded(), None);
    }
}
