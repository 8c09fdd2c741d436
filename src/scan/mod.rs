//! Stage 1 of the fast path: classify the bytes of a URL, 64 at a time, into bitmasks.
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
//! Masks come in 64-bit words: bit `j` of the word at offset `at` is byte `at + j`; bits
//! past the end of the input are zero. Each kernel is a [`Words`] type (the scalar table,
//! SSE2, AVX2, NEON) and the work that reads the masks is a [`Task`]: [`run`] runs a task
//! with the best kernel of this CPU (AVX2 when it has it, else SSE2 on x86_64; NEON on
//! aarch64; the portable scalar kernel elsewhere), so the kernel is inlined into the task
//! and a task classifies only the words it reaches. The scalar kernel, a 256-entry table,
//! is the reference: the tests compare every SIMD kernel with it on all lengths 0..=130,
//! every byte value and every offset.
//!
//! The SIMD kernels compute the class of a byte as `LO[b & 15] & HI[b >> 4]` (two table
//! look-ups with a byte shuffle), the technique of simdjson's stage 1; SSE2, which has no
//! byte shuffle, uses comparisons instead.

#![allow(unsafe_code)]

/// `bytes` as text when every byte is ASCII (checked a word at a time by
/// `<[u8]>::is_ascii`); `None` otherwise, and the caller validates the bytes as UTF-8.
/// For a row of a few dozen bytes this costs a fraction of a UTF-8 validator, whose
/// short-input path goes byte by byte at the ends. (The bulk engine's rows and the
/// canonical keys' escaping.)
#[cfg(any(feature = "rayon", feature = "canon"))]
#[inline]
pub(crate) fn ascii(bytes: &[u8]) -> Option<&str> {
    if !bytes.is_ascii() {
        return None;
    }
    // SAFETY: no byte of `bytes` is above 0x7F, so `bytes` is ASCII, which is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(feature = "rayon")]
pub(crate) mod bytes3;
#[cfg(feature = "psl")]
pub(crate) mod dots;
#[cfg(feature = "rayon")]
pub(crate) mod lines;
#[cfg(feature = "canon")]
pub(crate) mod marks;
#[cfg(feature = "rayon")]
pub(crate) mod spans;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

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

/// How this CPU classifies bytes, 64 at a time: one type per kernel (scalar, SSE2, AVX2,
/// NEON). A value of a SIMD kernel's type exists only where that kernel may run (AVX2's
/// only inside a function compiled for AVX2, after run-time detection), so calling it is
/// safe.
pub(crate) trait Words: Copy {
    /// The (special, upper) masks of 64 bytes, byte `j` in bit `j`.
    fn full(self, bytes: &[u8; 64]) -> (u64, u64);

    /// The masks of `input`, shorter than 64 bytes; bits past its end are zero.
    #[inline(always)]
    fn short(self, input: &[u8]) -> (u64, u64) {
        let mut buf = [0u8; 64];
        buf[..input.len()].copy_from_slice(input);
        let (s, u) = self.full(&buf);
        // The zero padding is special: keep the input's bits only.
        let valid = (1u64 << input.len()) - 1;
        (s & valid, u & valid)
    }

    /// The masks of the (up to) 64 bytes of `input` from `at`: byte `at + j` in bit `j`,
    /// bits past the end zero. `at` must be less than `input.len()`.
    ///
    /// A word that would run past the end is loaded as the input's last 64 bytes and
    /// shifted into place; only an input shorter than 64 bytes goes through [`short`].
    ///
    /// [`short`]: Words::short
    #[inline(always)]
    fn word(self, input: &[u8], at: usize) -> (u64, u64) {
        let n = input.len();
        debug_assert!(at < n);
        if let Some(chunk) = input.get(at..at + 64) {
            return self.full(chunk.try_into().expect("64 bytes"));
        }
        if n >= 64 {
            let last: &[u8; 64] = input[n - 64..].try_into().expect("64 bytes");
            let (s, u) = self.full(last);
            let shift = at + 64 - n;
            (s >> shift, u >> shift)
        } else {
            let (s, u) = self.short(input);
            (s >> at, u >> at)
        }
    }
}

/// Work that classifies bytes: [`run`] calls [`Task::run`] with the kernel this CPU has,
/// compiled for it (the SIMD work is inlined into the task, with no call through a
/// pointer and no mask arrays).
pub(crate) trait Task {
    /// What the task returns.
    type Out;
    /// Runs the task with the kernel `k`.
    fn run<K: Words>(self, k: K) -> Self::Out;
}

/// Runs `task` with the best kernel of this CPU: AVX2 when it has it (detection is
/// cached by the standard library), else SSE2 on x86_64; NEON on aarch64; the portable
/// scalar kernel elsewhere.
#[inline]
pub(crate) fn run<T: Task>(task: T) -> T::Out {
    #[cfg(target_arch = "x86_64")]
    {
        x86::run(task)
    }
    #[cfg(target_arch = "aarch64")]
    {
        task.run(aarch64::Neon)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        task.run(Scalar)
    }
}

/// [`run`] for a task that reads one word for most inputs and is small: on x86_64 with
/// AVX2, the task runs inlined in its caller and each word is one call of a small AVX2
/// function, instead of the whole task running in a function compiled for AVX2 (whose
/// entry and exit save and restore the caller's registers). Elsewhere, [`run`].
#[inline]
pub(crate) fn run_leaf<T: Task>(task: T) -> T::Out {
    #[cfg(target_arch = "x86_64")]
    {
        x86::run_leaf(task)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        run(task)
    }
}

/// The portable reference kernel: one table look-up per byte.
#[derive(Clone, Copy)]
pub(crate) struct Scalar;

impl Scalar {
    /// The masks of up to 64 bytes.
    #[inline(always)]
    fn bytes(input: &[u8]) -> (u64, u64) {
        let (mut s, mut u) = (0u64, 0u64);
        for (j, &b) in input.iter().enumerate().take(64) {
            let c = CLASS[b as usize];
            s |= u64::from(c == 0) << j;
            u |= u64::from(c & class::UPPER != 0) << j;
        }
        (s, u)
    }
}

impl Words for Scalar {
    #[inline(always)]
    fn full(self, bytes: &[u8; 64]) -> (u64, u64) {
        Scalar::bytes(bytes)
    }

    #[inline(always)]
    fn short(self, input: &[u8]) -> (u64, u64) {
        Scalar::bytes(input)
    }
}

/// The number of 64-bit mask words that an input of `len` bytes needs.
#[inline]
pub(crate) const fn mask_words(len: usize) -> usize {
    len.div_ceil(64)
}

/// A classifier that fills whole mask arrays (for the tests and benches that compare
/// kernels): `special` and `upper` are each `mask_words(input.len())` long.
pub(crate) type Kernel = fn(&[u8], &mut [u64], &mut [u64]);

/// Fills the mask arrays of `input` with one kernel, word by word.
struct Fill<'a> {
    input: &'a [u8],
    special: &'a mut [u64],
    upper: &'a mut [u64],
}

impl Task for Fill<'_> {
    type Out = ();
    fn run<K: Words>(self, k: K) {
        for w in 0..mask_words(self.input.len()) {
            let (s, u) = k.word(self.input, w * 64);
            self.special[w] = s;
            self.upper[w] = u;
        }
    }
}

/// The portable reference kernel over whole arrays.
pub(crate) fn classify_scalar(input: &[u8], special: &mut [u64], upper: &mut [u64]) {
    Fill {
        input,
        special,
        upper,
    }
    .run(Scalar);
}

/// The name of the kernel [`run`] uses on this CPU: `avx2`, `sse2`, `neon` or `scalar`
/// (for benchmark reports).
pub(crate) fn kernel_name() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if x86::has_avx2() { "avx2" } else { "sse2" }
    }
    #[cfg(target_arch = "aarch64")]
    {
        "neon"
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        "scalar"
    }
}

/// Every kernel this CPU can run, by name, the scalar reference first, for the tests and
/// benches that compare them.
#[doc(hidden)]
pub(crate) fn kernels() -> Vec<(&'static str, Kernel)> {
    let mut v: Vec<(&'static str, Kernel)> = vec![("scalar", classify_scalar)];
    #[cfg(target_arch = "x86_64")]
    {
        v.push(("sse2", |input, special, upper| {
            Fill {
                input,
                special,
                upper,
            }
            .run(x86::Sse2)
        }));
        if x86::has_avx2() {
            v.push(("avx2", |input, special, upper| {
                x86::run(Fill {
                    input,
                    special,
                    upper,
                })
            }));
            v.push(("avx2-leaf", |input, special, upper| {
                x86::run_leaf(Fill {
                    input,
                    special,
                    upper,
                })
            }));
        }
    }
    #[cfg(target_arch = "aarch64")]
    v.push(("neon", |input, special, upper| {
        Fill {
            input,
            special,
            upper,
        }
        .run(aarch64::Neon)
    }));
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
        for (name, k) in kernels() {
            for len in 1..=130usize {
                let input = vec![0u8; len]; // every byte special
                let words = mask_words(len);
                let (mut s, mut u) = (vec![0u64; words], vec![0u64; words]);
                k(&input, &mut s, &mut u);
                let total: u32 = s.iter().map(|w| w.count_ones()).sum();
                assert_eq!(total as usize, len, "{name}, {len} bytes");
            }
        }
    }

    /// The masks of every offset of one input, with one kernel.
    struct EveryOffset<'a>(&'a [u8]);

    impl Task for EveryOffset<'_> {
        type Out = Vec<(u64, u64)>;
        fn run<K: Words>(self, k: K) -> Vec<(u64, u64)> {
            (0..self.0.len()).map(|at| k.word(self.0, at)).collect()
        }
    }

    #[test]
    fn words_at_every_offset_match_the_scalar_reference() {
        for input in inputs().iter().step_by(7) {
            let expected = EveryOffset(input).run(Scalar);
            // The reference itself: byte `at + j` in bit `j`, nothing past the end.
            for (at, &(s, u)) in expected.iter().enumerate() {
                for j in 0..64 {
                    let (sb, ub) = (s >> j & 1 == 1, u >> j & 1 == 1);
                    match input.get(at + j) {
                        Some(&b) => {
                            assert_eq!(sb, !is_plain(b));
                            assert_eq!(ub, b.is_ascii_uppercase());
                        }
                        None => assert!(!sb && !ub),
                    }
                }
            }
            assert_eq!(run(EveryOffset(input)), expected, "{input:?}");
            assert_eq!(run_leaf(EveryOffset(input)), expected, "{input:?}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(EveryOffset(input).run(x86::Sse2), expected, "{input:?}");
        }
    }
}
