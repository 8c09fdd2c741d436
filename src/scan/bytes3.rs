//! Three chosen bytes of a block as bitmasks, and whether the block is ASCII, in one
//! vectorized pass (for readers of delimited text: a quote or escape byte, the field
//! separator and the line feed of CSV and TSV).
//!
//! Word `w` of the output holds three masks; bit `j` of mask `k` is set when byte
//! `64 * w + j` of the block equals `set[k]`. Bits past the end of the block are zero. The
//! caller walks the set bits instead of searching byte by byte (or a `memchr` call per
//! field), and a block whose bytes are all ASCII is text without a UTF-8 validator.

/// One word of masks: one `u64` per byte of the set.
pub(crate) type Masks3 = [u64; 3];

/// Fills `masks` (cleared first) with the masks of `set` in `bytes`
/// (`bytes.len().div_ceil(64)` words) and returns the block as text when every byte is
/// ASCII (`None` otherwise: the caller validates it as UTF-8 itself).
pub(crate) fn byte_masks<'a>(
    bytes: &'a [u8],
    set: [u8; 3],
    masks: &mut Vec<Masks3>,
) -> Option<&'a str> {
    masks.clear();
    masks.reserve(bytes.len().div_ceil(64));
    let high = kernel(bytes, set, masks);
    debug_assert_eq!(masks.len(), bytes.len().div_ceil(64));
    if high {
        return None;
    }
    debug_assert!(bytes.is_ascii());
    // SAFETY: no byte of `bytes` has its high bit set (the kernel OR-ed every byte into
    // its accumulator), so `bytes` is ASCII, which is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The last bytes of a block (fewer than 64), padded with a byte of `set`'s complement:
/// the padding must set no bit, so it is a byte that is none of `set` and is ASCII.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn padded(tail: &[u8], set: [u8; 3]) -> [u8; 64] {
    let fill = (0u8..0x80).find(|b| !set.contains(b)).unwrap_or(0);
    let mut buf = [fill; 64];
    buf[..tail.len()].copy_from_slice(tail);
    buf
}

/// Appends the masks of `bytes` and returns whether some byte is not ASCII.
#[cfg(target_arch = "x86_64")]
fn kernel(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
    if super::x86::has_avx2() {
        // SAFETY: the CPU reported AVX2.
        unsafe { x86::avx2(bytes, set, masks) }
    } else {
        x86::sse2(bytes, set, masks)
    }
}

/// Appends the masks of `bytes` and returns whether some byte is not ASCII.
#[cfg(target_arch = "aarch64")]
fn kernel(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
    neon::neon(bytes, set, masks)
}

/// Appends the masks of `bytes` and returns whether some byte is not ASCII.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn kernel(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
    scalar(bytes, set, masks)
}

/// The portable kernel, a byte at a time (the reference the tests compare with).
#[cfg_attr(any(target_arch = "x86_64", target_arch = "aarch64"), allow(dead_code))]
fn scalar(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
    let mut high = 0u8;
    for chunk in bytes.chunks(64) {
        let mut m = [0u64; 3];
        for (j, &b) in chunk.iter().enumerate() {
            for k in 0..3 {
                m[k] |= u64::from(b == set[k]) << j;
            }
            high |= b;
        }
        masks.push(m);
    }
    high >= 0x80
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Masks3, padded};
    use std::arch::x86_64::*;

    /// The masks of 64 bytes with SSE2, the bytes OR-ed into `acc`.
    #[inline(always)]
    fn sse2_word(chunk: &[u8; 64], set: &[__m128i; 3], acc: &mut __m128i) -> Masks3 {
        let mut m = [0u64; 3];
        for (i, block) in chunk.chunks_exact(16).enumerate() {
            // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the 16 bytes
            // of `block` (`chunks_exact(16)`).
            unsafe {
                let v = _mm_loadu_si128(block.as_ptr() as *const __m128i);
                *acc = _mm_or_si128(*acc, v);
                for k in 0..3 {
                    let bits = _mm_movemask_epi8(_mm_cmpeq_epi8(v, set[k])) as u32 as u64;
                    m[k] |= bits << (16 * i);
                }
            }
        }
        m
    }

    /// The SSE2 kernel (part of the x86_64 baseline).
    pub(super) fn sse2(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
        // SAFETY: SSE2 is part of the x86_64 baseline; no memory is read.
        let (mut acc, splat) =
            unsafe { (_mm_setzero_si128(), set.map(|b| _mm_set1_epi8(b as i8))) };
        let chunks = bytes.chunks_exact(64);
        let tail = chunks.remainder();
        masks.extend(chunks.map(|c| sse2_word(c.try_into().expect("64 bytes"), &splat, &mut acc)));
        if !tail.is_empty() {
            masks.push(sse2_word(&padded(tail, set), &splat, &mut acc));
        }
        // SAFETY: SSE2 is part of the x86_64 baseline; no memory is read.
        unsafe { _mm_movemask_epi8(acc) != 0 }
    }

    /// The masks of 64 bytes with AVX2, the bytes OR-ed into `acc`.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn avx2_word(chunk: &[u8; 64], set: &[__m256i; 3], acc: &mut __m256i) -> Masks3 {
        // SAFETY: AVX2 is enabled for this function (the caller's contract); the two
        // loads read the 64 bytes of `chunk`.
        unsafe {
            let p = chunk.as_ptr() as *const __m256i;
            let (v0, v1) = (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)));
            *acc = _mm256_or_si256(*acc, _mm256_or_si256(v0, v1));
            let mut m = [0u64; 3];
            for k in 0..3 {
                let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, set[k])) as u32 as u64;
                let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, set[k])) as u32 as u64;
                m[k] = lo | hi << 32;
            }
            m
        }
    }

    /// The AVX2 kernel.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
        // SAFETY: AVX2 is enabled for this function (the caller's contract), which is all
        // `avx2_word` asks; no memory is read but each chunk's 64 bytes.
        unsafe {
            let mut acc = _mm256_setzero_si256();
            let splat = set.map(|b| _mm256_set1_epi8(b as i8));
            let chunks = bytes.chunks_exact(64);
            let tail = chunks.remainder();
            for chunk in chunks {
                masks.push(avx2_word(
                    chunk.try_into().expect("64 bytes"),
                    &splat,
                    &mut acc,
                ));
            }
            if !tail.is_empty() {
                masks.push(avx2_word(&padded(tail, set), &splat, &mut acc));
            }
            _mm256_movemask_epi8(acc) != 0
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use super::super::aarch64::mask64;
    use super::{Masks3, padded};
    use std::arch::aarch64::*;

    /// The masks of 64 bytes, the bytes OR-ed into `acc`.
    #[inline(always)]
    fn word(chunk: &[u8; 64], set: [u8; 3], acc: &mut uint8x16_t) -> Masks3 {
        // SAFETY: NEON is part of the aarch64 baseline; the four loads read the 64 bytes
        // of `chunk`, 16 from each of the offsets 0, 16, 32 and 48.
        unsafe {
            let p = chunk.as_ptr();
            let v = [
                vld1q_u8(p),
                vld1q_u8(p.add(16)),
                vld1q_u8(p.add(32)),
                vld1q_u8(p.add(48)),
            ];
            *acc = vorrq_u8(*acc, vorrq_u8(vorrq_u8(v[0], v[1]), vorrq_u8(v[2], v[3])));
            set.map(|b| {
                let s = vdupq_n_u8(b);
                mask64(v.map(|x| vceqq_u8(x, s)))
            })
        }
    }

    /// The NEON kernel (part of the aarch64 baseline).
    pub(super) fn neon(bytes: &[u8], set: [u8; 3], masks: &mut Vec<Masks3>) -> bool {
        // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
        let mut acc = unsafe { vdupq_n_u8(0) };
        let chunks = bytes.chunks_exact(64);
        let tail = chunks.remainder();
        masks.extend(chunks.map(|c| word(c.try_into().expect("64 bytes"), set, &mut acc)));
        if !tail.is_empty() {
            masks.push(word(&padded(tail, set), set, &mut acc));
        }
        // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
        unsafe { vmaxvq_u8(acc) >= 0x80 }
    }
}

#[cfg(test)]
mod tests {
    use super::{Masks3, byte_masks, scalar};

    /// A mask kernel: appends the masks, returns whether some byte is not ASCII.
    type Kernel = fn(&[u8], [u8; 3], &mut Vec<Masks3>) -> bool;

    /// Every kernel this CPU runs, the scalar reference first.
    fn kernels() -> Vec<(&'static str, Kernel)> {
        #[allow(unused_mut)]
        let mut v: Vec<(&'static str, Kernel)> = vec![("scalar", scalar)];
        #[cfg(target_arch = "x86_64")]
        {
            v.push(("sse2", super::x86::sse2));
            if super::super::x86::has_avx2() {
                // SAFETY: the CPU reported AVX2.
                v.push(("avx2", |b, s, m| unsafe { super::x86::avx2(b, s, m) }));
            }
        }
        #[cfg(target_arch = "aarch64")]
        v.push(("neon", super::neon::neon));
        v
    }

    /// The masks of `set` in `bytes` by a plain search.
    fn expected(bytes: &[u8], set: [u8; 3]) -> Vec<Masks3> {
        let mut masks = vec![[0u64; 3]; bytes.len().div_ceil(64)];
        for (i, &b) in bytes.iter().enumerate() {
            for k in 0..3 {
                if b == set[k] {
                    masks[i / 64][k] |= 1 << (i % 64);
                }
            }
        }
        masks
    }

    /// The sets the readers use, and sets whose padding byte must be chosen with care.
    const SETS: [[u8; 3]; 4] = [
        [b'"', b',', b'\n'],
        [b'\\', b'\t', b'\n'],
        [0, 1, 2],
        [0x80, 0xFF, b'a'],
    ];

    #[test]
    fn every_kernel_finds_every_byte_of_the_set() {
        for set in SETS {
            for len in 0..200usize {
                let base: Vec<u8> = (0..len).map(|i| [b'x', 0x0B, b'#', 0x7F][i % 4]).collect();
                let mut cases = vec![base.clone()];
                for at in 0..len {
                    for b in [set[0], set[1], set[2], 0x80, 0xFF] {
                        let mut bytes = base.clone();
                        bytes[at] = b;
                        bytes[(at * 7 + 3) % len] = set[(at % 3 + 1) % 3];
                        cases.push(bytes);
                    }
                }
                for bytes in cases {
                    let want = expected(&bytes, set);
                    let ascii = bytes.is_ascii();
                    for (name, k) in kernels() {
                        let mut masks = Vec::new();
                        let high = k(&bytes, set, &mut masks);
                        assert_eq!(masks, want, "{name} {set:?}: {bytes:?}");
                        assert_eq!(high, !ascii, "{name} {set:?}: {bytes:?}");
                    }
                    let mut masks = vec![[1, 2, 3]];
                    let text = byte_masks(&bytes, set, &mut masks);
                    assert_eq!(masks, want);
                    assert_eq!(text.map(str::as_bytes), ascii.then_some(&bytes[..]));
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2000,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Every kernel of this CPU gives the scalar kernel's masks and non-ASCII flag on
        /// random blocks of up to 300 bytes, mostly of the CSV set and bytes near it.
        #[test]
        fn every_kernel_equals_scalar_on_random_blocks(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(&[b'"', b',', b'\n', b'\r', 0x22 ^ 0x80, 0x7F, 0xFF, b'a'][..]),
                    proptest::arbitrary::any::<u8>(),
                ],
                0..300,
            ),
        ) {
            let set = [b'"', b',', b'\n'];
            let mut want = Vec::new();
            let high = scalar(&bytes, set, &mut want);
            proptest::prop_assert_eq!(&want, &expected(&bytes, set));
            for (name, k) in kernels() {
                let mut masks = Vec::new();
                proptest::prop_assert_eq!(k(&bytes, set, &mut masks), high, "{}", name);
                proptest::prop_assert_eq!(&masks, &want, "{}", name);
            }
        }
    }
}
