//! The walk of the two bit-parallel NFAs: the URL pattern's (`matcher`, over its own
//! instructions: the whole input must match) and the regexp engine's (`regexp/bits.rs`:
//! a match at the input's start, positions told apart at its start and end). The set of
//! threads is a `u64`, bit `pc` for instruction `pc` (programs of at most 64
//! instructions); empty transitions are followed once, when a program is compiled, into a
//! closure per instruction. A code point then costs one pass over the waiting threads:
//! each engine says which of its instructions take the code point and what follows one.

/// The instructions of `threads`, lowest first.
#[inline(always)]
pub(crate) fn each(mut threads: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (threads != 0).then(|| {
            let pc = threads.trailing_zeros() as usize;
            threads &= threads - 1;
            pc
        })
    })
}

/// The threads after one code point: the union of `after(pc)` over the threads `pc` of
/// `waiting` that `takes` the code point.
#[inline(always)]
pub(crate) fn step(
    waiting: u64,
    takes: impl Fn(usize) -> bool,
    after: impl Fn(usize) -> u64,
) -> u64 {
    let mut next = 0;
    for pc in each(waiting) {
        if takes(pc) {
            next |= after(pc);
        }
    }
    next
}
