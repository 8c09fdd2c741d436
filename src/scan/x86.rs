//! x86_64 kernels: SSE2 (part of the x86_64 baseline) and AVX2 (chosen at run time).

use super::{HI_TABLE, LO_TABLE, Task, Words, class};
use std::arch::x86_64::*;

/// Classifies 16 bytes with SSE2 compares; returns (special, upper) as 16-bit masks.
#[inline(always)]
fn sse2_block(bytes: &[u8; 16]) -> (u32, u32) {
    // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the 16 bytes of `bytes`.
    unsafe {
        let v = _mm_loadu_si128(bytes.as_ptr() as *const __m128i);
        // Signed compares: bytes >= 0x80 are negative and fall outside every ASCII range.
        let in_range = |lo: u8, hi: u8| {
            _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
            )
        };
        let upper = in_range(b'A', b'Z');
        let mut plain = _mm_or_si128(in_range(b'0', b'9'), upper);
        plain = _mm_or_si128(plain, in_range(b'a', b'z'));
        // `( ) * + , - .` are contiguous (0x28..=0x2E).
        plain = _mm_or_si128(plain, in_range(b'(', b'.'));
        for &c in b"!$&;=_~" {
            plain = _mm_or_si128(plain, _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
        }
        let plain_bits = _mm_movemask_epi8(plain) as u32;
        let upper_bits = _mm_movemask_epi8(upper) as u32;
        (!plain_bits & 0xFFFF, upper_bits)
    }
}

/// The SSE2 kernel (part of the x86_64 baseline).
#[derive(Clone, Copy)]
pub(crate) struct Sse2;

impl Words for Sse2 {
    #[inline(always)]
    fn full(self, bytes: &[u8; 64]) -> (u64, u64) {
        let (mut s, mut u) = (0u64, 0u64);
        for (i, block) in bytes.chunks_exact(16).enumerate() {
            let (bs, bu) = sse2_block(block.try_into().expect("16 bytes"));
            s |= u64::from(bs) << (16 * i);
            u |= u64::from(bu) << (16 * i);
        }
        (s, u)
    }
}

/// Classifies 32 bytes with two nibble-table look-ups; returns (special, upper).
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_block(bytes: &[u8; 32]) -> (u32, u32) {
    // SAFETY: AVX2 is enabled for this function (the caller's contract); the loads read
    // the 32 bytes of `bytes` and the two 16-byte tables, broadcast to both lanes.
    unsafe {
        let v = _mm256_loadu_si256(bytes.as_ptr() as *const __m256i);
        let lo_t =
            _mm256_broadcastsi128_si256(_mm_loadu_si128(LO_TABLE.as_ptr() as *const __m128i));
        let hi_t =
            _mm256_broadcastsi128_si256(_mm_loadu_si128(HI_TABLE.as_ptr() as *const __m128i));
        let nibble = _mm256_set1_epi8(0x0F);
        let lo = _mm256_and_si256(v, nibble);
        let hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
        let cls = _mm256_and_si256(_mm256_shuffle_epi8(lo_t, lo), _mm256_shuffle_epi8(hi_t, hi));
        let zero = _mm256_setzero_si256();
        let special = _mm256_movemask_epi8(_mm256_cmpeq_epi8(cls, zero)) as u32;
        let upper_bits = _mm256_and_si256(cls, _mm256_set1_epi8(class::UPPER as i8));
        let not_upper = _mm256_movemask_epi8(_mm256_cmpeq_epi8(upper_bits, zero)) as u32;
        (special, !not_upper)
    }
}

/// Classifies 16 bytes with two nibble-table look-ups (the 128-bit form of
/// [`avx2_block`]); returns (special, upper) as 16-bit masks.
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_block16(bytes: &[u8; 16]) -> (u32, u32) {
    // SAFETY: AVX2 (and so SSSE3's byte shuffle) is enabled for this function (the
    // caller's contract); the loads read the 16 bytes of `bytes` and the two tables.
    unsafe {
        let v = _mm_loadu_si128(bytes.as_ptr() as *const __m128i);
        let lo_t = _mm_loadu_si128(LO_TABLE.as_ptr() as *const __m128i);
        let hi_t = _mm_loadu_si128(HI_TABLE.as_ptr() as *const __m128i);
        let nibble = _mm_set1_epi8(0x0F);
        let lo = _mm_and_si128(v, nibble);
        let hi = _mm_and_si128(_mm_srli_epi16(v, 4), nibble);
        let cls = _mm_and_si128(_mm_shuffle_epi8(lo_t, lo), _mm_shuffle_epi8(hi_t, hi));
        let zero = _mm_setzero_si128();
        let special = _mm_movemask_epi8(_mm_cmpeq_epi8(cls, zero)) as u32;
        let upper_bits = _mm_and_si128(cls, _mm_set1_epi8(class::UPPER as i8));
        let not_upper = _mm_movemask_epi8(_mm_cmpeq_epi8(upper_bits, zero)) as u32;
        (special, !not_upper & 0xFFFF)
    }
}

/// The masks of an input shorter than 16 bytes, copied into a zeroed block: out of line,
/// so that the callers of [`Avx2::short_unframed`] need no stack frame for the copy.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn avx2_tiny(input: &[u8]) -> (u64, u64) {
    let n = input.len();
    let mut block = [0u8; 16];
    block[..n].copy_from_slice(input);
    // SAFETY: AVX2 is enabled for this function (the caller's contract).
    let (s, u) = unsafe { avx2_block16(&block) };
    // The zero padding is special: keep the input's bits only.
    let valid = (1u64 << n) - 1;
    (u64::from(s) & valid, u64::from(u) & valid)
}

/// Classifies 64 bytes (two 32-byte blocks); returns the (special, upper) mask words.
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_word(bytes: &[u8; 64]) -> (u64, u64) {
    let (lo, hi) = bytes.split_at(32);
    let (lo, hi): (&[u8; 32], &[u8; 32]) = (
        lo.try_into().unwrap_or(&[0; 32]),
        hi.try_into().unwrap_or(&[0; 32]),
    );
    // SAFETY: AVX2 is enabled for this function (the caller's contract).
    let ((s0, u0), (s1, u1)) = unsafe { (avx2_block(lo), avx2_block(hi)) };
    (
        u64::from(s0) | u64::from(s1) << 32,
        u64::from(u0) | u64::from(u1) << 32,
    )
}

/// The AVX2 kernel. A value exists only inside [`run_avx2`], a function compiled for AVX2
/// that [`run`] calls after the CPU reported AVX2, so its methods may use AVX2.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

/// The masks of an input from those of its first block and of its last block, which
/// starts `shift` bytes in (the overlap is classified twice, identically).
#[inline(always)]
fn overlapped((s0, u0): (u32, u32), (s1, u1): (u32, u32), shift: usize) -> (u64, u64) {
    (
        u64::from(s0) | u64::from(s1) << shift,
        u64::from(u0) | u64::from(u1) << shift,
    )
}

impl Avx2 {
    /// The masks of 32 to 64 bytes as two overlapping 32-byte blocks (the overlap is
    /// classified twice, identically).
    #[inline(always)]
    fn two_blocks(self, input: &[u8]) -> (u64, u64) {
        let n = input.len();
        let first: &[u8; 32] = input[..32].try_into().expect("32 bytes");
        let last: &[u8; 32] = input[n - 32..].try_into().expect("32 bytes");
        // SAFETY: an `Avx2` value exists only where the CPU has AVX2 (see the type).
        let (a, b) = unsafe { (avx2_block(first), avx2_block(last)) };
        overlapped(a, b, n - 32)
    }

    /// [`Words::short`] with no copy from 16 bytes up (two overlapping 16-byte blocks
    /// below 32) and the copy of a shorter input out of line ([`avx2_tiny`]), so that the
    /// leaf function [`avx2_short_leaf`] needs no stack frame.
    #[inline(always)]
    fn short_unframed(self, input: &[u8]) -> (u64, u64) {
        let n = input.len();
        if n >= 32 {
            self.two_blocks(input)
        } else if n >= 16 {
            let first: &[u8; 16] = input[..16].try_into().expect("16 bytes");
            let last: &[u8; 16] = input[n - 16..].try_into().expect("16 bytes");
            // SAFETY: an `Avx2` value exists only where the CPU has AVX2 (see the type).
            let (a, b) = unsafe { (avx2_block16(first), avx2_block16(last)) };
            overlapped(a, b, n - 16)
        } else {
            // SAFETY: as above.
            unsafe { avx2_tiny(input) }
        }
    }
}

impl Words for Avx2 {
    #[inline(always)]
    fn full(self, bytes: &[u8; 64]) -> (u64, u64) {
        // SAFETY: an `Avx2` value exists only where the CPU has AVX2 (see the type).
        unsafe { avx2_word(bytes) }
    }

    /// Inputs of 32 to 63 bytes as two overlapping 32-byte blocks (the overlap is
    /// classified twice, identically); only shorter ones are copied.
    #[inline(always)]
    fn short(self, input: &[u8]) -> (u64, u64) {
        let n = input.len();
        if n >= 32 {
            self.two_blocks(input)
        } else {
            let mut block = [0u8; 32];
            block[..n].copy_from_slice(input);
            // SAFETY: an `Avx2` value exists only where the CPU has AVX2 (see the type).
            let (s, u) = unsafe { avx2_block(&block) };
            // The zero padding is special: keep the input's bits only.
            let valid = (1u64 << n) - 1;
            (u64::from(s) & valid, u64::from(u) & valid)
        }
    }
}

/// The AVX2 kernel called from baseline code: each word is classified by a small leaf
/// function compiled for AVX2, and the task runs inlined in its caller. A URL of up to 64
/// bytes costs one leaf call, with no register to save, where [`run_avx2`] saves the
/// caller's registers around the whole task. A value exists only where the CPU reported
/// AVX2 ([`run`]).
#[derive(Clone, Copy)]
pub(crate) struct Avx2Leaf(());

/// [`avx2_word`] as a leaf function.
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn avx2_full_leaf(bytes: &[u8; 64]) -> (u64, u64) {
    // SAFETY: AVX2 is enabled for this function (the caller's contract).
    unsafe { avx2_word(bytes) }
}

/// [`Avx2::short_unframed`] as a leaf function.
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn avx2_short_leaf(input: &[u8]) -> (u64, u64) {
    Avx2(()).short_unframed(input)
}

impl Words for Avx2Leaf {
    #[inline(always)]
    fn full(self, bytes: &[u8; 64]) -> (u64, u64) {
        // SAFETY: an `Avx2Leaf` value exists only where the CPU has AVX2 (see the type).
        unsafe { avx2_full_leaf(bytes) }
    }

    #[inline(always)]
    fn short(self, input: &[u8]) -> (u64, u64) {
        // SAFETY: as above.
        unsafe { avx2_short_leaf(input) }
    }
}

/// Runs `task` with the AVX2 kernel, in code compiled for AVX2 (the task's code is
/// inlined here, so the AVX2 blocks inline into it).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<T: Task>(task: T) -> T::Out {
    task.run(Avx2(()))
}

/// Whether this CPU has AVX2 (the standard library caches the answer).
#[inline]
pub(super) fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// Runs `task` with AVX2 when the CPU has it, else with SSE2.
#[inline(always)]
pub(super) fn run<T: Task>(task: T) -> T::Out {
    if has_avx2() {
        // SAFETY: the CPU reported AVX2.
        unsafe { run_avx2(task) }
    } else {
        task.run(Sse2)
    }
}

/// Runs `task` inlined in its caller, with AVX2 leaf calls ([`Avx2Leaf`]) when the CPU
/// has AVX2, else with SSE2.
#[inline(always)]
pub(super) fn run_leaf<T: Task>(task: T) -> T::Out {
    if has_avx2() {
        task.run(Avx2Leaf(()))
    } else {
        task.run(Sse2)
    }
}
