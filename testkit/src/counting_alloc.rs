//! A counting global allocator for the allocation tests. A test binary that wants it
//! installs `Counting` as its `#[global_allocator]`
//! (`#[global_allocator] static A: Counting = Counting;`).
//!
//! It counts allocations and reallocations twice: per thread (for tests that run in
//! parallel with others in the same binary) and over all threads (for code that allocates
//! on rayon's workers).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The allocator: the system allocator, counted.
pub struct Counting;

static ALL_THREADS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static THIS_THREAD: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    ALL_THREADS.fetch_add(1, Ordering::Relaxed);
    THIS_THREAD.with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counters (an
// atomic and a thread-local `Cell` with a const initializer and no destructor) allocate
// nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations made on this thread while `f` runs, and its result.
pub fn on_this_thread<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = THIS_THREAD.with(Cell::get);
    let out = f();
    (THIS_THREAD.with(Cell::get) - before, out)
}

/// Allocations made on any thread while `f` runs, and its result (the caller makes sure
/// nothing else allocates meanwhile).
pub fn on_all_threads<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALL_THREADS.load(Ordering::SeqCst);
    let out = f();
    (ALL_THREADS.load(Ordering::SeqCst) - before, out)
}
