//! Stage 1 of the fast path: classify every byte of a URL in one pass, 16 or 32 bytes at a
//! time, into bitmasks.
//!
//! # Why
//!
//! Most URLs in logs and crawls are already canonical: lower-case scheme and host, nothing
//! to percent-encode, no dot segments. Proving that is what the fast path
//! (`parser/fast.rs`) does, and it wants to look at as few bytes as possible. This module
//! sorts the bytes into two classes, one bit per byte:
//!
//! * **special**: every byte outside the set of bytes that are canonical in *every*
//!   component (ASCII letters and digits and `- . _ ~ ! $ & ( ) * + , ; =`). That is the
//!   delimiters (`: / \ ? # @ [ ] %`), and every byte that some component would have to
//!   change: C0 controls, space, tab/LF/CR, DEL, bytes ≥ 0x80, and `" ' < > ^ \` { | }`.
//! * **upper**: ASCII upper case (`A`–`Z`), which the parser lower-cases in schemes and
//!   domains but keeps elsewhere.
//!
//! The fast path then walks only the *special* bytes (a handful per URL: `:`, the slashes,
//! `?`, `#`) and checks *upper* over the scheme and host ranges with a mask test.
//!
//! # How
//!
//! Masks come in 64-byte blocks: `special[i]` bit `j` is byte `64 * i + j`. Bits past the end
//! of the input are zero. [`classify`] is the one safe entry point; it picks a kernel once per
//! process (AVX2 when the CPU has it, else SSE2 on x86_64; NEON on aarch64; the portable
//! scalar kernel elsewhere). The scalar kernel, a 256-entry table, is the reference: the
//! tests compare every SIMD kernel with it on all lengths 0..=130 and every byte value.
//!
//! The SIMD kernels compute the class of a byte as `LO[b & 15] & HI[b >> 4]` (two table
//! look-ups with a byte shuffle), the technique of simdjson's stage 1; SSE2, which has no
//! byte shuffle, uses comparisons instead.

#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86;

/// Class bits of a byte; a byte with no bit set is *special*.
///
/// Bits 0–5 together cover the always-canonical set (each bit is one "rectangle" of low and
/// high nibbles, so that the SIMD kernels can compute it with two 16-entry tables); bits 6
/// and 7 mark upper case.
pub(crate) mod class {
    /// `! $ & ( ) * + , - .` (high nibble 2).
    pub const PUNCT_2: u8 = 1 << 0;
    /// `0`–`9`, `;`, `=` (high nibble 3).
    pub const DIGIT: u8 = 1 << 1;
    /// `A`–`O`, `a`–`o` (high nibbles 4 and 6, low nibble not 0).
    pub const ALPHA_LOW: u8 = 1 << 2;
    /// `P`–`Z`, `p`–`z` (high nibbles 5 and 7, low nibble 0 to A).
    pub const ALPHA_HIGH: u8 = 1 << 3;
    /// `_`.
    pub const UNDERSCORE: u8 = 1 << 4;
    /// `~`.
    pub const TILDE: u8 = 1 << 5;
    /// `A`–`O`.
    pub const UPPER_LOW: u8 = 1 << 6;
    /// `P`–`Z`.
    pub const UPPER_HIGH: u8 = 1 << 7;
    /// Both upper-case bits.
    pub const UPPER: u8 = UPPER_LOW | UPPER_HIGH;
}

/// The low-nibble table: bit k is set when the low nibble belongs to rectangle k.
pub(crate) const LO_TABLE: [u8; 16] = {
    use class::*;
    let mut t = [0u8; 16];
    let mut lo = 0;
    while lo < 16 {
        let mut bits = 0;
        // PUNCT_2: ! $ & ( ) * + , - .  → low nibbles 1 4 6 8 9 A B C D E
        if matches!(lo, 1 | 4 | 6 | 8..=0xE) {
            bits |= PUNCT_2;
        }
        // DIGIT: 0-9 ; =  → 0..=9, B, D
        if matches!(lo, 0..=9 | 0xB | 0xD) {
            bits |= DIGIT;
        }
        if lo >= 1 {
            bits |= ALPHA_LOW | UPPER_LOW;
        }
        if lo <= 0xA {
            bits |= ALPHA_HIGH | UPPER_HIGH;
        }
        if lo == 0xF {
            bits |= UNDERSCORE;
        }
        if lo == 0xE {
            bits |= TILDE;
        }
        t[lo] = bits;
        lo += 1;
    }
    t
};

/// The high-nibble table: bit k is set when the high nibble belongs to rectangle k.
pub(crate) const HI_TABLE: [u8; 16] = {
    use class::*;
    let mut t = [0u8; 16];
    t[2] = PUNCT_2;
    t[3] = DIGIT;
    t[4] = ALPHA_LOW | UPPER_LOW;
    t[5] = ALPHA_HIGH | UPPER_HIGH | UNDERSCORE;
    t[6] = ALPHA_LOW;
    t[7] = ALPHA_HIGH | TILDE;
    t
};

/// The class of every byte value: `LO_TABLE[b & 15] & HI_TABLE[b >> 4]`.
pub(crate) const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = LO_TABLE[b & 15] & HI_TABLE[b >> 4];
        b += 1;
    }
    t
};

/// Whether byte `b` is canonical in every URL component (not *special*).
#[cfg(test)]
#[inline]
pub(crate) const fn is_plain(b: u8) -> bool {
    CLASS[b as usize] != 0
}

/// Runs a kernel that classifies `W` bytes at a time (16 or 32) over `input`, filling the
/// 64-bit mask words. Shared by every SIMD kernel: `block` gets `W` bytes and returns the
/// (special, upper) bits of those bytes, byte `i` in bit `i`.
///
/// A block that would run past the end is loaded as the last `W` bytes of the input
/// instead (overlapping bytes already classified) and its bits shifted into place; an
/// input shorter than `W` is copied into a zero-filled buffer. Bits past the end are
/// cleared.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn drive<const W: usize>(
    input: &[u8],
    special: &mut [u64],
    upper: &mut [u64],
    block: impl Fn(&[u8; W]) -> (u32, u32),
) {
    let n = input.len();
    for (w, (s_out, u_out)) in special.iter_mut().zip(upper.iter_mut()).enumerate() {
        let base = w * 64;
        let len = (n - base).min(64);
        let (mut s, mut u) = (0u64, 0u64);
        let mut off = 0;
        while off < len {
            let at = base + off;
            let (bs, bu) = if let Some(bytes) = input.get(at..at + W) {
                block(bytes.try_into().expect("`at..at + W` is W bytes long"))
            } else if n >= W {
                let from = n - W;
                let tail = input[from..]
                    .try_into()
                    .expect("`n - W..n` is W bytes long");
                let (bs, bu) = block(tail);
                (bs >> (at - from), bu >> (at - from))
            } else {
                let mut buf = [0u8; W];
                buf[..n - at].copy_from_slice(&input[at..]);
                block(&buf)
            };
            s |= u64::from(bs) << off;
            u |= u64::from(bu) << off;
            off += W;
        }
        let valid = if len >= 64 { !0 } else { (1u64 << len) - 1 };
        *s_out = s & valid;
        *u_out = u & valid;
    }
}

/// The number of 64-bit mask words that an input of `len` bytes needs.
#[inline]
pub(crate) const fn mask_words(len: usize) -> usize {
    len.div_ceil(64)
}

/// A classifier kernel: fills `special` and `upper` (each `mask_words(input.len())` long).
pub(crate) type Kernel = fn(&[u8], &mut [u64], &mut [u64]);

/// The portable reference kernel: one table look-up per byte.
pub(crate) fn classify_scalar(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    for (i, block) in input.chunks(64).enumerate() {
        let mut s = 0u64;
        let mut u = 0u64;
        for (j, &b) in block.iter().enumerate() {
            let c = CLASS[b as usize];
            s |= ((c == 0) as u64) << j;
            u |= (((c & class::UPPER) != 0) as u64) << j;
        }
        special[i] = s;
        upper[i] = u;
    }
}

/// The kernel this CPU runs and its name, chosen on first use.
fn selected() -> &'static (&'static str, Kernel) {
    use std::sync::OnceLock;
    static KERNEL: OnceLock<(&'static str, Kernel)> = OnceLock::new();
    KERNEL.get_or_init(select_kernel)
}

#[cfg(target_arch = "x86_64")]
fn select_kernel() -> (&'static str, Kernel) {
    if std::is_x86_feature_detected!("avx2") {
        ("avx2", x86::classify_avx2_safe)
    } else {
        ("sse2", x86::classify_sse2)
    }
}

#[cfg(target_arch = "aarch64")]
fn select_kernel() -> (&'static str, Kernel) {
    ("neon", aarch64::classify_neon)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn select_kernel() -> (&'static str, Kernel) {
    ("scalar", classify_scalar)
}

/// Classifies `input` into the *special* and *upper* masks (see the module docs).
///
/// # Panics
///
/// If `special` or `upper` is shorter than [`mask_words`]`(input.len())`.
#[inline]
pub(crate) fn classify(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    let words = mask_words(input.len());
    assert!(special.len() >= words && upper.len() >= words);
    (selected().1)(input, &mut special[..words], &mut upper[..words]);
}

/// The name of the kernel [`classify`] uses on this CPU: `avx2`, `sse2`, `neon` or
/// `scalar` (for benchmark reports).
pub(crate) fn kernel_name() -> &'static str {
    selected().0
}

/// Every kernel this CPU can run, by name, for the tests and benches that compare them.
#[doc(hidden)]
pub(crate) fn kernels() -> Vec<(&'static str, Kernel)> {
    let mut v: Vec<(&'static str, Kernel)> = vec![("scalar", classify_scalar)];
    #[cfg(target_arch = "x86_64")]
    {
        v.push(("sse2", x86::classify_sse2));
        if std::is_x86_feature_detected!("avx2") {
            v.push(("avx2", x86::classify_avx2_safe));
        }
    }
    #[cfg(target_arch = "aarch64")]
    v.push(("neon", aarch64::classify_neon));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_set_is_exactly_the_documented_one() {
        for b in 0..=255u8 {
            let expected = b.is_ascii_alphanumeric() || b"-._~!$&()*+,;=".contains(&b);
            assert_eq!(is_plain(b), expected, "byte {b:#04x}");
            assert_eq!(
                CLASS[b as usize] & class::UPPER != 0,
                b.is_ascii_uppercase(),
                "byte {b:#04x}"
            );
        }
    }

    /// Inputs for the kernel comparison: every length 0..=130 with every byte value placed
    /// at every position, plus pseudo-random and adversarial fills.
    fn inputs() -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for len in 0..=130usize {
            // Every byte value, rotating through the positions.
            for v in 0..=255u8 {
                let mut buf = vec![b'a'; len];
                if len > 0 {
                    buf[v as usize % len] = v;
                    buf[(v as usize * 7 + 3) % len] = v.wrapping_add(128);
                }
                out.push(buf);
            }
            // Random bytes, random ASCII, all-special, all-plain, all-upper.
            out.push((0..len).map(|_| next() as u8).collect());
            out.push((0..len).map(|_| (next() % 128) as u8).collect());
            out.push(vec![b'/'; len]);
            out.push(vec![0xFF; len]);
            out.push(vec![b'Z'; len]);
            out.push(
                (0..len)
                    .map(|i| b"http://Ex.com/%41?q=1#f"[i % 23])
                    .collect(),
            );
        }
        out
    }

    #[test]
    fn every_kernel_matches_the_scalar_reference() {
        let kernels = kernels();
        assert!(!kernels.is_empty());
        for input in inputs() {
            let words = mask_words(input.len());
            let (mut s0, mut u0) = (vec![!0u64; words], vec![!0u64; words]);
            classify_scalar(&input, &mut s0, &mut u0);
            for (name, k) in &kernels {
                let (mut s, mut u) = (vec![!0u64; words], vec![!0u64; words]);
                k(&input, &mut s, &mut u);
                assert_eq!(s, s0, "{name}: special mask differs for {input:?}");
                assert_eq!(u, u0, "{name}: upper mask differs for {input:?}");
            }
        }
    }

    #[test]
    fn bits_past_the_end_are_zero() {
        for len in 1..=130usize {
            let input = vec![0u8; len]; // every byte special
            let words = mask_words(len);
            let (mut s, mut u) = (vec![0u64; words], vec![0u64; words]);
            classify(&input, &mut s, &mut u);
            let total: u32 = s.iter().map(|w| w.count_ones()).sum();
            assert_eq!(total as usize, len);
        }
    }
}
