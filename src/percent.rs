//! Percent-encoding and decoding, URL Standard §1.3.
//!
//! A percent-encode set is a set of code points. Every set the Standard defines contains
//! all code points above U+007E, so an [`AsciiSet`] only has to say which ASCII bytes it
//! holds: any byte ≥ 0x80 (a piece of a UTF-8 sequence) is always encoded.

use crate::output::Output;
use std::borrow::Cow;

/// A percent-encode set, as a 128-bit mask of the ASCII bytes it contains.
///
/// Bytes ≥ 0x80 are always in the set (the Standard's sets all contain every code point
/// above U+007E).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AsciiSet {
    mask: u128,
}

impl AsciiSet {
    /// The empty set of ASCII bytes (non-ASCII is still encoded).
    pub const EMPTY: AsciiSet = AsciiSet { mask: 0 };

    /// This set plus the byte `b`.
    ///
    /// # Panics
    ///
    /// If `b` is not ASCII (bytes >= 0x80 are always in the set; adding one is a mistake).
    /// In a `const` this is a compile error.
    pub const fn add(self, b: u8) -> AsciiSet {
        assert!(b < 0x80, "AsciiSet::add: the byte is not ASCII");
        AsciiSet {
            mask: self.mask | (1u128 << b),
        }
    }

    /// This set plus every byte of `bytes`.
    ///
    /// # Panics
    ///
    /// If a byte of `bytes` is not ASCII, as [`AsciiSet::add`].
    pub const fn add_all(self, bytes: &[u8]) -> AsciiSet {
        let mut set = self;
        let mut i = 0;
        while i < bytes.len() {
            set = set.add(bytes[i]);
            i += 1;
        }
        set
    }

    /// This set plus every byte in `lo..=hi` (none when `lo > hi`).
    ///
    /// # Panics
    ///
    /// If `hi` is not ASCII, as [`AsciiSet::add`].
    pub const fn add_range(self, lo: u8, hi: u8) -> AsciiSet {
        assert!(hi < 0x80, "AsciiSet::add_range: the range is not ASCII");
        let mut set = self;
        // `hi < 0x80`, so the counter cannot overflow.
        let mut b = lo;
        while b <= hi {
            set = set.add(b);
            b += 1;
        }
        set
    }

    /// Whether `byte` is in the set (always true for bytes ≥ 0x80).
    #[inline]
    pub const fn contains(&self, byte: u8) -> bool {
        byte >= 0x80 || (self.mask >> byte) & 1 == 1
    }
}

/// The C0 control percent-encode set: C0 controls and everything above U+007E.
pub const C0_CONTROL: AsciiSet = AsciiSet::EMPTY.add_range(0x00, 0x1f).add(0x7f);

/// The fragment percent-encode set: C0 control set and space, `"`, `<`, `>`, `` ` ``.
pub const FRAGMENT: AsciiSet = C0_CONTROL.add_all(b" \"<>`");

/// The query percent-encode set: C0 control set and space, `"`, `#`, `<`, `>`.
pub const QUERY: AsciiSet = C0_CONTROL.add_all(b" \"#<>");

/// The special-query percent-encode set: the query set and `'`.
pub const SPECIAL_QUERY: AsciiSet = QUERY.add(b'\'');

/// The path percent-encode set: the query set and `?`, `^`, `` ` ``, `{`, `}`.
pub const PATH: AsciiSet = QUERY.add_all(b"?^`{}");

/// The userinfo percent-encode set: the path set and `/`, `:`, `;`, `=`, `@`, `[` to `]`, `|`.
pub const USERINFO: AsciiSet = PATH.add_all(b"/:;=@[\\]|");

/// The component percent-encode set: the userinfo set and `$` to `&`, `+`, `,`.
/// Gives the same results as JavaScript's `encodeURIComponent()`.
pub const COMPONENT: AsciiSet = USERINFO.add_all(b"$%&+,");

/// The application/x-www-form-urlencoded percent-encode set: the component set and `!`,
/// `'` to `)`, `~`.
pub const FORM_URLENCODED: AsciiSet = COMPONENT.add_all(b"!'()~");

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` (upper-case hex) for `byte` to `out`.
#[inline]
pub(crate) fn push_pct<O: Output + ?Sized>(out: &mut O, byte: u8) {
    let at = 3 * byte as usize;
    out.push_str(&PCT_TEXT[at..at + 3]);
}

/// `000` to `999`: [`push_decimal`] writes a number below 1000 as one slice of it.
const DIGITS3: &str = {
    const BYTES: [u8; 3000] = {
        let mut t = [0u8; 3000];
        let mut n = 0;
        while n < 1000 {
            t[3 * n] = b'0' + (n / 100) as u8;
            t[3 * n + 1] = b'0' + (n / 10 % 10) as u8;
            t[3 * n + 2] = b'0' + (n % 10) as u8;
            n += 1;
        }
        t
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("digits are ASCII"),
    }
};

/// Appends `n` in decimal (the Standard's "serialize an integer"), without allocating.
pub(crate) fn push_decimal<O: Output + ?Sized>(out: &mut O, mut n: u32) {
    if n < 1000 {
        // IPv4 address parts and most ports: one slice, without leading zeros.
        let skip = if n >= 100 {
            0
        } else if n >= 10 {
            1
        } else {
            2
        };
        let at = 3 * n as usize;
        out.push_str(&DIGITS3[at + skip..at + 3]);
        return;
    }
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits are valid UTF-8.
    out.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits are UTF-8"));
}

/// UTF-8 percent-encodes `input` with `set` and appends the result to `out`
/// (URL Standard §1.3, "UTF-8 percent-encode" applied to each code point of a string).
pub fn encode_into(input: &str, set: &AsciiSet, out: &mut String) {
    encode_to(input, set, out)
}

/// Percent-encodes the bytes `bytes` (UTF-8, or any other encoding's) with `set` and
/// appends the result to `out`: every byte of 0x80 and above is in every set, so is
/// written `%XX`.
///
/// ```
/// let mut out = String::new();
/// rapidurl::percent::encode_bytes_into(b"a b\xE9", &rapidurl::percent::QUERY, &mut out);
/// assert_eq!(out, "a%20b%E9");
/// ```
pub fn encode_bytes_into(bytes: &[u8], set: &AsciiSet, out: &mut String) {
    push_encoded_bytes(bytes, set, false, out)
}

/// [`encode_into`] for any [`Output`] (the parser writes into its caller's buffer).
#[inline]
pub(crate) fn encode_to<O: Output + ?Sized>(input: &str, set: &AsciiSet, out: &mut O) {
    encode_pieces::<false>(input.as_bytes(), set, |piece| match piece {
        Piece::Run(run) => out.push_str(&input[run]),
        Piece::Escape(b) => push_pct(out, b),
        Piece::Plus => out.push('+'),
    })
}

/// Appends the percent-encoded bytes `bytes` (UTF-8, or what a legacy encoder wrote) to
/// `out`: a byte in `set` becomes `%XX`, 0x20 becomes `+` if `space_as_plus`, any other
/// byte (necessarily ASCII) stays as it is.
#[inline]
pub(crate) fn push_encoded_bytes<O: Output + ?Sized>(
    bytes: &[u8],
    set: &AsciiSet,
    space_as_plus: bool,
    out: &mut O,
) {
    let mut emit = |piece| match piece {
        Piece::Run(run) => push_ascii(&bytes[run], out),
        Piece::Escape(b) => push_pct(out, b),
        Piece::Plus => out.push('+'),
    };
    if space_as_plus {
        encode_pieces::<true>(bytes, set, &mut emit)
    } else {
        encode_pieces::<false>(bytes, set, &mut emit)
    }
}

/// Appends ASCII bytes to `out`.
#[inline]
fn push_ascii<O: Output + ?Sized>(bytes: &[u8], out: &mut O) {
    let ascii = std::str::from_utf8(bytes)
        .expect("the caller passes bytes outside the set, which are ASCII because every set holds all bytes >= 0x80");
    out.push_str(ascii);
}

/// What [`encode_pieces`] emits.
pub(crate) enum Piece {
    /// A run of bytes that stay as they are: never empty, and ASCII (every byte >= 0x80
    /// is in every set), so in a string it starts and ends on char boundaries.
    Run(std::ops::Range<usize>),
    /// A byte to write as `%XX`.
    Escape(u8),
    /// A space to write as `+`.
    Plus,
}

/// The percent-encoding loop (§1.3), written once for strings and for the bytes of a
/// legacy encoding: splits `bytes` into runs kept as they are, bytes in `set` to escape,
/// and (with `SPACE_AS_PLUS`, the form serializer) spaces to write as `+`. (A const
/// parameter: the parser's loop then has no `+` test at all.)
#[inline(always)]
pub(crate) fn encode_pieces<const SPACE_AS_PLUS: bool>(
    bytes: &[u8],
    set: &AsciiSet,
    mut emit: impl FnMut(Piece),
) {
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let plus = SPACE_AS_PLUS && b == b' ';
        if plus || set.contains(b) {
            if start < i {
                emit(Piece::Run(start..i));
            }
            emit(if plus { Piece::Plus } else { Piece::Escape(b) });
            start = i + 1;
        }
    }
    if start < bytes.len() {
        emit(Piece::Run(start..bytes.len()));
    }
}

/// `%00` to `%FF`, three bytes each: [`push_pct`] writes a slice of it in one step.
const PCT_TEXT: &str = {
    const BYTES: [u8; 768] = {
        let mut t = [0u8; 768];
        let mut b = 0;
        while b < 256 {
            t[3 * b] = b'%';
            t[3 * b + 1] = HEX_UPPER[b >> 4];
            t[3 * b + 2] = HEX_UPPER[b & 15];
            b += 1;
        }
        t
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("%XX is ASCII"),
    }
};

/// What an [`EncodeTable`] says about a byte.
const COPY: u8 = 0;
/// The byte is in the percent-encode set: written as `%XX`.
const ESCAPE: u8 = 1;
/// The byte ends the component: [`encode_until`] stops before it.
const STOP: u8 = 2;
/// `/` in a path table ([`EncodeTable::with_slash`]): [`encode_path_until`] copies it and
/// goes on unless a segment that may be a dot segment follows.
const SLASH: u8 = 3;

/// The OR of `t`'s entries for the first eight bytes of `w`: a table's flags over a word,
/// with no branch. Nonzero when some byte of the word has a nonzero entry; the callers
/// then look at the word byte by byte.
///
/// # Panics
///
/// When `w` is shorter than eight bytes.
///
/// ```
/// let mut t = [0u8; 256];
/// t[b'%' as usize] = 1;
/// assert_eq!(rapidurl::percent::or_of_8(&t, b"abcdefgh"), 0);
/// assert_eq!(rapidurl::percent::or_of_8(&t, b"abc%defg"), 1);
/// ```
#[inline(always)]
pub fn or_of_8(t: &[u8; 256], w: &[u8]) -> u8 {
    t[w[0] as usize]
        | t[w[1] as usize]
        | t[w[2] as usize]
        | t[w[3] as usize]
        | t[w[4] as usize]
        | t[w[5] as usize]
        | t[w[6] as usize]
        | t[w[7] as usize]
}

/// `t`'s entries for the eight bytes of `w`, byte `k` of the result for `w[k]`: the first
/// byte with a nonzero entry is the lowest nonzero byte of the word.
#[inline(always)]
fn flags_of_8(t: &[u8; 256], w: &[u8]) -> u64 {
    u64::from_le_bytes([
        t[w[0] as usize],
        t[w[1] as usize],
        t[w[2] as usize],
        t[w[3] as usize],
        t[w[4] as usize],
        t[w[5] as usize],
        t[w[6] as usize],
        t[w[7] as usize],
    ])
}

/// The position of the first byte at or after `i` whose entry in `t` is not zero, or
/// `b.len()`: eight bytes per step, the position taken from the word's entries (no byte
/// loop to find it, whose exit branch is mispredicted about once per call); a last partial word is read as the input's last eight bytes, less
/// those before `i`. Only inputs shorter than eight bytes are walked byte by byte.
#[inline(always)]
pub(crate) fn first_flagged(t: &[u8; 256], b: &[u8], mut i: usize) -> usize {
    let n = b.len();
    while i + 8 <= n {
        let m = flags_of_8(t, &b[i..i + 8]);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    if i >= n {
        return n;
    }
    if n >= 8 {
        // Byte `k` of the last word is `b[n - 8 + k]`; drop those before `i`.
        let m = flags_of_8(t, &b[n - 8..]) >> (8 * (i + 8 - n));
        return if m != 0 {
            i + (m.trailing_zeros() / 8) as usize
        } else {
            n
        };
    }
    while i < n && t[b[i] as usize] == 0 {
        i += 1;
    }
    i
}

/// A percent-encode set and the bytes that end a component, as one 256-entry table, so
/// that the state machine finds a component's end and encodes it in one pass: each byte
/// costs one table look-up, and runs of bytes that stay as they are are copied whole.
pub(crate) struct EncodeTable([u8; 256]);

impl EncodeTable {
    /// The table of `set`, with every byte of `stops` ending the component (a stop wins
    /// over the set).
    pub(crate) const fn new(set: &AsciiSet, stops: &[u8]) -> EncodeTable {
        let mut t = [COPY; 256];
        let mut b = 0;
        while b < 256 {
            if set.contains(b as u8) {
                t[b] = ESCAPE;
            }
            b += 1;
        }
        let mut i = 0;
        while i < stops.len() {
            t[stops[i] as usize] = STOP;
            i += 1;
        }
        EncodeTable(t)
    }

    /// The same table for [`encode_path_until`]: `/` no longer stops.
    pub(crate) const fn with_slash(self) -> EncodeTable {
        let mut t = self.0;
        t[b'/' as usize] = SLASH;
        EncodeTable(t)
    }

    /// Where the next byte at or after `from` that is not copied as it is lies (`b.len()`
    /// if none): [`first_flagged`] (`COPY` is zero).
    #[inline(always)]
    fn next_work(&self, b: &[u8], i: usize) -> usize {
        first_flagged(&self.0, b, i)
    }
}

/// [`encode_until`] over path segments: with a table [`with_slash`](EncodeTable::with_slash),
/// a `/` is copied with the run and the next segment encoded in the same pass, unless that
/// segment starts with `.` or `%` (it may be a dot segment, which the path state handles
/// alone). Returns where it stopped: at a stop byte, at such a `/`, or at the end. Every
/// segment after a copied `/` is thus one that the path state would have written as `/`
/// and its encoded bytes.
#[inline(always)]
pub(crate) fn encode_path_until<O: Output + ?Sized>(
    input: &str,
    from: usize,
    table: &EncodeTable,
    out: &mut O,
) -> usize {
    let b = input.as_bytes();
    let mut run = from;
    let mut i = from;
    loop {
        i = table.next_work(b, i);
        let Some(&c) = b.get(i) else { break };
        match table.0[c as usize] {
            ESCAPE => {
                if run < i {
                    out.push_str(&input[run..i]);
                }
                push_pct(out, c);
                i += 1;
                run = i;
            }
            SLASH if !matches!(b.get(i + 1), Some(b'.' | b'%')) => i += 1,
            _ => break,
        }
    }
    if run < i {
        // ASCII run: char boundaries at both ends (see `encode_until`).
        out.push_str(&input[run..i]);
    }
    i
}

/// UTF-8 percent-encodes `input[from..]` with `table`'s set up to the first of its stop
/// bytes (or the end), appending to `out`; returns where it stopped. Runs of bytes that
/// stay as they are are appended in one step each. (Inlined: the path state calls it once
/// per segment.)
#[inline(always)]
pub(crate) fn encode_until<O: Output + ?Sized>(
    input: &str,
    from: usize,
    table: &EncodeTable,
    out: &mut O,
) -> usize {
    let b = input.as_bytes();
    let mut run = from;
    loop {
        let i = table.next_work(b, run);
        if run < i {
            // Every byte >= 0x80 is escaped, so a run is ASCII and starts and ends on
            // char boundaries.
            out.push_str(&input[run..i]);
        }
        match b.get(i) {
            Some(&c) if table.0[c as usize] == ESCAPE => {
                push_pct(out, c);
                run = i + 1;
            }
            _ => return i,
        }
    }
}

/// UTF-8 percent-encodes `input` with `set` (URL Standard §1.3).
///
/// Borrows `input` when nothing needs encoding.
///
/// ```
/// use rapidurl::percent::{encode, COMPONENT};
/// assert_eq!(encode("a b/ü", &COMPONENT), "a%20b%2F%C3%BC");
/// ```
pub fn encode<'a>(input: &'a str, set: &AsciiSet) -> Cow<'a, str> {
    match input.bytes().position(|b| set.contains(b)) {
        None => Cow::Borrowed(input),
        Some(first) => {
            let mut out = String::with_capacity(input.len() + 16);
            out.push_str(&input[..first]);
            encode_into(&input[first..], set, &mut out);
            Cow::Owned(out)
        }
    }
}

/// The value of an ASCII hex digit, or `None`.
#[inline]
pub(crate) const fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Percent-decodes a byte sequence (URL Standard §1.3 "percent-decode"): each `%XX` with
/// two hex digits becomes the byte `0xXX`; any other `%` stays as it is.
///
/// Borrows `input` when it holds no `%`.
///
/// ```
/// use rapidurl::percent::decode;
/// assert_eq!(&*decode(b"%41%zz%4"), b"A%zz%4");
/// ```
pub fn decode(input: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = input.iter().position(|&b| b == b'%') else {
        return Cow::Borrowed(input);
    };
    let mut out = Vec::with_capacity(input.len());
    out.extend_from_slice(&input[..first]);
    decode_into(&input[first..], false, &mut out);
    Cow::Owned(out)
}

/// The percent-decoding loop, written once for [`decode`] and the form parser: appends
/// `input` to `out` with each `%XX` (two hex digits) replaced by its byte, and, with
/// `plus_as_space` (§5.1 step 3.4), each `+` by a space. Doing both in one pass gives the
/// same result as one after the other, as `+` is neither `%` nor a hex digit.
pub(crate) fn decode_into(input: &[u8], plus_as_space: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%'
            && i + 2 < input.len()
            && let (Some(h), Some(l)) = (hex_value(input[i + 1]), hex_value(input[i + 2]))
        {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        out.push(if plus_as_space && b == b'+' { b' ' } else { b });
        i += 1;
    }
}

/// UTF-8 decode without BOM (Encoding Standard), written once for [`decode_utf8_lossy`]
/// and the form parser: invalid sequences become U+FFFD (one per maximal subpart, which is
/// what Rust's lossy conversion does too); a leading EF BB BF is kept as U+FEFF.
pub(crate) fn utf8_decode_without_bom(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Percent-decodes a string (URL Standard §1.3 "string percent-decode") and decodes the
/// bytes as UTF-8 without BOM, replacing invalid sequences with U+FFFD.
pub fn decode_utf8_lossy(input: &str) -> Cow<'_, str> {
    match decode(input.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(input),
        Cow::Owned(bytes) => Cow::Owned(utf8_decode_without_bom(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_flagged_finds_the_first_flagged_byte() {
        // Against a byte loop, for every length up to 40, every start and every position
        // of one or two flagged bytes (`/` and `%` here; `a` is not flagged).
        let mut t = [0u8; 256];
        t[b'/' as usize] = 2;
        t[b'%' as usize] = 1;
        let reference = |b: &[u8], i: usize| {
            (i..b.len())
                .find(|&j| t[b[j] as usize] != 0)
                .unwrap_or(b.len().max(i))
        };
        for n in 0usize..40 {
            for first in (0..n).map(Some).chain([None]) {
                for second in [None, Some(n.saturating_sub(1)), Some(n / 2)] {
                    let mut b = vec![b'a'; n];
                    for (at, c) in [(first, b'/'), (second, b'%')] {
                        if let Some(at) = at.filter(|&at| at < n) {
                            b[at] = c;
                        }
                    }
                    for i in 0..=n {
                        assert_eq!(first_flagged(&t, &b, i), reference(&b, i), "{b:?} from {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn sets_match_the_standard() {
        // C0 control set: 0x00-0x1F and 0x7F, nothing else in ASCII.
        for b in 0u8..0x80 {
            assert_eq!(C0_CONTROL.contains(b), b < 0x20 || b == 0x7f, "byte {b:#x}");
        }
        assert!(C0_CONTROL.contains(0x80) && C0_CONTROL.contains(0xff));
        assert!(FRAGMENT.contains(b'`') && !QUERY.contains(b'`'));
        assert!(QUERY.contains(b'#') && !FRAGMENT.contains(b'#'));
        assert!(SPECIAL_QUERY.contains(b'\'') && !QUERY.contains(b'\''));
        for b in b"?^`{}" {
            assert!(PATH.contains(*b));
        }
        for b in b"/:;=@[\\]|" {
            assert!(USERINFO.contains(*b) && !PATH.contains(*b) || *b == b'?');
        }
        // The form set leaves only alphanumerics and *-._ alone.
        for b in 0u8..0x80 {
            let kept = b.is_ascii_alphanumeric() || b"*-._".contains(&b);
            assert_eq!(!FORM_URLENCODED.contains(b), kept, "byte {b:#x}");
        }
    }

    #[test]
    fn add_range_to_0xff_is_refused_instead_of_looping() {
        // Before: the counter overflowed (a panic in debug builds, an endless loop in
        // release builds); now the non-ASCII end is refused by name.
        let result = std::panic::catch_unwind(|| AsciiSet::EMPTY.add_range(0x70, 0xFF));
        let message = result.expect_err("a non-ASCII range must be refused");
        let message = message.downcast_ref::<&str>().copied().unwrap_or_default();
        assert!(message.contains("not ASCII"), "{message}");
        assert_eq!(
            AsciiSet::EMPTY.add_range(0x7e, 0x7f),
            AsciiSet::EMPTY.add(0x7e).add(0x7f)
        );
        assert_eq!(AsciiSet::EMPTY.add_range(5, 4), AsciiSet::EMPTY);
    }

    #[test]
    fn adding_a_non_ascii_byte_is_refused_instead_of_masked() {
        // Before: 0xC1 was silently added as 0x41 ('A').
        let result = std::panic::catch_unwind(|| AsciiSet::EMPTY.add(0xC1));
        assert!(result.is_err(), "0xC1 was accepted");
        assert!(!AsciiSet::EMPTY.add_all(b"a").contains(b'A'));
    }

    #[test]
    fn component_set_is_encode_uri_component() {
        // encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) unescaped.
        for b in 0u8..0x80 {
            let kept = b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b);
            assert_eq!(!COMPONENT.contains(b), kept, "byte {b:#x}");
        }
    }

    #[test]
    fn encode_examples_from_the_standard() {
        // §1.3 example: percent-encode after encoding with the userinfo set.
        assert_eq!(encode("≡", &USERINFO), "%E2%89%A1");
        assert_eq!(encode("‽", &USERINFO), "%E2%80%BD");
        assert_eq!(encode("Say what‽", &USERINFO), "Say%20what%E2%80%BD");
        assert!(matches!(encode("plain", &PATH), Cow::Borrowed(_)));
    }

    #[test]
    fn encode_until_is_encode_to_up_to_the_first_stop() {
        // Every byte value at every position of a string long enough for the eight-byte
        // steps, against the byte-at-a-time encoder, with and without a stop byte.
        let sets = [C0_CONTROL, FRAGMENT, QUERY, SPECIAL_QUERY, PATH, USERINFO];
        for set in &sets {
            for stops in [&b""[..], b"/\\?#", b"#"] {
                let table = EncodeTable::new(set, stops);
                for c in [
                    'a', '%', ' ', '#', '/', '\\', '?', '\u{7f}', 'é', '😀', '\u{1}',
                ] {
                    for at in [0, 1, 7, 8, 9, 15, 16, 17] {
                        let mut input: String = "abcdefghijklmnopq".into();
                        input.insert(at, c);
                        input.push('`');
                        for from in [0, 1, at]
                            .into_iter()
                            .filter(|&f| input.is_char_boundary(f))
                        {
                            let mut got = String::new();
                            let end = encode_until(&input, from, &table, &mut got);
                            let want_end = input.as_bytes()[from..]
                                .iter()
                                .position(|b| stops.contains(b))
                                .map_or(input.len(), |i| from + i);
                            let mut want = String::new();
                            encode_to(&input[from..want_end], set, &mut want);
                            assert_eq!((end, &got), (want_end, &want), "{input:?} from {from}");
                        }
                    }
                }
            }
        }
        let mut out = String::new();
        push_pct(&mut out, 0);
        push_pct(&mut out, 0xab);
        push_pct(&mut out, 0xff);
        assert_eq!(out, "%00%AB%FF");
    }

    #[test]
    fn encode_path_until_copies_slashes_up_to_a_possible_dot_segment() {
        let table = EncodeTable::new(&PATH, b"/\\?#").with_slash();
        for (input, written, end) in [
            ("a/b c/d?q", "a/b%20c/d", 7),
            ("a//b/", "a//b/", 5),
            ("a/./b", "a", 1),
            ("a/b/%2e/c", "a/b", 3),
            ("a/.b", "a", 1),
            ("é/x\\y", "%C3%A9/x", 4),
            ("a/b#f/.", "a/b", 3),
            ("", "", 0),
        ] {
            let mut out = String::new();
            assert_eq!(
                encode_path_until(input, 0, &table, &mut out),
                end,
                "{input:?}"
            );
            assert_eq!(out, written, "{input:?}");
        }
    }

    #[test]
    fn decode_examples_from_the_standard() {
        // §1.3 example: percent-decode "%25%s%1G" is "%%s%1G"; "‽%25%2E" is 0xE2 0x80 0xBD 0x25 0x2E.
        assert_eq!(&*decode(b"%25%s%1G"), b"%%s%1G");
        assert_eq!(
            &*decode("‽%25%2E".as_bytes()),
            &[0xE2, 0x80, 0xBD, 0x25, 0x2E]
        );
        assert_eq!(&*decode(b"%"), b"%");
        assert_eq!(&*decode(b"%4"), b"%4");
        assert_eq!(&*decode(b"%41"), b"A");
        assert_eq!(decode_utf8_lossy("%FF%41"), "\u{FFFD}A");
    }
}
