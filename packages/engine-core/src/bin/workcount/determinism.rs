//! The counted thread's clock and random bytes, made functions of its own history.
//!
//! Under callgrind a request's instructions must depend on the request alone. Two inputs inside
//! the process do not: the clock (a reply's `took` milliseconds change its length, `now` seeds
//! `random_sampler`) and the random bytes behind every `HashMap`'s hash keys. Left real, they made
//! two runs of one build on one index differ by up to 0.9% on a row (a one-byte difference in
//! an allocation sends glibc's allocator down other paths for the rest of the run).
//!
//! So this binary defines `clock_gettime` and `getrandom` itself: the linker binds every call in
//! the executable (std's `Instant`/`SystemTime`, `RandomState`, the engine's and tantivy's) to
//! these instead of glibc's. On the thread that called [`pin_this_thread`] (the one that runs the
//! requests) the clock starts at a given instant and advances one microsecond per reading, and
//! random bytes come from a seeded stream; every other thread gets the real clock and real random
//! bytes through the raw system calls, so background threads keep real timeouts and unique ids.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// How far the pinned clock moves per reading.
const TICK_NS: u64 = 1_000;

thread_local! {
    static PINNED: Cell<bool> = const { Cell::new(false) };
    static TICKS: Cell<u64> = const { Cell::new(0) };
    static STREAM: Cell<u64> = const { Cell::new(0x853c_49e6_748f_ea9b) };
}

/// Wall-clock and monotonic readings at tick 0 of the pinned clock, in nanoseconds.
static REALTIME_START_NS: AtomicU64 = AtomicU64::new(0);
static MONOTONIC_START_NS: AtomicU64 = AtomicU64::new(0);

fn real_clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: the raw system call writes one timespec through a valid pointer.
    unsafe { libc::syscall(libc::SYS_clock_gettime, clock, &mut ts as *mut libc::timespec) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// From here on this thread reads a clock that starts at `epoch_ms` (wall) and at the real
/// monotonic reading (so deadlines it computes stay near real ones), and a seeded random stream.
pub fn pin_this_thread(epoch_ms: u64) {
    REALTIME_START_NS.store(epoch_ms * 1_000_000, Ordering::Relaxed);
    MONOTONIC_START_NS.store(real_clock_ns(libc::CLOCK_MONOTONIC), Ordering::Relaxed);
    PINNED.with(|p| p.set(true));
}

/// This thread's real on-CPU time (never the pinned clock), for the native timing of a row.
pub fn thread_cpu_ns() -> u64 {
    real_clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn pinned() -> bool {
    PINNED.try_with(Cell::get).unwrap_or(false)
}

/// # Safety
/// As glibc's `clock_gettime`: `ts` must point to a writable `timespec`.
#[no_mangle]
pub unsafe extern "C" fn clock_gettime(clock: libc::clockid_t, ts: *mut libc::timespec) -> libc::c_int {
    if !pinned() {
        return libc::syscall(libc::SYS_clock_gettime, clock, ts) as libc::c_int;
    }
    let ticks = TICKS.with(|t| {
        t.set(t.get() + 1);
        t.get()
    });
    let start = match clock {
        libc::CLOCK_REALTIME | libc::CLOCK_REALTIME_COARSE => REALTIME_START_NS.load(Ordering::Relaxed),
        _ => MONOTONIC_START_NS.load(Ordering::Relaxed),
    };
    let ns = start + ticks * TICK_NS;
    (*ts).tv_sec = (ns / 1_000_000_000) as libc::time_t;
    (*ts).tv_nsec = (ns % 1_000_000_000) as libc::c_long;
    0
}

/// SplitMix64: the pinned thread's random bytes, the same sequence in every run.
fn next_random() -> u64 {
    STREAM.with(|s| {
        let mut z = s.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
        s.set(z);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

/// # Safety
/// As glibc's `getrandom`: `buf` must point to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn getrandom(buf: *mut libc::c_void, len: libc::size_t, flags: libc::c_uint) -> libc::ssize_t {
    if !pinned() {
        return libc::syscall(libc::SYS_getrandom, buf, len, flags) as libc::ssize_t;
    }
    let bytes = std::slice::from_raw_parts_mut(buf.cast::<u8>(), len);
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&next_random().to_le_bytes()[..chunk.len()]);
    }
    len as libc::ssize_t
}
