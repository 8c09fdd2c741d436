//! x86_64 kernels: SSE2 (part of the x86_64 baseline) and AVX2 (chosen at run time).

use super::{HI_TABLE, LO_TABLE, class};
use std::arch::x86_64::*;

/// Copies the last, partial block of `input` (from `start`) into a zero-filled buffer so
/// that a full-width load is in bounds. Zero bytes are *special*; the caller masks the bits
/// past the end away.
#[inline(always)]
fn padded<const N: usize>(input: &[u8], start: usize) -> [u8; N] {
    let mut buf = [0u8; N];
    let rest = &input[start..];
    buf[..rest.len()].copy_from_slice(rest);
    buf
}

/// The bits of a 64-byte block that stand for input bytes (`len` of them, ≤ 64).
#[inline(always)]
fn valid_bits(len: usize) -> u64 {
    if len >= 64 { !0 } else { (1u64 << len) - 1 }
}

// ---- SSE2 ----------------------------------------------------------------------------

/// Classifies 16 bytes with SSE2 compares; returns (special, upper) as 16-bit masks.
///
/// # Safety
///
/// SSE2 is part of the x86_64 baseline, so the intrinsics are always available; `ptr`
/// must point to 16 readable bytes.
#[inline(always)]
unsafe fn sse2_block(ptr: *const u8) -> (u32, u32) {
    // SAFETY: the caller guarantees 16 readable bytes; SSE2 is always present on x86_64.
    unsafe {
        let v = _mm_loadu_si128(ptr as *const __m128i);
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

/// The SSE2 kernel.
pub(super) fn classify_sse2(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    for (w, (s_out, u_out)) in special.iter_mut().zip(upper.iter_mut()).enumerate() {
        let base = w * 64;
        let len = (input.len() - base).min(64);
        let (mut s, mut u) = (0u64, 0u64);
        let mut off = 0;
        while off < len {
            let at = base + off;
            let (bs, bu) = if at + 16 <= input.len() {
                // SAFETY: `at + 16 <= input.len()`, so 16 bytes are readable.
                unsafe { sse2_block(input.as_ptr().add(at)) }
            } else if input.len() >= 16 {
                // The tail: load the last 16 bytes (overlapping what was done) and drop
                // the bits of the bytes before `at`.
                let from = input.len() - 16;
                // SAFETY: `from + 16 == input.len()`, so 16 bytes are readable.
                let (bs, bu) = unsafe { sse2_block(input.as_ptr().add(from)) };
                (bs >> (at - from), bu >> (at - from))
            } else {
                let buf = padded::<16>(input, at);
                // SAFETY: `buf` holds 16 bytes.
                unsafe { sse2_block(buf.as_ptr()) }
            };
            s |= (bs as u64) << off;
            u |= (bu as u64) << off;
            off += 16;
        }
        let valid = valid_bits(len);
        *s_out = s & valid;
        *u_out = u & valid;
    }
}

// ---- AVX2 ----------------------------------------------------------------------------

/// Classifies 32 bytes with two nibble-table look-ups; returns (special, upper).
///
/// # Safety
///
/// The CPU must support AVX2, and `ptr` must point to 32 readable bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_block(ptr: *const u8) -> (u32, u32) {
    // SAFETY: the caller guarantees AVX2 and 32 readable bytes; the tables are 16 bytes,
    // broadcast to both lanes.
    unsafe {
        let v = _mm256_loadu_si256(ptr as *const __m256i);
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

/// The AVX2 kernel.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn classify_avx2(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    for (w, (s_out, u_out)) in special.iter_mut().zip(upper.iter_mut()).enumerate() {
        let base = w * 64;
        let len = (input.len() - base).min(64);
        let (mut s, mut u) = (0u64, 0u64);
        let mut off = 0;
        while off < len {
            let at = base + off;
            let (bs, bu) = if at + 32 <= input.len() {
                // SAFETY: 32 bytes are readable from `at`; AVX2 is enabled here.
                unsafe { avx2_block(input.as_ptr().add(at)) }
            } else if input.len() >= 32 {
                // The tail: load the last 32 bytes (overlapping what was done) and drop
                // the bits of the bytes before `at`.
                let from = input.len() - 32;
                // SAFETY: `from + 32 == input.len()`, so 32 bytes are readable; AVX2 is on.
                let (bs, bu) = unsafe { avx2_block(input.as_ptr().add(from)) };
                (bs >> (at - from), bu >> (at - from))
            } else {
                let buf = padded::<32>(input, at);
                // SAFETY: `buf` holds 32 bytes; AVX2 is enabled here.
                unsafe { avx2_block(buf.as_ptr()) }
            };
            s |= (bs as u64) << off;
            u |= (bu as u64) << off;
            off += 32;
        }
        let valid = valid_bits(len);
        *s_out = s & valid;
        *u_out = u & valid;
    }
}

/// The AVX2 kernel behind a safe signature; only ever selected after
/// `is_x86_feature_detected!("avx2")` returned true (see `scan::select_kernel`).
pub(super) fn classify_avx2_safe(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    debug_assert!(std::is_x86_feature_detected!("avx2"));
    // SAFETY: this function is selected (and listed in `scan::kernels`) only when the CPU
    // reports AVX2.
    unsafe { classify_avx2(input, special, upper) }
}
