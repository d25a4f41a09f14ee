//! The counted thread's heap: a size-class allocator whose calls cost the same few instructions
//! whatever came before them.
//!
//! glibc's allocator is fast, but what a call costs depends on the whole heap's history (which
//! bins hold what, when it consolidates). Under callgrind that turned one allocation more at
//! start-up (the plant's environment variable, parsed) into changes on every row of a run, up to
//! 1.1% (`metric.matrix_stats`), 0.8% (`feature.sort_doc`): a pull request that allocates once
//! more anywhere would move rows it never touched. Here a block's size class is the next power of
//! two; a free block goes on its class's list and the next allocation of that class takes it back,
//! else the block is cut from one big reserved region. So the count is the engine's own
//! instructions plus this allocator's (two paths, a dozen instructions each), and a change shows
//! on the rows whose requests it changes.
//!
//! Only the thread that runs the requests (`determinism::pin_this_thread`) allocates here; other
//! threads, and everything allocated before the pin, use glibc (`System`), and a pointer is told
//! apart by whether it lies in the region. A block of the region freed by another thread is left
//! unused (the runner is short-lived; that happens rarely, e.g. at shutdown). C code (zstd) calls
//! glibc's `malloc` directly and is counted with it: its allocations repeat the same few sizes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Virtual address space reserved for the region (not committed: pages appear when first used).
const REGION_BYTES: usize = 32 << 30;
/// Smallest class: 16 bytes (the alignment every allocation gets).
const MIN_SHIFT: u32 = 4;
const CLASSES: usize = 40;
/// Blocks are aligned to their size up to a page; a larger alignment goes to glibc.
const MAX_ALIGN: usize = 4096;

static REGION_START: AtomicUsize = AtomicUsize::new(0);
static REGION_END: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTED: Cell<bool> = const { Cell::new(false) };
    static BUMP: Cell<usize> = const { Cell::new(0) };
    static FREE: [Cell<usize>; CLASSES] = const { [const { Cell::new(0) }; CLASSES] };
}

/// From now on this thread allocates from the region (reserved here, once).
pub fn use_on_this_thread() -> Result<(), String> {
    if REGION_START.load(Ordering::Relaxed) == 0 {
        // SAFETY: an anonymous private mapping with no address hint; the result is checked.
        let start = unsafe {
            libc::mmap(
                null_mut(),
                REGION_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return Err(format!("could not reserve {} GiB for the counted heap", REGION_BYTES >> 30));
        }
        REGION_START.store(start as usize, Ordering::Relaxed);
        REGION_END.store(start as usize + REGION_BYTES, Ordering::Relaxed);
        BUMP.with(|b| b.set(start as usize));
    }
    COUNTED.with(|c| c.set(true));
    Ok(())
}

fn counted() -> bool {
    COUNTED.try_with(Cell::get).unwrap_or(false)
}

fn in_region(ptr: *mut u8) -> bool {
    let p = ptr as usize;
    p >= REGION_START.load(Ordering::Relaxed) && p < REGION_END.load(Ordering::Relaxed)
}

/// The class of a layout: log2 of its block size.
fn class_of(layout: Layout) -> usize {
    let size = layout.size().max(layout.align()).max(1 << MIN_SHIFT);
    (usize::BITS - (size - 1).leading_zeros()) as usize
}

fn take(class: usize) -> *mut u8 {
    if class >= CLASSES {
        return null_mut();
    }
    let head = FREE.with(|f| f[class].get());
    if head != 0 {
        // SAFETY: a free block holds the address of the next free block of its class.
        let next = unsafe { *(head as *const usize) };
        FREE.with(|f| f[class].set(next));
        return head as *mut u8;
    }
    let size = 1usize << class;
    let bump = BUMP.with(Cell::get);
    let start = (bump + size.min(MAX_ALIGN) - 1) & !(size.min(MAX_ALIGN) - 1);
    if start + size > REGION_END.load(Ordering::Relaxed) {
        return null_mut();
    }
    BUMP.with(|b| b.set(start + size));
    start as *mut u8
}

fn give_back(ptr: *mut u8, class: usize) {
    let head = FREE.with(|f| f[class].get());
    // SAFETY: the block is at least 16 bytes and no longer in use: it holds the list's next link.
    unsafe { *(ptr as *mut usize) = head };
    FREE.with(|f| f[class].set(ptr as usize));
}

pub struct CountedHeap;

// SAFETY: blocks of the region are only handed out and listed by the thread that owns them (the
// lists and the bump pointer are thread-local); every other pointer goes to glibc's allocator.
unsafe impl GlobalAlloc for CountedHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !counted() || layout.align() > MAX_ALIGN {
            return System.alloc(layout);
        }
        take(class_of(layout))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !in_region(ptr) {
            System.dealloc(ptr, layout);
        } else if counted() {
            give_back(ptr, class_of(layout));
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        if in_region(ptr) && counted() && class_of(layout) == class_of(new_layout) {
            return ptr;
        }
        if !in_region(ptr) && !counted() {
            return System.realloc(ptr, layout, new_size);
        }
        let moved = self.alloc(new_layout);
        if !moved.is_null() {
            std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
            self.dealloc(ptr, layout);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_the_next_power_of_two_of_size_and_alignment() {
        let class = |size, align| class_of(Layout::from_size_align(size, align).unwrap());
        assert_eq!(class(1, 1), 4);
        assert_eq!(class(16, 8), 4);
        assert_eq!(class(17, 8), 5);
        assert_eq!(class(4096, 8), 12);
        assert_eq!(class(4097, 8), 13);
        assert_eq!(class(8, 64), 6);
    }
}
