//! Stage 2 of the fast path: when the masks of `scan` show that a URL is already in
//! canonical form, compute its [`Components`] straight from the delimiter positions, with
//! no copy and no allocation.
//!
//! "Canonical" is decided by what can be proven cheaply; anything else returns `None` and
//! the state machine (`state.rs`) takes over.
//! (The `can_parse` check, which proves validity without the canonical form, is in
//! `proof.rs`). The fast path is an optimisation, never a
//! second opinion: when it answers, the answer equals the state machine's, byte for byte
//! and offset for offset (a test checks this on every WPT input, every corpus line and
//! random inputs).
//!
//! Accepted shapes, all lower-case in scheme and host, with nothing to percent-encode:
//!
//! * `special://host[:port]/path[?query][#fragment]` for http, https, ws, wss, ftp: a
//!   domain that does not end in a number, a port that is not the default and has no
//!   leading zero, no dot segments, no `%2e`, no backslash;
//! * `file:///path…` and `file://host/path…` (host not `localhost`, no `|` in the path);
//! * `scheme:opaque-path[?query][#fragment]` for other schemes, without spaces.
//!
//! A special URL with an empty path (`http://example.com`) is accepted too: the canonical
//! form adds `/`, so the caller must insert it ([`Canonical::slash_at`]).

use crate::components::{Components, HostKind, SchemeKind};
use crate::output::Output;
use crate::scan;
use crate::syntax::{is_scheme_byte, last_label_is_not_numeric};

/// Inputs longer than this go to the state machine (the masks live on the stack).
pub(crate) const MAX_FAST_LEN: usize = 512;
const WORDS: usize = MAX_FAST_LEN / 64;

/// A canonical URL: its components, in the coordinates of the serialization, which is the
/// input itself with, when `slash_at` is set, a `/` inserted at that input offset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Canonical {
    pub(crate) components: Components,
    pub(crate) slash_at: Option<u32>,
}

impl Canonical {
    /// The length of the serialization.
    #[inline]
    pub(crate) fn len(&self, input: &str) -> usize {
        input.len() + self.slash_at.is_some() as usize
    }

    /// Appends the serialization to `out`.
    #[inline]
    pub(crate) fn write<O: Output + ?Sized>(&self, input: &str, out: &mut O) {
        match self.slash_at {
            None => out.push_str(input),
            Some(at) => {
                let (head, tail) = input.split_at(at as usize);
                out.push_str(head);
                out.push('/');
                out.push_str(tail);
            }
        }
    }
}

/// The masks of one input.
struct Masks {
    special: [u64; WORDS],
    upper: [u64; WORDS],
    len: usize,
}

impl Masks {
    /// The position of the first special byte at or after `from`, or the input length.
    #[inline(always)]
    fn next_special(&self, from: usize) -> usize {
        let mut w = from / 64;
        if from >= self.len {
            return self.len;
        }
        let mut bits = self.special[w] & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                return w * 64 + bits.trailing_zeros() as usize;
            }
            w += 1;
            if w * 64 >= self.len {
                return self.len;
            }
            bits = self.special[w];
        }
    }

    /// Whether any byte in `start..end` is ASCII upper case.
    #[inline(always)]
    fn any_upper(&self, start: usize, end: usize) -> bool {
        // The common case: the range lies in the first 64 bytes.
        if end <= 64 {
            let range = if end - start == 64 {
                !0
            } else {
                ((1u64 << (end - start)) - 1) << start
            };
            return self.upper[0] & range != 0;
        }
        let mut pos = start;
        while pos < end {
            let w = pos / 64;
            let lo = pos % 64;
            let hi = (end - w * 64).min(64);
            let range = if hi - lo == 64 {
                !0
            } else {
                ((1u64 << (hi - lo)) - 1) << lo
            };
            if self.upper[w] & range != 0 {
                return true;
            }
            pos = (w + 1) * 64;
        }
        false
    }
}

/// Whether `seg` (the bytes after a `/`) starts with a single- or double-dot segment made
/// of literal dots: `.` or `..` followed by the end, `/`, `?` or `#`. (`%2e` forms make the
/// caller fall back before this is asked.)
#[inline]
fn starts_with_dot_segment(seg: &[u8]) -> bool {
    let ends = |i: usize| seg.get(i).is_none_or(|c| matches!(c, b'/' | b'?' | b'#'));
    seg.first() == Some(&b'.') && (ends(1) || (seg.get(1) == Some(&b'.') && ends(2)))
}

/// Parses `input` if it is canonical; `None` means "not proven canonical": use the state
/// machine.
pub(crate) fn parse_canonical(input: &str) -> Option<Canonical> {
    let b = input.as_bytes();
    let n = b.len();
    if n == 0 || n > MAX_FAST_LEN {
        return None;
    }
    // Built in place (not returned from a constructor, which costs a copy of the arrays).
    let mut m = Masks {
        special: [0; WORDS],
        upper: [0; WORDS],
        len: n,
    };
    scan::classify(b, &mut m.special, &mut m.upper);
    let m = &m;

    // Scheme: lower case, and the first special byte is the `:` that ends it.
    let colon = m.next_special(0);
    if colon == 0 || colon >= n || b[colon] != b':' || !b[0].is_ascii_lowercase() {
        return None;
    }
    if m.any_upper(0, colon) {
        return None;
    }
    let kind = SchemeKind::from_bytes(&b[..colon]);
    if kind == SchemeKind::NotSpecial && !b[1..colon].iter().all(|&c| is_scheme_byte(c)) {
        return None;
    }
    let mut c = Components::empty();
    c.scheme_end = colon as u32;
    c.scheme_kind = kind;

    if kind == SchemeKind::NotSpecial {
        return opaque_path(b, m, c);
    }
    let t = authority(b, m, &mut c, colon)?;
    let (pos, slash_at) = path(b, m, &mut c, t)?;
    let pos = query_and_fragment(b, m, &mut c, pos, true)?;
    debug_assert_eq!(pos, n);
    if let Some(at) = slash_at {
        c.path_start = at;
        c.query_start = c.query_start.map(|q| q + 1);
        c.fragment_start = c.fragment_start.map(|f| f + 1);
    }
    Some(Canonical {
        components: c,
        slash_at,
    })
}

/// The authority of a special URL, after the scheme's `:` at `colon`: exactly `//`, a host
/// of plain bytes up to the first special byte, and a canonical port. Returns where the
/// path starts.
#[inline(always)]
fn authority(b: &[u8], m: &Masks, c: &mut Components, colon: usize) -> Option<usize> {
    let n = b.len();
    let kind = c.scheme_kind;
    // Authority: exactly `//`, then the host (all plain bytes), up to the first special byte.
    let a = colon + 3;
    if n <= a || &b[colon + 1..a] != b"//" {
        return None;
    }
    c.username_end = a as u32;
    c.host_start = a as u32;
    let mut t; // where the path starts
    if kind == SchemeKind::File && b[a] == b'/' {
        c.host_end = a as u32;
        c.host_kind = HostKind::Empty;
        t = a;
    } else {
        let p = m.next_special(a);
        let host = &b[a..p];
        if host.is_empty() || m.any_upper(a, p) {
            return None;
        }
        // A domain that ends in a number is an IPv4 address: leave those to the parser.
        if !last_label_is_not_numeric(host) {
            return None;
        }
        if kind == SchemeKind::File && host == b"localhost" {
            return None;
        }
        c.host_end = p as u32;
        c.host_kind = HostKind::Domain;
        t = p;
        if p < n && b[p] == b':' {
            if kind == SchemeKind::File {
                return None;
            }
            // Digits up to the next special byte, no leading zero, not the default.
            let r = m.next_special(p + 1);
            let digits = &b[p + 1..r];
            if digits.is_empty()
                || digits.len() > 5
                || !digits.iter().all(u8::is_ascii_digit)
                || (digits[0] == b'0' && digits.len() > 1)
            {
                return None;
            }
            let port = digits
                .iter()
                .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
            if port > u32::from(u16::MAX) || Some(port as u16) == kind.default_port() {
                return None;
            }
            c.port = Some(port as u16);
            t = r;
        }
    }
    Some(t)
}

/// The path of a special URL from `t`: no dot segments, no `%2e`, nothing to encode.
/// Returns where it ends and, for an empty path, where the `/` must be inserted.
#[inline(always)]
fn path(b: &[u8], m: &Masks, c: &mut Components, t: usize) -> Option<(usize, Option<u32>)> {
    let n = b.len();
    let kind = c.scheme_kind;
    c.path_start = t as u32;
    let mut slash_at = None;
    let mut pos = t;
    match b.get(t) {
        None | Some(b'?' | b'#') => slash_at = Some(t as u32),
        Some(b'/') => {
            let mut at_slash = true;
            loop {
                if at_slash && starts_with_dot_segment(&b[pos + 1..]) {
                    return None;
                }
                pos = m.next_special(pos + 1);
                if pos >= n {
                    break;
                }
                at_slash = false;
                match b[pos] {
                    b'/' => at_slash = true,
                    b'?' | b'#' => break,
                    b'%' => {
                        if b.get(pos + 1) == Some(&b'2')
                            && b.get(pos + 2).is_some_and(|&e| e | 0x20 == b'e')
                        {
                            return None;
                        }
                    }
                    b':' | b'@' | b'[' | b']' | b'\'' => {}
                    b'|' if kind != SchemeKind::File => {}
                    _ => return None,
                }
            }
        }
        Some(_) => return None,
    }
    Some((pos, slash_at))
}

/// `scheme:opaque-path[?query][#fragment]` (a non-special scheme not followed by `/`).
fn opaque_path(b: &[u8], m: &Masks, mut c: Components) -> Option<Canonical> {
    let start = c.scheme_end as usize + 1;
    if b.get(start) == Some(&b'/') {
        return None;
    }
    c.set_host_at(start as u32, HostKind::None);
    c.path_start = start as u32;
    c.opaque_path = true;
    let mut pos = start;
    loop {
        pos = m.next_special(pos);
        if pos >= b.len() || matches!(b[pos], b'?' | b'#') {
            break;
        }
        // The C0 control set leaves printable ASCII alone; a space may need `%20`.
        if !(0x21..=0x7e).contains(&b[pos]) {
            return None;
        }
        pos += 1;
    }
    query_and_fragment(b, m, &mut c, pos, false)?;
    Some(Canonical {
        components: c,
        slash_at: None,
    })
}

/// The query (from a `?` at `pos`) and the fragment (from a `#`), when nothing in them
/// needs percent-encoding. Returns the end of the input.
fn query_and_fragment(
    b: &[u8],
    m: &Masks,
    c: &mut Components,
    mut pos: usize,
    special: bool,
) -> Option<usize> {
    let n = b.len();
    if pos < n && b[pos] == b'?' {
        c.query_start = Some(pos as u32);
        loop {
            pos = m.next_special(pos + 1);
            if pos >= n || b[pos] == b'#' {
                break;
            }
            match b[pos] {
                // The (special-)query percent-encode set: C0, space, `"`, `#`, `<`, `>`
                // (and `'` in special URLs).
                b'\'' if special => return None,
                b'/' | b':' | b'@' | b'?' | b'[' | b']' | b'|' | b'\\' | b'%' | b'^' | b'`'
                | b'{' | b'}' | b'\'' => {}
                _ => return None,
            }
        }
    }
    if pos < n && b[pos] == b'#' {
        c.fragment_start = Some(pos as u32);
        loop {
            pos = m.next_special(pos + 1);
            if pos >= n {
                break;
            }
            match b[pos] {
                // The fragment percent-encode set: C0, space, `"`, `<`, `>`, `` ` ``.
                b'/' | b':' | b'@' | b'?' | b'#' | b'[' | b']' | b'|' | b'\\' | b'%' | b'^'
                | b'{' | b'}' | b'\'' => {}
                _ => return None,
            }
        }
    }
    (pos >= n).then_some(n)
}
