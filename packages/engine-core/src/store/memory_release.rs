//! Hands the memory that indexing freed back to the operating system once writes pause.
//!
//! The writer builds each segment in arenas of 1 MiB pages and frees them at commit; glibc
//! keeps freed heap (its mmap threshold grows to the size of the chunks freed, so later ones
//! come from the heap too) for the next allocation. After a 1M-document load that was 127 MiB
//! of the process's 222 MiB of anonymous memory, resident for as long as the process lives
//! although nothing uses it. `malloc_trim` returns it; it runs on the refresh thread, never
//! on a request, and only when writes have paused: once a second after the last commit, and
//! once more later for what background merges freed after it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Quiet time after the last commit before the first and the second release.
const FIRST_AFTER: Duration = Duration::from_secs(1);
const SECOND_AFTER: Duration = Duration::from_secs(15);

/// When the last commit was and how many releases followed it.
struct Schedule {
    /// Milliseconds since `epoch()` of the last commit.
    last_write_ms: AtomicU64,
    /// Releases done since that commit (0, 1 or 2).
    released: AtomicU64,
}

impl Schedule {
    const fn new() -> Schedule {
        Schedule { last_write_ms: AtomicU64::new(0), released: AtomicU64::new(2) }
    }

    fn note_write(&self, now_ms: u64) {
        self.last_write_ms.store(now_ms, Ordering::Relaxed);
        self.released.store(0, Ordering::Relaxed);
    }

    /// True when a release is due at `now_ms` (and counts it as done).
    fn due(&self, now_ms: u64) -> bool {
        let released = self.released.load(Ordering::Relaxed);
        let after = match released {
            0 => FIRST_AFTER,
            1 => SECOND_AFTER,
            _ => return false,
        };
        let quiet = now_ms.saturating_sub(self.last_write_ms.load(Ordering::Relaxed));
        quiet >= after.as_millis() as u64
            && self.released.compare_exchange(released, released + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok()
    }
}

static SCHEDULE: Schedule = Schedule::new();

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64
}

/// A commit or merge just freed writer memory.
pub fn note_write() {
    SCHEDULE.note_write(now_ms());
}

/// Called on every refresh tick: releases when writes have been quiet long enough.
pub fn release_if_idle() {
    if SCHEDULE.due(now_ms()) {
        release();
    }
}

/// Returns freed heap to the OS (glibc); elsewhere there is nothing to do.
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks and shrinks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_once_writes_pause_then_once_more_for_merges() {
        let s = Schedule::new();
        assert!(!s.due(10_000), "nothing written yet");
        s.note_write(10_000);
        assert!(!s.due(10_500), "writes only just paused");
        assert!(s.due(11_000));
        assert!(!s.due(11_100), "the first release is done");
        assert!(s.due(25_000));
        assert!(!s.due(99_000), "two releases per pause");
        s.note_write(100_000);
        assert!(s.due(101_000), "a new write starts over");
    }
}
