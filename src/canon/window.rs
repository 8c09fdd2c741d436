//! What a path or query holds, read sixteen bytes at a time, for the keys' fast paths: a
//! key whose span holds none of the bytes that need work is the span copied. Each window
//! is a fixed-size array tested lane by lane without branches, which the compiler turns
//! into a few vector compares (SSE2 on x86-64, NEON on AArch64).

/// What [`scan`] found in a span.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Held {
    /// A byte the SURT key escapes: a control, space, DEL, a byte ≥ 0x80, `#` or `%`.
    pub(crate) escape: bool,
    /// Two `/` in a row.
    pub(crate) double_slash: bool,
    /// A `.` followed by `a` or `A` (where `.aspx` may start).
    pub(crate) dot_a: bool,
    /// An ASCII upper-case letter.
    pub(crate) upper: bool,
}

const ESCAPE: u8 = 1;
const DOUBLE_SLASH: u8 = 2;
const DOT_A: u8 = 4;
const UPPER: u8 = 8;

/// The facts of the sixteen bytes `w[..16]`, each with the byte after it (`w[16]`) for
/// the pairs, as bits.
#[inline(always)]
fn window(w: &[u8; 17]) -> u8 {
    let (mut escape, mut upper, mut slashes, mut dot_a) = (false, false, false, false);
    for i in 0..16 {
        let (b, next) = (w[i], w[i + 1]);
        escape |= (b <= 0x20) | (b >= 0x7f) | (b == b'#') | (b == b'%');
        upper |= b.wrapping_sub(b'A') < 26;
        slashes |= (b == b'/') & (next == b'/');
        dot_a |= (b == b'.') & ((next | 0x20) == b'a');
    }
    let bit = |set: bool, bit: u8| if set { bit } else { 0 };
    bit(escape, ESCAPE) | bit(slashes, DOUBLE_SLASH) | bit(dot_a, DOT_A) | bit(upper, UPPER)
}

/// What `bytes` holds ([`Held`]): a span of at most 64 bytes from the bitmasks of
/// `scan::marks` (SSE2 compares on x86-64), a longer one window by window.
pub(crate) fn scan(bytes: &[u8]) -> Held {
    if let Some(m) = crate::scan::marks::marks64(bytes) {
        // A pair is a bit of the first mask with the next byte's bit of the second.
        return Held {
            escape: m.escape != 0,
            double_slash: m.slash & (m.slash >> 1) != 0,
            dot_a: m.dot & (m.a >> 1) != 0,
            upper: m.upper != 0,
        };
    }
    let n = bytes.len();
    // Padding: `x` is none of the bytes looked for.
    let mut w = [b'x'; 17];
    let mut bits = 0;
    if n <= 16 {
        w[..n].copy_from_slice(bytes);
        bits = window(&w);
    } else {
        let mut i = 0;
        while i + 17 <= n {
            w.copy_from_slice(&bytes[i..i + 17]);
            bits |= window(&w);
            i += 16;
        }
        // The last sixteen bytes, overlapping the windows before: a byte or pair seen
        // twice changes nothing, and every pair not yet seen lies in them.
        w[..16].copy_from_slice(&bytes[n - 16..]);
        w[16] = b'x';
        bits |= window(&w);
    }
    Held {
        escape: bits & ESCAPE != 0,
        double_slash: bits & DOUBLE_SLASH != 0,
        dot_a: bits & DOT_A != 0,
        upper: bits & UPPER != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same facts, byte by byte.
    fn slow(bytes: &[u8]) -> Held {
        let pair = |p: &dyn Fn(u8, u8) -> bool| bytes.windows(2).any(|w| p(w[0], w[1]));
        Held {
            escape: bytes
                .iter()
                .any(|&b| b <= 0x20 || b >= 0x7f || b == b'#' || b == b'%'),
            double_slash: pair(&|a, b| a == b'/' && b == b'/'),
            dot_a: pair(&|a, b| a == b'.' && (b == b'a' || b == b'A')),
            upper: bytes.iter().any(u8::is_ascii_uppercase),
        }
    }

    #[test]
    fn agrees_with_byte_by_byte() {
        let alphabet = b"/.aAzZ@[`{#%\x00\x1f \x7f\x80\xffx-";
        // Every span up to 100 bytes (the masks up to 64, the windows beyond) over a
        // small alphabet, each special byte at every place (and pairs across the word
        // boundaries).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=100 {
            for _ in 0..2000 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                assert_eq!(scan(&bytes), slow(&bytes), "{bytes:?}");
            }
        }
        // Pairs across the windows' edges (at 16 and at the overlap).
        assert!(scan(b"/abcdefghijklmn//").double_slash);
        assert!(scan(b"/abcdefghijklmno//x").double_slash);
        assert!(!scan(b"/abcdefghijklmno/x/").double_slash);
        assert!(scan(b"/abcdefghijklmnopqrstu.A").dot_a);
        assert!(!scan(b"/abcdefghijklmnopqrst./A").dot_a);
    }
}
