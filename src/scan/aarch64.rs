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
