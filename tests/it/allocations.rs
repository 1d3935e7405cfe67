//! The test crate's allocator: the system's, counting the bytes each
//! thread holds and the most it held since it was last asked, so that a
//! test can say what a request made the service hold (an `actix_web::test`
//! runs the service on the test's own thread).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Bytes allocated on this thread and not yet freed on it.
    static HELD: Cell<isize> = const { Cell::new(0) };
    /// The most `HELD` has been since [`peak_since`] last reset it.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    let _ = HELD.try_with(|held| {
        let now = held.get() + bytes;
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn size(layout: Layout) -> isize {
    isize::try_from(layout.size()).unwrap_or(isize::MAX)
}

// SAFETY: every call is the system allocator's own, with the caller's
// layout; the counting touches only this thread's cells.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            count(size(layout));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        count(-size(layout));
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            count(size(layout));
        }
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            count(isize::try_from(new_size).unwrap_or(isize::MAX) - size(layout));
        }
        moved
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Starts counting this thread's peak from what it holds now.
pub fn reset_peak() {
    let held = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(held));
}

/// The most bytes this thread held above what it held at the last
/// [`reset_peak`].
pub fn peak_since(start: isize) -> usize {
    let peak = PEAK.with(Cell::get);
    usize::try_from(peak - start).unwrap_or(0)
}

/// What this thread holds now.
pub fn held() -> isize {
    HELD.with(Cell::get)
}
