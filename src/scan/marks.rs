//! The bytes of a span that the canonical keys look for, as bitmasks: dots (a host's
//! labels), slashes, `a`/`A`, ASCII upper case, and the bytes the SURT key escapes; with
//! the pairs they test, two `/` in a row and `.a` (where `.aspx` may start). Sixteen bytes
//! per step (SSE2 on x86-64, NEON on aarch64, a byte loop elsewhere). A key whose span
//! holds none of the bytes that need work copies the span.

/// Bit `j` of each mask is byte `j` of the span; bits past its end are clear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// `.`
    pub(crate) dot: u64,
    /// `/`
    pub(crate) slash: u64,
    /// `a` or `A`.
    pub(crate) a: u64,
    /// `A`–`Z`.
    pub(crate) upper: u64,
    /// A control, space, DEL, a byte ≥ 0x80, `#` or `%`.
    pub(crate) escape: u64,
}

impl Marks {
    /// Two `/` in a row: a bit of `slash` with the next byte's bit.
    #[inline]
    pub(crate) fn double_slash(&self) -> bool {
        self.slash & (self.slash >> 1) != 0
    }

    /// A `.` followed by `a` or `A`.
    #[inline]
    pub(crate) fn dot_a(&self) -> bool {
        self.dot & (self.a >> 1) != 0
    }
}

/// The marks of `b`, of any length, for their tests: `escape != 0`, `upper != 0`,
/// [`Marks::double_slash`] and [`Marks::dot_a`] answer for the whole span. A span of at
/// most 64 bytes gets [`marks64`]'s masks; a longer one is read 64 bytes at a time, each
/// read from the last byte of the one before (every pair lies in one read), and its
/// masks stand for the facts, no longer for the bytes' places.
#[inline]
pub(crate) fn summary(b: &[u8]) -> Marks {
    if let Some(m) = marks64(b) {
        return m;
    }
    summary_long(b)
}

/// [`summary`] of a span longer than 64 bytes (out of the short spans' code).
#[inline(never)]
fn summary_long(b: &[u8]) -> Marks {
    let (mut escape, mut upper, mut double_slash, mut dot_a) = (0, 0, false, false);
    let mut at = 0;
    loop {
        let end = (at + 64).min(b.len());
        let m = marks64(&b[at..end]).unwrap_or_default();
        escape |= m.escape;
        upper |= m.upper;
        double_slash |= m.double_slash();
        dot_a |= m.dot_a();
        if end == b.len() {
            break;
        }
        at = end - 1;
    }
    Marks {
        dot: u64::from(dot_a),
        slash: if double_slash { 0b11 } else { 0 },
        a: u64::from(dot_a) << 1,
        upper,
        escape,
    }
}

/// The marks of `b`; `None` when it is longer than 64 bytes.
///
/// A span of 16 bytes or more is read in place, sixteen bytes at a time, its last read
/// ending at its end (overlapping the one before, which agrees where they overlap); a
/// shorter one is copied to sixteen bytes of padding first.
#[inline]
pub(crate) fn marks64(b: &[u8]) -> Option<Marks> {
    let n = b.len();
    if n > 64 {
        return None;
    }
    if n < 16 {
        // Padding: `x` is none of the bytes looked for.
        let mut padded = [b'x'; 16];
        copy_short(b, &mut padded);
        let c = kernel(&padded);
        return Some(Marks {
            dot: u64::from(c[0]),
            slash: u64::from(c[1]),
            a: u64::from(c[2]),
            upper: u64::from(c[3]),
            escape: u64::from(c[4]),
        });
    }
    let mut m = Marks::default();
    let mut at = 0;
    while at < n {
        let from = at.min(n - 16);
        let c = kernel(b[from..from + 16].try_into().ok()?);
        m.dot |= u64::from(c[0]) << from;
        m.slash |= u64::from(c[1]) << from;
        m.a |= u64::from(c[2]) << from;
        m.upper |= u64::from(c[3]) << from;
        m.escape |= u64::from(c[4]) << from;
        at += 16;
    }
    Some(m)
}

/// Copies `b` (under sixteen bytes) to the start of `to` with two overlapping copies of a
/// fixed size (8, 4 or 2 bytes) rather than byte by byte.
#[inline(always)]
fn copy_short(b: &[u8], to: &mut [u8; 16]) {
    let n = b.len();
    macro_rules! two {
        ($w:literal) => {{
            to[..$w].copy_from_slice(&b[..$w]);
            to[n - $w..n].copy_from_slice(&b[n - $w..]);
        }};
    }
    match n {
        8.. => two!(8),
        4.. => two!(4),
        2.. => two!(2),
        1 => to[0] = b[0],
        _ => {}
    }
}

/// The five masks of sixteen bytes, in the order of [`Marks`]' fields.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn kernel(bytes: &[u8; 16]) -> [u16; 5] {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline; the unaligned load reads the 16 bytes
    // of `bytes`.
    unsafe {
        let v = _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
        let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        let mask = |m: __m128i| _mm_movemask_epi8(m) as u16;
        let a = _mm_cmpeq_epi8(
            _mm_or_si128(v, _mm_set1_epi8(0x20)),
            _mm_set1_epi8(b'a' as i8),
        );
        let upper = _mm_and_si128(
            _mm_cmpgt_epi8(v, _mm_set1_epi8(b'A' as i8 - 1)),
            _mm_cmplt_epi8(v, _mm_set1_epi8(b'Z' as i8 + 1)),
        );
        // Signed: the bytes ≥ 0x80 are below 0x21 too.
        let escape = _mm_or_si128(
            _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)), eq(0x7f)),
            _mm_or_si128(eq(b'#'), eq(b'%')),
        );
        [
            mask(eq(b'.')),
            mask(eq(b'/')),
            mask(a),
            mask(upper),
            mask(escape),
        ]
    }
}

/// The five masks of sixteen bytes, in the order of [`Marks`]' fields.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn kernel(bytes: &[u8; 16]) -> [u16; 5] {
    use super::aarch64::mask16x5;
    use std::arch::aarch64::{
        vceqq_u8, vcgeq_u8, vcleq_u8, vcltq_u8, vdupq_n_u8, vld1q_u8, vorrq_u8, vsubq_u8,
    };
    // SAFETY: NEON is part of the aarch64 baseline; the load reads the 16 bytes of
    // `bytes`.
    unsafe {
        let v = vld1q_u8(bytes.as_ptr());
        let eq = |c: u8| vceqq_u8(v, vdupq_n_u8(c));
        let a = vceqq_u8(vorrq_u8(v, vdupq_n_u8(0x20)), vdupq_n_u8(b'a'));
        // Unsigned: `b - 'A'` wraps for the bytes below `A`, so only `A`-`Z` are below 26.
        let upper = vcltq_u8(vsubq_u8(v, vdupq_n_u8(b'A')), vdupq_n_u8(26));
        let escape = vorrq_u8(
            vorrq_u8(vcleq_u8(v, vdupq_n_u8(0x20)), vcgeq_u8(v, vdupq_n_u8(0x7f))),
            vorrq_u8(eq(b'#'), eq(b'%')),
        );
        mask16x5([eq(b'.'), eq(b'/'), a, upper, escape])
    }
}

/// The five masks of sixteen bytes, in the order of [`Marks`]' fields.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn kernel(bytes: &[u8; 16]) -> [u16; 5] {
    scalar(bytes)
}

/// The portable kernel, a byte at a time (the reference the tests compare the SIMD
/// kernels with).
#[cfg_attr(any(target_arch = "x86_64", target_arch = "aarch64"), allow(dead_code))]
#[inline(always)]
fn scalar(bytes: &[u8; 16]) -> [u16; 5] {
    let mut m = [0u16; 5];
    for (j, &c) in bytes.iter().enumerate() {
        let set = [
            c == b'.',
            c == b'/',
            c | 0x20 == b'a',
            c.is_ascii_uppercase(),
            c <= 0x20 || c >= 0x7f || c == b'#' || c == b'%',
        ];
        for (mask, s) in m.iter_mut().zip(set) {
            *mask |= u16::from(s) << j;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks byte by byte.
    fn slow(b: &[u8]) -> Marks {
        let bits = |p: &dyn Fn(u8) -> bool| {
            b.iter()
                .enumerate()
                .fold(0u64, |m, (j, &c)| m | u64::from(p(c)) << j)
        };
        Marks {
            dot: bits(&|c| c == b'.'),
            slash: bits(&|c| c == b'/'),
            a: bits(&|c| c == b'a' || c == b'A'),
            upper: bits(&|c| c.is_ascii_uppercase()),
            escape: bits(&|c| c <= 0x20 || c >= 0x7f || c == b'#' || c == b'%'),
        }
    }

    #[test]
    fn every_byte_at_every_place() {
        for len in 0..=64 {
            for at in 0..len {
                for c in 0..=255u8 {
                    let mut b = vec![b'q'; len];
                    b[at] = c;
                    b[(at * 7 + 3) % len] = c.wrapping_add(1);
                    assert_eq!(marks64(&b), Some(slow(&b)), "{len} {at} {c}");
                }
            }
        }
        assert_eq!(marks64(&[b'.'; 65]), None);
    }

    /// What [`summary`]'s tests answer, byte by byte: escape, upper, `//`, `.a`.
    fn slow_facts(b: &[u8]) -> (bool, bool, bool, bool) {
        let pair = |p: &dyn Fn(u8, u8) -> bool| b.windows(2).any(|w| p(w[0], w[1]));
        (
            b.iter()
                .any(|&c| c <= 0x20 || c >= 0x7f || c == b'#' || c == b'%'),
            b.iter().any(u8::is_ascii_uppercase),
            pair(&|x, y| x == b'/' && y == b'/'),
            pair(&|x, y| x == b'.' && (y == b'a' || y == b'A')),
        )
    }

    #[test]
    fn summary_agrees_with_byte_by_byte() {
        let facts = |m: Marks| (m.escape != 0, m.upper != 0, m.double_slash(), m.dot_a());
        let alphabet = b"/.aAzZ@[`{#%\x00\x1f \x7f\x80\xffx-";
        // Every span up to 200 bytes (the masks up to 64, the reads beyond) over a small
        // alphabet, each special byte at every place (and pairs across the reads' edges).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=200 {
            for _ in 0..500 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                assert_eq!(facts(summary(&bytes)), slow_facts(&bytes), "{bytes:?}");
            }
        }
        // Pairs across the reads' edges (a read ends at 64, the next starts at 63).
        let at = |i: usize, pair: &[u8]| {
            let mut b = vec![b'x'; 130];
            b[i..i + pair.len()].copy_from_slice(pair);
            summary(&b)
        };
        for i in 60..68 {
            assert!(at(i, b"//").double_slash(), "{i}");
            assert!(at(i, b".A").dot_a(), "{i}");
            assert!(!at(i, b"/x/").double_slash(), "{i}");
            assert!(!at(i, b"./A").dot_a(), "{i}");
        }
    }

    /// The bytes the kernels look for, the bytes next to them, and the ends of the ranges
    /// they test (controls, space, DEL, the high bytes, `A`-`Z`).
    const NEAR: &[u8] = b"./aA@Z[`{#%$ \x00\x1f\x21\x7e\x7f\x80\xff0";

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 4000,
            failure_persistence: None,
            ..Default::default()
        })]

        /// This CPU's kernel (SSE2 on x86_64, NEON on aarch64) gives the scalar kernel's
        /// five masks on random blocks of 16 bytes, mostly of bytes it looks for and their
        /// neighbours; and `marks64` gives the byte-by-byte marks of random spans.
        #[test]
        fn kernel_equals_scalar_on_random_blocks(
            block in proptest::array::uniform16(proptest::prop_oneof![
                proptest::sample::select(NEAR),
                proptest::arbitrary::any::<u8>(),
            ]),
            span in proptest::collection::vec(proptest::sample::select(NEAR), 0..=64),
        ) {
            proptest::prop_assert_eq!(kernel(&block), scalar(&block));
            proptest::prop_assert_eq!(marks64(&span), Some(slow(&span)));
        }
    }
}
