//! aarch64 kernel: NEON (always present on aarch64), with the nibble-table look-up done by
//! `vqtbl1q_u8`.

use super::{HI_TABLE, LO_TABLE, class};
use std::arch::aarch64::*;

/// Moves the top bit of each of 16 bytes into a 16-bit mask.
///
/// # Safety
///
/// NEON is always available on aarch64.
#[inline(always)]
unsafe fn movemask(v: uint8x16_t) -> u32 {
    // SAFETY: NEON is part of the aarch64 baseline.
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
///
/// # Safety
///
/// `ptr` must point to 16 readable bytes.
#[inline(always)]
unsafe fn neon_block(ptr: *const u8) -> (u32, u32) {
    // SAFETY: the caller guarantees 16 readable bytes; NEON is part of the baseline.
    unsafe {
        let v = vld1q_u8(ptr);
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

/// The NEON kernel.
pub(super) fn classify_neon(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    for (w, (s_out, u_out)) in special.iter_mut().zip(upper.iter_mut()).enumerate() {
        let base = w * 64;
        let len = (input.len() - base).min(64);
        let (mut s, mut u) = (0u64, 0u64);
        let mut off = 0;
        while off < len {
            let at = base + off;
            let (bs, bu) = if at + 16 <= input.len() {
                // SAFETY: 16 bytes are readable from `at`.
                unsafe { neon_block(input.as_ptr().add(at)) }
            } else {
                let mut buf = [0u8; 16];
                buf[..input.len() - at].copy_from_slice(&input[at..]);
                // SAFETY: `buf` holds 16 bytes.
                unsafe { neon_block(buf.as_ptr()) }
            };
            s |= (bs as u64) << off;
            u |= (bu as u64) << off;
            off += 16;
        }
        let valid = if len >= 64 { !0 } else { (1u64 << len) - 1 };
        *s_out = s & valid;
        *u_out = u & valid;
    }
}
