//! aarch64 kernel: NEON (always present on aarch64), with the nibble-table look-up done by
//! `vqtbl1q_u8`.

use super::{HI_TABLE, LO_TABLE, Words, class};
use std::arch::aarch64::*;

/// Moves the top bit of each of 16 bytes into a 16-bit mask.
#[inline(always)]
fn movemask(v: uint8x16_t) -> u32 {
    // SAFETY: NEON is part of the aarch64 baseline; the load reads the 16-byte constant.
    unsafe {
        const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        let bits = vandq_u8(vshrq_n_u8::<7>(v), vdupq_n_u8(1));
        let weighted = vmulq_u8(bits, vld1q_u8(WEIGHTS.as_ptr()));
        let lo = vaddv_u8(vget_low_u8(weighted)) as u32;
        let hi = vaddv_u8(vget_high_u8(weighted)) as u32;
        lo | (hi << 8)
    }
}

/// Classifies 16 bytes; returns (special, upper).
#[inline(always)]
fn neon_block(bytes: &[u8; 16]) -> (u32, u32) {
    // SAFETY: NEON is part of the aarch64 baseline; the loads read the 16 bytes of `bytes`
    // and the two 16-byte tables.
    unsafe {
        let v = vld1q_u8(bytes.as_ptr());
        let lo_t = vld1q_u8(LO_TABLE.as_ptr());
        let hi_t = vld1q_u8(HI_TABLE.as_ptr());
        let lo = vandq_u8(v, vdupq_n_u8(0x0F));
        let hi = vshrq_n_u8::<4>(v);
        let cls = vandq_u8(vqtbl1q_u8(lo_t, lo), vqtbl1q_u8(hi_t, hi));
        let special = movemask(vceqzq_u8(cls));
        let upper = movemask(vtstq_u8(cls, vdupq_n_u8(class::UPPER)));
        (special, upper)
    }
}

/// The NEON kernel (part of the aarch64 baseline).
#[derive(Clone, Copy)]
pub(crate) struct Neon;

impl Words for Neon {
    #[inline(always)]
    fn full(self, bytes: &[u8; 64]) -> (u64, u64) {
        let (mut s, mut u) = (0u64, 0u64);
        for (i, block) in bytes.chunks_exact(16).enumerate() {
            let (bs, bu) = neon_block(block.try_into().expect("16 bytes"));
            s |= u64::from(bs) << (16 * i);
            u |= u64::from(bu) << (16 * i);
        }
        (s, u)
    }
}

/// A comparison result (each byte 0x00 or 0xFF) with byte `j` weighted by its place in
/// its half: `1 << (j % 8)` where the byte is 0xFF, else 0. Pairwise sums of such vectors
/// then build bitmasks with no carry (the weights of a sum are distinct powers of two).
#[cfg(any(feature = "canon", feature = "psl", feature = "rayon"))]
#[inline(always)]
fn weighted(v: uint8x16_t) -> uint8x16_t {
    const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: NEON is part of the aarch64 baseline; the load reads the 16-byte constant.
    unsafe { vandq_u8(v, vld1q_u8(WEIGHTS.as_ptr())) }
}

/// The 16-bit mask of a comparison result (each byte 0x00 or 0xFF; bit `j` is byte `j`),
/// for the dots of a host (`dots.rs`, part of the feature `psl`).
#[cfg(feature = "psl")]
#[inline(always)]
pub(super) fn mask16(v: uint8x16_t) -> u16 {
    // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
    unsafe {
        let w = weighted(v);
        // Three pairwise additions fold the 16 weighted bytes into 2: bytes 0-7, 8-15.
        let s = vpaddq_u8(w, w);
        let s = vpaddq_u8(s, s);
        let s = vpaddq_u8(s, s);
        vgetq_lane_u16::<0>(vreinterpretq_u16_u8(s))
    }
}

/// The 16-bit masks of five comparison results at once, in their order, for the
/// canonical keys' marks (`marks.rs`, part of the feature `canon`).
#[cfg(feature = "canon")]
#[inline(always)]
pub(super) fn mask16x5(v: [uint8x16_t; 5]) -> [u16; 5] {
    // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
    unsafe {
        let [a, b, c, d, e] = v.map(weighted);
        let zero = vdupq_n_u8(0);
        // Level 1: pairs of bytes; level 2: quads; level 3: halves, so that bytes 2k and
        // 2k + 1 of the result are the mask of input k.
        let (ab, cd, e0) = (vpaddq_u8(a, b), vpaddq_u8(c, d), vpaddq_u8(e, zero));
        let (abcd, e00) = (vpaddq_u8(ab, cd), vpaddq_u8(e0, e0));
        let all = vreinterpretq_u16_u8(vpaddq_u8(abcd, e00));
        [
            vgetq_lane_u16::<0>(all),
            vgetq_lane_u16::<1>(all),
            vgetq_lane_u16::<2>(all),
            vgetq_lane_u16::<3>(all),
            vgetq_lane_u16::<4>(all),
        ]
    }
}

/// The 64-bit mask of four comparison results (bit `16 * k + j` is byte `j` of `v[k]`),
/// for the line splitter (`lines.rs`, part of the feature `rayon`).
#[cfg(feature = "rayon")]
#[inline(always)]
pub(super) fn mask64(v: [uint8x16_t; 4]) -> u64 {
    // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
    unsafe {
        let [a, b, c, d] = v.map(weighted);
        let (ab, cd) = (vpaddq_u8(a, b), vpaddq_u8(c, d));
        let abcd = vpaddq_u8(ab, cd);
        vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)))
    }
}
