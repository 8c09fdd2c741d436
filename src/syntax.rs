//! The byte-level vocabulary of URL syntax that several parsers share (URL Standard §4.1,
//! §4.3, §4.4): scheme bytes and [`SchemeKind`], the characters the basic URL parser
//! strips or removes first, what ends an authority, where a port starts and how it is
//! read, and Windows drive letters.
//!
//! This module is a leaf: it imports nothing from the crate. The state machine
//! (`parser::state`), the fast path and `can_parse` proof (`parser::fast`,
//! `parser::proof`) and the setters all call these functions, so each rule is written
//! once.

use std::borrow::Cow;

/// A URL's scheme, as far as the Standard treats schemes differently (§4.1 special schemes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SchemeKind {
    /// `http`, default port 80.
    Http,
    /// `https`, default port 443.
    Https,
    /// `ws`, default port 80.
    Ws,
    /// `wss`, default port 443.
    Wss,
    /// `ftp`, default port 21.
    Ftp,
    /// `file`, no default port.
    File,
    /// Any scheme that is not special.
    NotSpecial,
}

impl SchemeKind {
    /// Classifies an ASCII-lowercase scheme.
    #[inline]
    pub fn from_scheme(scheme: &str) -> SchemeKind {
        SchemeKind::from_bytes(scheme.as_bytes())
    }

    /// Classifies the bytes of an ASCII-lowercase scheme (`NotSpecial` for anything that
    /// is not exactly one of the special schemes).
    ///
    /// By length, then one word compare (every URL asks, on the fast path).
    #[inline(always)]
    pub(crate) fn from_bytes(scheme: &[u8]) -> SchemeKind {
        /// The first four bytes of `s` as a little-endian word (`s` has at least four).
        #[inline(always)]
        fn word(s: &[u8]) -> u32 {
            u32::from_le_bytes([s[0], s[1], s[2], s[3]])
        }
        const HTTP: u32 = u32::from_le_bytes(*b"http");
        const FILE: u32 = u32::from_le_bytes(*b"file");
        match scheme.len() {
            4 if word(scheme) == HTTP => SchemeKind::Http,
            4 if word(scheme) == FILE => SchemeKind::File,
            5 if word(scheme) == HTTP && scheme[4] == b's' => SchemeKind::Https,
            2 if scheme == b"ws" => SchemeKind::Ws,
            3 if scheme == b"wss" => SchemeKind::Wss,
            3 if scheme == b"ftp" => SchemeKind::Ftp,
            _ => SchemeKind::NotSpecial,
        }
    }

    /// The special scheme that the scheme bytes `scheme` name in any case (the scheme state
    /// lower-cases them), `NotSpecial` for the others. `scheme` holds scheme bytes only
    /// ([`is_scheme_byte`]).
    #[inline]
    pub(crate) fn from_bytes_ignoring_case(scheme: &[u8]) -> SchemeKind {
        if scheme.len() > 5 {
            return SchemeKind::NotSpecial;
        }
        // Scheme bytes are ASCII alphanumerics, `+`, `-`, `.`: OR-ing 0x20 lower-cases
        // letters and maps no other scheme byte onto a letter.
        let key = scheme
            .iter()
            .fold(0u64, |k, &c| (k << 8) | u64::from(c | 0x20));
        const fn k(s: &[u8]) -> u64 {
            let mut key = 0u64;
            let mut i = 0;
            while i < s.len() {
                key = (key << 8) | s[i] as u64;
                i += 1;
            }
            key
        }
        match key {
            x if x == k(b"http") => SchemeKind::Http,
            x if x == k(b"https") => SchemeKind::Https,
            x if x == k(b"ws") => SchemeKind::Ws,
            x if x == k(b"wss") => SchemeKind::Wss,
            x if x == k(b"ftp") => SchemeKind::Ftp,
            x if x == k(b"file") => SchemeKind::File,
            _ => SchemeKind::NotSpecial,
        }
    }

    /// [`from_bytes_ignoring_case`](Self::from_bytes_ignoring_case) of `b[..len]`, the
    /// scheme bytes at the start of `b`, read as one 8-byte word when `b` has 8 bytes: no
    /// loop over the scheme (the can_parse proof's first step).
    #[inline(always)]
    pub(crate) fn from_prefix_ignoring_case(b: &[u8], len: usize) -> SchemeKind {
        let Some(word) = b.get(..8) else {
            return SchemeKind::from_bytes_ignoring_case(&b[..len.min(b.len())]);
        };
        if len == 0 || len > 5 {
            return SchemeKind::NotSpecial;
        }
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        // As above, OR-ing 0x20 lower-cases the letters; the bytes past the scheme are
        // masked off. Keys are little-endian here.
        let key = (word | 0x2020_2020_2020_2020) & ((1u64 << (8 * len)) - 1);
        const fn k(s: &[u8]) -> u64 {
            let mut key = 0u64;
            let mut i = 0;
            while i < s.len() {
                key |= (s[i] as u64) << (8 * i);
                i += 1;
            }
            key
        }
        match key {
            x if x == k(b"http") => SchemeKind::Http,
            x if x == k(b"https") => SchemeKind::Https,
            x if x == k(b"ws") => SchemeKind::Ws,
            x if x == k(b"wss") => SchemeKind::Wss,
            x if x == k(b"ftp") => SchemeKind::Ftp,
            x if x == k(b"file") => SchemeKind::File,
            _ => SchemeKind::NotSpecial,
        }
    }

    /// Whether the scheme is special (§4.1): ftp, file, http, https, ws, wss.
    #[inline]
    pub const fn is_special(self) -> bool {
        !matches!(self, SchemeKind::NotSpecial)
    }

    /// The scheme's default port (§4.1), if it has one.
    #[inline]
    pub const fn default_port(self) -> Option<u16> {
        match self {
            SchemeKind::Http | SchemeKind::Ws => Some(80),
            SchemeKind::Https | SchemeKind::Wss => Some(443),
            SchemeKind::Ftp => Some(21),
            SchemeKind::File | SchemeKind::NotSpecial => None,
        }
    }
}

/// Whether `b` may follow the first byte of a scheme: ASCII alphanumerics, `+`, `-`, `.`
/// (the scheme state).
#[inline]
pub(crate) fn is_scheme_byte(b: u8) -> bool {
    SCHEME_BYTE[b as usize]
}

/// The bytes a scheme may hold after its first: ASCII alphanumerics, `+`, `-`, `.`.
const SCHEME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.';
        c += 1;
    }
    t
};

/// Length of the scheme at the start of `b` when one is there (an ASCII alpha, then
/// ASCII alphanumerics, `+`, `-` or `.`, then `:`): the scheme start and scheme states.
#[inline]
pub(crate) fn scheme_len(b: &[u8]) -> Option<usize> {
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = b.iter().position(|&c| !is_scheme_byte(c))?;
    (b[len] == b':').then_some(len)
}

/// C0 control or space (Infra): U+0000 to U+0020.
#[inline]
pub(crate) const fn is_c0_or_space(b: u8) -> bool {
    b <= 0x20
}

/// ASCII tab or newline: U+0009, U+000A, U+000D.
#[inline]
pub(crate) const fn is_tab_or_newline(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

/// Whether any byte of `b` is an ASCII tab or newline.
#[inline]
pub(crate) fn has_tab_or_newline(b: &[u8]) -> bool {
    b.iter().any(|&c| is_tab_or_newline(c))
}

/// Removes every ASCII tab or newline (§4.4 basic URL parser step 3). Every input the
/// state machine parses is searched, eight bytes per step for a byte below 0x0E (tab,
/// line feed and carriage return are 0x09, 0x0A, 0x0D); only an input that has one is
/// searched exactly (a library search such as `memchr3` costs more in its set-up than
/// this on URLs of typical length). Runs between the removed bytes are copied whole.
pub(crate) fn remove_tab_and_newline(input: &str) -> Cow<'_, str> {
    let b = input.as_bytes();
    if !any_below_0e(b) {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len());
    let mut run = 0;
    for (i, &c) in b.iter().enumerate() {
        if is_tab_or_newline(c) {
            // ASCII bytes are char boundaries.
            out.push_str(&input[run..i]);
            run = i + 1;
        }
    }
    if run == 0 {
        return Cow::Borrowed(input);
    }
    out.push_str(&input[run..]);
    Cow::Owned(out)
}

/// Whether any byte of `b` is below 0x0E: eight bytes per step (a byte `x` is below `n`
/// when `x - n` borrows into its high bit while `x`'s own high bit is clear; a borrow can
/// only flag bytes above a byte that is below `n`, so the answer is exact). The last step
/// reads the last eight bytes, overlapping the one before: only an input shorter than
/// eight bytes is read byte by byte.
#[inline]
fn any_below_0e(b: &[u8]) -> bool {
    const LOW: u64 = u64::from_le_bytes([0x0E; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |w: &[u8]| {
        let x = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        x.wrapping_sub(LOW) & !x & HIGH != 0
    };
    let n = b.len();
    if n < 8 {
        return b.iter().any(|&c| c < 0x0E);
    }
    let mut i = 0;
    while i + 8 < n {
        if below(&b[i..i + 8]) {
            return true;
        }
        i += 8;
    }
    below(&b[n - 8..])
}

/// The range of `input` left after stripping leading and trailing C0 control or space
/// (§4.4 basic URL parser step 1.2–1.3), as `(lead, end)`.
#[inline]
pub(crate) fn trim_c0_or_space(input: &[u8]) -> (usize, usize) {
    let lead = input.iter().take_while(|&&b| is_c0_or_space(b)).count();
    let trail = input[lead..]
        .iter()
        .rev()
        .take_while(|&&b| is_c0_or_space(b))
        .count();
    (lead, input.len() - trail)
}

/// Whether `b` ends an authority, host or port: `/`, `?`, `#`, and `\` in special URLs.
#[inline]
pub(crate) fn ends_authority(b: u8, special: bool) -> bool {
    matches!(b, b'/' | b'?' | b'#') || (special && b == b'\\')
}

/// Where the authority starting at `b[pos..]` ends: the first byte that
/// [ends the authority](ends_authority), or the end of `b`.
#[inline]
pub(crate) fn authority_end(b: &[u8], pos: usize, special: bool) -> usize {
    b[pos..]
        .iter()
        .position(|&c| ends_authority(c, special))
        .map_or(b.len(), |i| pos + i)
}

/// The host state's `:` that starts a port: the first one outside `[` … `]` in `authority`
/// (the bytes up to the end of the authority).
#[inline]
pub(crate) fn host_colon(authority: &[u8]) -> Option<usize> {
    let mut inside_brackets = false;
    for (i, &c) in authority.iter().enumerate() {
        match c {
            b'[' => inside_brackets = true,
            b']' => inside_brackets = false,
            b':' if !inside_brackets => return Some(i),
            _ => {}
        }
    }
    None
}

/// Reads the port state's ASCII digits from `pos`: returns where they end and their value
/// (saturated at 65536, so that any out-of-range port stays out of range).
#[inline]
pub(crate) fn scan_port(b: &[u8], pos: usize) -> (usize, u32) {
    let mut value: u32 = 0;
    let mut end = pos;
    while end < b.len() && b[end].is_ascii_digit() {
        value = (value * 10 + (b[end] - b'0') as u32).min(65536);
        end += 1;
    }
    (end, value)
}

/// A Windows drive letter (§4.3): an ASCII alpha followed by `:` or `|`.
#[inline]
pub(crate) fn is_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && matches!(s[1], b':' | b'|')
}

/// A normalized Windows drive letter (§4.3): an ASCII alpha followed by `:`.
#[inline]
pub(crate) fn is_normalized_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && s[1] == b':'
}

/// Starts with a Windows drive letter (§4.3): a drive letter that is the whole string or
/// is followed by `/`, `\`, `?` or `#`.
#[inline]
pub(crate) fn starts_with_windows_drive_letter(s: &[u8]) -> bool {
    s.len() >= 2
        && is_windows_drive_letter(&s[..2])
        && (s.len() == 2 || matches!(s[2], b'/' | b'\\' | b'?' | b'#'))
}

/// Whether `host` has a last label (ignoring one trailing dot) that is proven not to be a
/// number (§3.5: a number is digits, or `0x` and hex digits), so that the domain does not
/// end in a number: the label ends with a letter no number has (`g`–`z` but `x`, either
/// case), or it does not start with an ASCII digit. Any other last label is left to the
/// parser (no real top-level domain is one). Looks at the last byte, then at most the last
/// label, from the end.
#[inline(always)]
pub(crate) fn last_label_is_not_numeric(host: &[u8]) -> bool {
    let trimmed = host.strip_suffix(b".").unwrap_or(host);
    // The common case in one look: a last byte that no number has (a number is digits, or
    // `0x`/`0X` and hex digits), so the last label is not one — `com`, `org`, `net`, `io`.
    // (`| 0x20` lower-cases `G`–`Z` and moves no other byte into `g`–`z`.)
    if let Some(&last) = trimmed.last()
        && matches!(last | 0x20, b'g'..=b'w' | b'y' | b'z')
    {
        return true;
    }
    let last = trimmed
        .iter()
        .rposition(|&c| c == b'.')
        .map_or(0, |i| i + 1);
    trimmed.get(last).is_some_and(|c| !c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-look test of the last byte takes exactly the letters no number has: every
    /// byte value, as the last of a label that starts with a digit (so that only the last
    /// byte can make the answer true).
    #[test]
    fn last_byte_shortcut_is_the_letters_no_number_has() {
        for last in 0..=255u8 {
            let no_number_has =
                last.is_ascii_alphabetic() && !last.is_ascii_hexdigit() && last | 0x20 != b'x';
            assert_eq!(
                last_label_is_not_numeric(&[b'a', b'.', b'1', last]),
                no_number_has,
                "{last:#x}"
            );
        }
    }

    #[test]
    fn any_below_0e_is_exact() {
        // Every byte value at every position of inputs of 1 to 20 bytes, the others `a`
        // or 0xFF (a high byte must not hide a low one in the same word).
        for n in 1..=20 {
            for at in 0..n {
                for v in 0..=255u8 {
                    for fill in [b'a', 0xFF, 0x0E] {
                        let mut b = vec![fill; n];
                        b[at] = v;
                        assert_eq!(any_below_0e(&b), b.iter().any(|&c| c < 0x0E), "{b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn scheme_kinds_from_a_prefix_as_from_the_bytes() {
        for scheme in [
            "http", "HTTPS", "Ws", "wss", "fTp", "file", "FILE", "htt", "httpss", "h", "ftq",
            "a+b", "x-y.z", "w", "fil", "https1",
        ] {
            for rest in ["", ":", "://x", "://example.com/", ":/x"] {
                let b = format!("{scheme}{rest}");
                assert_eq!(
                    SchemeKind::from_prefix_ignoring_case(b.as_bytes(), scheme.len()),
                    SchemeKind::from_bytes_ignoring_case(scheme.as_bytes()),
                    "{b:?}"
                );
            }
        }
    }

    #[test]
    fn remove_tab_and_newline_removes_exactly_those() {
        for (input, want) in [
            ("http://a\tb/\nc\r", "http://ab/c"),
            ("\t\t", ""),
            ("a\x0b\x0c\x01b", "a\x0b\x0c\x01b"), // other controls stay
            ("ü\tß\n", "üß"),
            (
                "no controls at all, longer than a word",
                "no controls at all, longer than a word",
            ),
        ] {
            let got = remove_tab_and_newline(input);
            assert_eq!(got, want, "{input:?}");
            assert_eq!(matches!(got, Cow::Borrowed(_)), input == want, "{input:?}");
        }
    }

    #[test]
    fn scheme_kinds_in_any_case() {
        for (s, k) in [
            (&b"http"[..], SchemeKind::Http),
            (b"HTTPS", SchemeKind::Https),
            (b"Ws", SchemeKind::Ws),
            (b"wsS", SchemeKind::Wss),
            (b"fTp", SchemeKind::Ftp),
            (b"FILE", SchemeKind::File),
            (b"htt", SchemeKind::NotSpecial),
            (b"httpss", SchemeKind::NotSpecial),
            (b"h.tp", SchemeKind::NotSpecial),
        ] {
            assert_eq!(SchemeKind::from_bytes_ignoring_case(s), k, "{s:?}");
            let lower = s.to_ascii_lowercase();
            assert_eq!(SchemeKind::from_bytes(&lower), k, "{s:?}");
        }
        assert_eq!(SchemeKind::from_bytes(b"HTTP"), SchemeKind::NotSpecial);
    }

    #[test]
    fn scheme_len_needs_an_alpha_then_scheme_bytes_then_a_colon() {
        assert_eq!(scheme_len(b"a+b-c.d9:x"), Some(8));
        assert_eq!(scheme_len(b"9a:"), None);
        assert_eq!(scheme_len(b"a b:"), None);
        assert_eq!(scheme_len(b"abc"), None);
    }

    #[test]
    fn trimming_and_ports() {
        assert_eq!(trim_c0_or_space(b" \x01a b\x1f "), (2, 5));
        assert_eq!(trim_c0_or_space(b"   "), (3, 3));
        assert_eq!(scan_port(b":8080/", 1), (5, 8080));
        assert_eq!(scan_port(b"99999999", 0), (8, 65536));
        assert_eq!(host_colon(b"[::1]:80"), Some(5));
        assert_eq!(authority_end(b"//a\\b", 2, true), 3);
        assert_eq!(authority_end(b"//a\\b", 2, false), 5);
    }
}
