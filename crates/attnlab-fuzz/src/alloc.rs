//! A global allocator that counts the bytes alive and aborts past [`CAP`], so that "no
//! allocation beyond the named limits" is something a fuzzer can find broken: an input
//! that makes a parser ask for gigabytes is a crash with this message, not a slow swap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most bytes alive at once: above every named input limit (a link's 1 MiB, a
/// brought file's 64 MiB, an E5 asset of 37 MB kept for the tokenizer target) with room
/// for what a parser builds from them.
pub const CAP: usize = 512 << 20;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counted and capped. Install it with
/// `#[global_allocator] static A: Capped = Capped;`.
pub struct Capped;

impl Capped {
    fn grow(size: usize) {
        let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
        if live > CAP {
            // No allocation here: a fixed message, then abort (the fuzzer's crash).
            let _ = std::io::stderr()
                .write_all(b"attnlab-fuzz: more than the 512 MiB cap allocated at once\n");
            std::process::abort();
        }
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` with the same arguments; the counters
// change nothing about the memory returned.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Capped::grow(layout.size());
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Capped::grow(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            Capped::grow(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The most bytes alive at once so far (0 unless [`Capped`] is the global allocator).
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}
