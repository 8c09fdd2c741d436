//! The line feeds of a block of text as bitmasks, and whether the block is ASCII, in one
//! vectorized pass (for the bulk engine's line source).
//!
//! A reader of one URL per line wants every line's end and the block as `&str`. Finding
//! the ends one search per line (`memchr`) costs a call and its set-up per line; here each
//! 64 bytes cost two or four vector compares and as many mask extractions, and the caller
//! walks the set bits. The same loads tell whether every byte is ASCII, in which case the
//! block is UTF-8 and no validator needs to read it again.

/// Fills `masks` with one bit per `\n` of `bytes` (byte `64 * w + j` is bit `j` of
/// `masks[w]`; `masks` ends up `bytes.len().div_ceil(64)` long, bits past the end zero)
/// and returns the block as text when every byte is ASCII (`None` otherwise: the caller
/// then validates it as UTF-8 itself).
pub(crate) fn line_feeds<'a>(bytes: &'a [u8], masks: &mut Vec<u64>) -> Option<&'a str> {
    masks.clear();
    masks.reserve(bytes.len().div_ceil(64));
    let high = kernel(bytes, masks);
    debug_assert_eq!(masks.len(), bytes.len().div_ceil(64));
    if high {
        return None;
    }
    debug_assert!(bytes.is_ascii());
    // SAFETY: no byte of `bytes` has its high bit set (the kernel OR-ed every byte into
    // `high`), so `bytes` is ASCII, which is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The last bytes of a block (fewer than 64), padded with zeros (neither `\n` nor
/// non-ASCII, so the padding sets no bit).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn padded(tail: &[u8]) -> [u8; 64] {
    let mut buf = [0u8; 64];
    buf[..tail.len()].copy_from_slice(tail);
    buf
}

/// Appends the masks of `bytes` to `masks` (empty) and returns whether some byte is not
/// ASCII.
#[cfg(target_arch = "x86_64")]
fn kernel(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
    if super::x86::has_avx2() {
        // SAFETY: the CPU reported AVX2.
        unsafe { x86::avx2(bytes, masks) }
    } else {
        x86::sse2(bytes, masks)
    }
}

/// Appends the masks of `bytes` to `masks` (empty) and returns whether some byte is not
/// ASCII.
#[cfg(target_arch = "aarch64")]
fn kernel(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
    neon::neon(bytes, masks)
}

/// Appends the masks of `bytes` to `masks` (empty) and returns whether some byte is not
/// ASCII.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn kernel(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
    scalar(bytes, masks)
}

/// The portable kernel, a byte at a time (the reference the tests compare with).
#[cfg_attr(any(target_arch = "x86_64", target_arch = "aarch64"), allow(dead_code))]
fn scalar(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
    let mut high = 0u8;
    for chunk in bytes.chunks(64) {
        let mut m = 0u64;
        for (j, &b) in chunk.iter().enumerate() {
            m |= u64::from(b == b'\n') << j;
            high |= b;
        }
        masks.push(m);
    }
    high >= 0x80
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::padded;
    use std::arch::x86_64::*;

    /// The line-feed mask of 16 bytes (bit `j` for byte `j`), and the bytes OR-ed into
    /// `acc` (whose high bits then say whether some byte was not ASCII).
    #[inline(always)]
    fn sse2_block(bytes: &[u8], acc: &mut __m128i) -> u64 {
        debug_assert_eq!(bytes.len(), 16);
        // SAFETY: SSE2 is part of the x86_64 baseline; the load reads 16 bytes of
        // `bytes`, which holds exactly 16 (the callers cut it with `chunks_exact(16)`).
        unsafe {
            let v = _mm_loadu_si128(bytes.as_ptr() as *const __m128i);
            *acc = _mm_or_si128(*acc, v);
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8))) as u32 as u64
        }
    }

    /// The SSE2 kernel (part of the x86_64 baseline).
    pub(super) fn sse2(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
        // SAFETY: SSE2 is part of the x86_64 baseline; no memory is read.
        let mut acc = unsafe { _mm_setzero_si128() };
        let word = |chunk: &[u8; 64], acc: &mut __m128i| -> u64 {
            let mut m = 0u64;
            for (i, block) in chunk.chunks_exact(16).enumerate() {
                m |= sse2_block(block, acc) << (16 * i);
            }
            m
        };
        let chunks = bytes.chunks_exact(64);
        let tail = chunks.remainder();
        masks.extend(chunks.map(|chunk| word(chunk.try_into().expect("64 bytes"), &mut acc)));
        if !tail.is_empty() {
            masks.push(word(&padded(tail), &mut acc));
        }
        // SAFETY: SSE2 is part of the x86_64 baseline; no memory is read.
        unsafe { _mm_movemask_epi8(acc) != 0 }
    }

    /// The line-feed mask of 64 bytes and the bytes OR-ed into `acc`.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn avx2_word(chunk: &[u8; 64], acc: &mut __m256i) -> u64 {
        // SAFETY: AVX2 is enabled for this function (the caller's contract); the two
        // loads read the 64 bytes of `chunk`.
        unsafe {
            let p = chunk.as_ptr() as *const __m256i;
            let (v0, v1) = (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)));
            *acc = _mm256_or_si256(*acc, _mm256_or_si256(v0, v1));
            let lf = _mm256_set1_epi8(b'\n' as i8);
            let m0 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, lf)) as u32 as u64;
            let m1 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, lf)) as u32 as u64;
            m0 | m1 << 32
        }
    }

    /// The AVX2 kernel.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
        // SAFETY: AVX2 is enabled for this function (the caller's contract), which is all
        // `avx2_word` asks; no memory is read but `chunk`'s 64 bytes; `set_len`: below.
        unsafe {
            let mut acc = _mm256_setzero_si256();
            let chunks = bytes.chunks_exact(64);
            let tail = chunks.remainder();
            let (old, n) = (masks.len(), chunks.len());
            masks.reserve(n + 1);
            // Written into the spare capacity (no length update per word).
            let spare = &mut masks.spare_capacity_mut()[..n];
            for (chunk, slot) in chunks.zip(spare) {
                slot.write(avx2_word(chunk.try_into().expect("64 bytes"), &mut acc));
            }
            // SAFETY: the loop initialized the first `n` slots after the old length: `n`
            // slots of spare capacity exist (reserved above; the slice would have panicked
            // otherwise) and `zip` ran over all of them, as `chunks` has `n` items too.
            masks.set_len(old + n);
            if !tail.is_empty() {
                masks.push(avx2_word(&padded(tail), &mut acc));
            }
            _mm256_movemask_epi8(acc) != 0
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use super::super::aarch64::mask64;
    use super::padded;
    use std::arch::aarch64::*;

    /// The line-feed mask of 64 bytes (bit `j` for byte `j`), and the bytes OR-ed into
    /// `acc` (whose top bits then say whether some byte was not ASCII).
    #[inline(always)]
    fn word(chunk: &[u8; 64], acc: &mut uint8x16_t) -> u64 {
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
            let lf = vdupq_n_u8(b'\n');
            mask64(v.map(|x| vceqq_u8(x, lf)))
        }
    }

    /// The NEON kernel (part of the aarch64 baseline).
    pub(super) fn neon(bytes: &[u8], masks: &mut Vec<u64>) -> bool {
        // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
        let mut acc = unsafe { vdupq_n_u8(0) };
        let chunks = bytes.chunks_exact(64);
        let tail = chunks.remainder();
        masks.extend(chunks.map(|chunk| word(chunk.try_into().expect("64 bytes"), &mut acc)));
        if !tail.is_empty() {
            masks.push(word(&padded(tail), &mut acc));
        }
        // SAFETY: NEON is part of the aarch64 baseline; no memory is read.
        unsafe { vmaxvq_u8(acc) >= 0x80 }
    }
}

#[cfg(test)]
mod tests {
    use super::{line_feeds, scalar};

    /// A mask kernel: appends the masks, returns whether some byte is not ASCII.
    type MaskKernel = fn(&[u8], &mut Vec<u64>) -> bool;

    /// Every kernel this CPU runs, the scalar reference first.
    fn kernels() -> Vec<(&'static str, MaskKernel)> {
        #[allow(unused_mut)]
        let mut v: Vec<(&'static str, MaskKernel)> = vec![("scalar", scalar)];
        #[cfg(target_arch = "x86_64")]
        {
            v.push(("sse2", super::x86::sse2));
            if super::super::x86::has_avx2() {
                // SAFETY: the CPU reported AVX2.
                v.push(("avx2", |b, m| unsafe { super::x86::avx2(b, m) }));
            }
        }
        #[cfg(target_arch = "aarch64")]
        v.push(("neon", super::neon::neon));
        v
    }

    /// The line feeds of `bytes` by a plain search, as masks.
    fn expected(bytes: &[u8]) -> Vec<u64> {
        let mut masks = vec![0u64; bytes.len().div_ceil(64)];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                masks[i / 64] |= 1 << (i % 64);
            }
        }
        masks
    }

    #[test]
    fn every_kernel_finds_every_line_feed_and_non_ascii_byte() {
        // Every length to 200, a line feed (and, separately, a non-ASCII byte) at every
        // position, among bytes one bit away from `\n` (0x0B, 0x8A, 0x0E) or high.
        for len in 0..200usize {
            let base: Vec<u8> = (0..len).map(|i| [0x0B, b'a', 0x0E, 0x7F][i % 4]).collect();
            let mut cases = vec![base.clone()];
            for at in 0..len {
                for b in [b'\n', 0x8A, 0x80, 0xFF] {
                    let mut bytes = base.clone();
                    bytes[at] = b;
                    bytes[(at * 7 + 3) % len] = b'\n';
                    cases.push(bytes);
                }
            }
            for bytes in cases {
                let want = expected(&bytes);
                let ascii = bytes.is_ascii();
                for (name, k) in kernels() {
                    let mut masks = Vec::new();
                    let high = k(&bytes, &mut masks);
                    assert_eq!(masks, want, "{name}: {bytes:?}");
                    assert_eq!(high, !ascii, "{name}: {bytes:?}");
                }
                let mut masks = vec![1, 2, 3];
                let text = line_feeds(&bytes, &mut masks);
                assert_eq!(masks, want);
                assert_eq!(text.map(str::as_bytes), ascii.then_some(&bytes[..]));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2000,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Every kernel of this CPU (NEON on aarch64; SSE2 and AVX2 on x86_64) gives the
        /// scalar kernel's masks and non-ASCII flag, on random blocks of up to 300 bytes
        /// mostly of line feeds, bytes one bit from one, and bytes at the ASCII boundary.
        #[test]
        fn every_kernel_equals_scalar_on_random_blocks(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(&[b'\n', 0x0B, 0x0E, 0x8A, 0x7F, 0x80, 0xFF, b'a'][..]),
                    proptest::arbitrary::any::<u8>(),
                ],
                0..300,
            ),
        ) {
            let mut want = Vec::new();
            let high = scalar(&bytes, &mut want);
            proptest::prop_assert_eq!(&want, &expected(&bytes));
            for (name, k) in kernels() {
                let mut masks = Vec::new();
                proptest::prop_assert_eq!(k(&bytes, &mut masks), high, "{}", name);
                proptest::prop_assert_eq!(&masks, &want, "{}", name);
            }
        }
    }
}
