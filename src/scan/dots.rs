//! The dots among 32 bytes as a bitmask: how the public suffix short cut
//! (`psl::table`) finds the last two labels of a host without a branch on their lengths.

/// Bit `j` set when `b[at + j]` is a dot, for the bytes of `b` among the 32 from `at`
/// (the bits past the end of `b` are clear); `None` when `b` has fewer than 16 bytes from
/// `at`. Two reads of 16 bytes: from `at`, and from `at + 16` or, when `b` ends before
/// that, from 16 bytes before its end (the two overlap, and agree where they do).
#[inline(always)]
pub(crate) fn dots32(b: &[u8], at: usize) -> Option<u32> {
    let first = b.get(at..at.checked_add(16)?)?;
    let second_at = (at + 16).min(b.len() - 16);
    let second = &b[second_at..second_at + 16];
    Some(kernel(first.try_into().ok()?) | kernel(second.try_into().ok()?) << (second_at - at))
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn kernel(bytes: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline; the unaligned load reads the 16 bytes
    // of `bytes`.
    unsafe {
        let v = _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'.' as i8))) as u32
    }
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn kernel(bytes: &[u8; 16]) -> u32 {
    use std::arch::aarch64::{vceqq_u8, vdupq_n_u8, vld1q_u8};
    // SAFETY: NEON is part of the aarch64 baseline; the load reads the 16 bytes of
    // `bytes`.
    let dots = unsafe { vceqq_u8(vld1q_u8(bytes.as_ptr()), vdupq_n_u8(b'.')) };
    u32::from(super::aarch64::mask16(dots))
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn kernel(bytes: &[u8; 16]) -> u32 {
    scalar(bytes)
}

/// The portable kernel, a byte at a time (the reference the tests compare the SIMD
/// kernels with).
#[cfg_attr(any(target_arch = "x86_64", target_arch = "aarch64"), allow(dead_code))]
#[inline(always)]
fn scalar(bytes: &[u8; 16]) -> u32 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |m, (j, &c)| m | u32::from(c == b'.') << j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dot_at_every_place() {
        for len in 16..=40 {
            let mut b = vec![b'a'; len];
            for at in 0..=len - 16 {
                for dot in 0..len {
                    b[dot] = b'.';
                    b[(dot + 7) % len] = b'.';
                    let want = (0..32.min(len - at))
                        .fold(0u32, |m, j| m | u32::from(b[at + j] == b'.') << j);
                    assert_eq!(dots32(&b, at), Some(want), "{len} {at} {dot}");
                    b[dot] = b'a';
                    b[(dot + 7) % len] = b'a';
                }
            }
            assert_eq!(dots32(&b, len - 15), None);
        }
        assert_eq!(dots32(b"a.b", 0), None);
        assert_eq!(dots32(&[b'.'; 20], usize::MAX), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 4000,
            failure_persistence: None,
            ..Default::default()
        })]

        /// This CPU's kernel (SSE2 on x86_64, NEON on aarch64) gives the scalar kernel's
        /// mask on random blocks of 16 bytes, mostly of dots and bytes one bit from a dot;
        /// and `dots32` the dots of random hosts from every offset.
        #[test]
        fn kernel_equals_scalar_on_random_blocks(
            block in proptest::array::uniform16(proptest::prop_oneof![
                proptest::sample::select(&b".\x2f\x2c\x0e\xaea"[..]),
                proptest::arbitrary::any::<u8>(),
            ]),
            host in proptest::collection::vec(proptest::sample::select(&b".a-"[..]), 16..=48),
        ) {
            proptest::prop_assert_eq!(kernel(&block), scalar(&block));
            for at in 0..=host.len() - 16 {
                let want = (0..32.min(host.len() - at))
                    .fold(0u32, |m, j| m | u32::from(host[at + j] == b'.') << j);
                proptest::prop_assert_eq!(dots32(&host, at), Some(want));
            }
        }
    }
}
