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
//! Accepted shapes, with nothing to percent-encode (upper case in the scheme or the host
//! is accepted too: the serialization is then the input with those two lower-cased,
//! [`LOWER`]):
//!
//! * `special://host[:port]/path[?query][#fragment]` for http, https, ws, wss, ftp: a
//!   domain that does not end in a number or an IPv4 address as it is serialized
//!   (`192.0.2.1`), a port that is not the default and has no
//!   leading zero, no dot segments, no `%2e`, no backslash;
//! * `file:///path…` and `file://host/path…` (host not `localhost`, no `|` in the path);
//! * `scheme:opaque-path[?query][#fragment]` for other schemes, without spaces;
//! * `scheme://host[:port][/path][?query][#fragment]` for other schemes: an opaque host of
//!   plain bytes (its case kept), a port that has no leading zero, the path and what
//!   follows as for special URLs (an empty path stays empty).
//!
//! A special URL with an empty path (`http://example.com`) is accepted too: the canonical
//! form adds `/`, so the caller must insert it ([`Canonical::slash_at`]).
//!
//! A special URL whose scheme and authority are proven but whose path, query or fragment
//! needs work (percent-encoding, dot segments, a backslash, spaces, …), or whose port is
//! written otherwise than it is serialized (`:80` in `http:`, `:080`, `:`), keeps what was
//! proven: the answer is then a prefix ([`Canonical::rest`]), which the caller writes as
//! proven (lower-cased, the port rewritten) before the state machine finishes the URL from
//! its path start state (`parser::finish_rest`). The scheme and the host are not read
//! twice.

use crate::components::{Components, HostKind, SchemeKind};
use crate::host::is_canonical_ipv4;
use crate::output::Output;
use crate::scan::{self, Task, Words};
use crate::syntax::{is_scheme_byte, last_label_is_not_numeric};

/// A canonical URL: its components, in the coordinates of the serialization, which is the
/// input itself with, when `slash_at` is set, a `/` inserted at that input offset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Canonical {
    pub(crate) components: Components,
    pub(crate) slash_at: Option<u32>,
    /// [`LOWER`], [`PREFIX`], [`PORT_REWRITE`]: zero when the input is its own
    /// serialization (but for `slash_at`). One byte, so that the common answer costs no
    /// more to build and to test than a whole canonical input's.
    flags: u8,
}

/// [`Canonical`]'s flag: the scheme or the host has ASCII upper case, which the
/// serialization lower-cases (the input is then not the serialization).
const LOWER: u8 = 1;
/// [`Canonical`]'s flag: only the scheme and the authority are proven canonical, up to
/// `components.path_start` ([`Canonical::rest`]).
const PREFIX: u8 = 2;
/// [`Canonical`]'s flag, with [`PREFIX`]: the input's port is not its serialization (the
/// scheme's default port, leading zeros, or `:` alone), so the prefix is written up to the
/// host, then the port of `components` (if any) in decimal.
const PORT_REWRITE: u8 = 4;

impl Canonical {
    /// The length of the serialization (of a whole canonical input).
    #[inline]
    pub(crate) fn len(&self, input: &str) -> usize {
        input.len() + self.slash_at.is_some() as usize
    }

    /// Whether the input is the serialization itself (nothing to insert or lower-case,
    /// nothing left to the state machine).
    #[inline]
    pub(crate) fn is_input(&self) -> bool {
        self.slash_at.is_none() && self.flags == 0
    }

    /// Set when only the scheme and the authority are proven canonical (`input[..rest]`,
    /// lower-cased as for a whole input): the path, query or fragment needs work, and the
    /// state machine finishes the URL from its path start state at `rest`. `components`
    /// then holds the scheme's and the authority's offsets only.
    #[inline]
    pub(crate) fn rest(&self) -> Option<usize> {
        (self.flags & PREFIX != 0).then_some(self.components.path_start as usize)
    }

    /// Appends the serialization of the proven prefix `input[..rest]` to `out`: the
    /// scheme and the host lower-cased, the port rewritten when the flags say so, the rest
    /// as it is.
    #[inline]
    pub(crate) fn write_prefix<O: Output + ?Sized>(&self, input: &str, rest: usize, out: &mut O) {
        let c = &self.components;
        let host_end = c.host_end as usize;
        let port_rewrite = self.flags & PORT_REWRITE != 0;
        let copied = if port_rewrite { host_end } else { rest };
        if self.flags & LOWER == 0 {
            out.push_str(&input[..copied]);
        } else {
            let (scheme_end, host_start) = (c.scheme_end as usize, c.host_start as usize);
            let start = out.len();
            out.push_str(&input[..scheme_end]);
            out.make_ascii_lowercase_from(start);
            out.push_str(&input[scheme_end..host_start]);
            let host = out.len();
            out.push_str(&input[host_start..host_end]);
            out.make_ascii_lowercase_from(host);
            out.push_str(&input[host_end..copied]);
        }
        if port_rewrite && let Some(port) = c.port {
            out.push(':');
            crate::percent::push_decimal(out, port.into());
        }
    }

    /// Appends the serialization of a whole canonical input (no [`Canonical::rest`]) to
    /// `out`.
    #[inline]
    pub(crate) fn write<O: Output + ?Sized>(&self, input: &str, out: &mut O) {
        debug_assert_eq!(self.flags & PREFIX, 0);
        if self.flags & LOWER != 0 {
            // Scheme and host lower-cased; they come before the path, where `/` may go.
            let c = &self.components;
            let (scheme_end, host_start) = (c.scheme_end as usize, c.host_start as usize);
            let host_end = c.host_end as usize;
            let start = out.len();
            out.push_str(&input[..scheme_end]);
            out.make_ascii_lowercase_from(start);
            out.push_str(&input[scheme_end..host_start]);
            let host = out.len();
            out.push_str(&input[host_start..host_end]);
            out.make_ascii_lowercase_from(host);
            let tail = &input[host_end..];
            match self.slash_at {
                None => out.push_str(tail),
                Some(at) => {
                    let (head, rest) = tail.split_at(at as usize - host_end);
                    out.push_str(head);
                    out.push('/');
                    out.push_str(rest);
                }
            }
            return;
        }
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

/// The classes of the input, one 64-byte word at a time, classified as the walk reaches
/// them (most URLs are one word: classified once, then walked with bit operations).
struct Cursor<'a, K, const LONG: bool> {
    b: &'a [u8],
    k: K,
    /// Where the cached word starts: its bit `j` is byte `base + j`.
    base: usize,
    special: u64,
    upper: u64,
}

impl<'a, K: Words, const LONG: bool> Cursor<'a, K, LONG> {
    /// The cursor of `b` (not empty), with its first word classified.
    #[inline(always)]
    fn new(b: &'a [u8], k: K) -> Self {
        let (special, upper) = k.word(b, 0);
        Cursor {
            b,
            k,
            base: 0,
            special,
            upper,
        }
    }

    /// The offset of `at` (less than the input length) in the cached word, after
    /// classifying the word that starts at `at` when `at` is outside the cached one.
    #[inline(always)]
    fn offset(&mut self, at: usize) -> usize {
        if !LONG {
            // One word holds the whole input.
            return at;
        }
        let off = at.wrapping_sub(self.base);
        if off < 64 {
            return off;
        }
        (self.special, self.upper) = self.k.word(self.b, at);
        self.base = at;
        0
    }

    /// The position of the first special byte at or after `from`, or the input length.
    #[inline(always)]
    fn next_special(&mut self, from: usize) -> usize {
        let n = self.b.len();
        let mut at = from;
        while at < n {
            let off = self.offset(at);
            let bits = self.special >> off;
            if bits != 0 {
                return at + bits.trailing_zeros() as usize;
            }
            at = self.base + 64;
        }
        n
    }

    /// Whether any byte in `start..end` is ASCII upper case.
    #[inline(always)]
    fn any_upper(&mut self, start: usize, end: usize) -> bool {
        let mut at = start;
        while at < end {
            let off = self.offset(at);
            let len = (end - at).min(64 - off);
            let range = if len == 64 { !0 } else { (1u64 << len) - 1 };
            if (self.upper >> off) & range != 0 {
                return true;
            }
            at += len;
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
#[inline]
pub(crate) fn parse_canonical(input: &str) -> Option<Canonical> {
    scan::run(Canonicalize(input))
}

/// [`parse_canonical`] for callers off the hot path (the relative references' `//` case,
/// the test hooks): one copy out of line, where each caller of [`parse_canonical`] gets
/// the walk inlined for every kernel.
#[inline(never)]
pub(crate) fn parse_canonical_cold(input: &str) -> Option<Canonical> {
    parse_canonical(input)
}

/// [`parse_canonical`] as a [`Task`] of the classifier: the walk runs with the kernel
/// inlined into it.
struct Canonicalize<'a>(&'a str);

impl Task for Canonicalize<'_> {
    type Out = Option<Canonical>;
    #[inline(always)]
    fn run<K: Words>(self, k: K) -> Option<Canonical> {
        parse_canonical_with(self.0, k)
    }
}

/// [`parse_canonical`] with the kernel `k`.
#[inline(always)]
fn parse_canonical_with<K: Words>(input: &str, k: K) -> Option<Canonical> {
    let n = input.len();
    // The serialization (maybe one `/` longer) must fit the components' u32 offsets.
    if n == 0 || n >= u32::MAX as usize {
        return None;
    }
    // Most URLs are one word long: then every position is an offset in it.
    if n <= 64 {
        walk(input, &mut Cursor::<K, false>::new(input.as_bytes(), k))
    } else {
        walk(input, &mut Cursor::<K, true>::new(input.as_bytes(), k))
    }
}

/// [`parse_canonical`] of a non-empty input, with its cursor.
#[inline(always)]
fn walk<K: Words, const LONG: bool>(input: &str, m: &mut Cursor<'_, K, LONG>) -> Option<Canonical> {
    let b = input.as_bytes();
    let n = b.len();

    // Scheme: the first special byte is the `:` that ends it.
    let colon = m.next_special(0);
    if colon == 0 || colon >= n || b[colon] != b':' || !b[0].is_ascii_alphabetic() {
        return None;
    }
    // Upper case in the scheme or the host is lower-cased on output (`LOWER`).
    let scheme_upper = m.any_upper(0, colon);
    let kind = if scheme_upper {
        SchemeKind::from_bytes_ignoring_case(&b[..colon])
    } else {
        SchemeKind::from_bytes(&b[..colon])
    };
    if kind == SchemeKind::NotSpecial && !b[1..colon].iter().all(|&c| is_scheme_byte(c)) {
        return None;
    }
    let mut c = Components::empty();
    c.scheme_end = colon as u32;
    c.scheme_kind = kind;

    if kind == SchemeKind::NotSpecial {
        return opaque_path(b, m, c, scheme_upper);
    }
    let (t, authority_flags) = authority(b, m, &mut c, colon)?;
    let flags = scheme_upper as u8 | authority_flags;
    if flags & PORT_REWRITE != 0 {
        return prefix_only(b, c, t, flags);
    }
    let Some((pos, slash_at)) = path(b, m, &mut c, t) else {
        return prefix_only(b, c, t, flags);
    };
    let Some(pos) = query_and_fragment(b, m, &mut c, pos, true) else {
        return prefix_only(b, c, t, flags);
    };
    debug_assert_eq!(pos, n);
    if let Some(at) = slash_at {
        c.path_start = at;
        c.query_start = c.query_start.map(|q| q + 1);
        c.fragment_start = c.fragment_start.map(|f| f + 1);
    }
    Some(Canonical {
        components: c,
        slash_at,
        flags,
    })
}

/// A URL whose scheme and authority (`b[..t]`) are canonical but whose path, query or
/// fragment is not proven so: keep what was proven, when the authority really ends at `t`
/// (the end of the input, or `/`, `\`, `?`, `#`; the caller of a non-special URL has
/// ruled out `\`), and leave the rest to the state machine's path start state. Else
/// `None`: the state machine parses it all.
#[inline(never)]
fn prefix_only(b: &[u8], mut c: Components, t: usize, flags: u8) -> Option<Canonical> {
    if !b
        .get(t)
        .is_none_or(|&e| matches!(e, b'/' | b'\\' | b'?' | b'#'))
    {
        return None;
    }
    // The path and what follows are the state machine's to record.
    c.path_start = t as u32;
    c.query_start = None;
    c.fragment_start = None;
    Some(Canonical {
        components: c,
        slash_at: None,
        flags: flags | PREFIX,
    })
}

/// The authority of a special URL, after the scheme's `:` at `colon`: exactly `//`, a host
/// of plain bytes up to the first special byte, and a port of at most five digits.
/// Returns where the path starts, and [`LOWER`] when the host has upper case (an ASCII
/// domain is only lower-cased) and [`PORT_REWRITE`] when the port is written otherwise
/// than it is serialized (the default port, leading zeros, an empty port).
#[inline(always)]
fn authority<K: Words, const LONG: bool>(
    b: &[u8],
    m: &mut Cursor<'_, K, LONG>,
    c: &mut Components,
    colon: usize,
) -> Option<(usize, u8)> {
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
    let mut flags = 0;
    if kind == SchemeKind::File && b[a] == b'/' {
        c.host_end = a as u32;
        c.host_kind = HostKind::Empty;
        t = a;
    } else {
        let p = m.next_special(a);
        let host = &b[a..p];
        if host.is_empty() {
            return None;
        }
        flags = m.any_upper(a, p) as u8;
        // A domain that ends in a number is an IPv4 address: only one written as it is
        // serialized is taken here.
        let host_kind = if last_label_is_not_numeric(host) {
            HostKind::Domain
        } else if is_canonical_ipv4(host) {
            HostKind::Ipv4
        } else {
            return None;
        };
        if kind == SchemeKind::File && host.eq_ignore_ascii_case(b"localhost") {
            return None;
        }
        c.host_end = p as u32;
        c.host_kind = host_kind;
        t = p;
        if p < n && b[p] == b':' {
            if kind == SchemeKind::File {
                return None;
            }
            let (r, port_flags) = port(b, m, c, p)?;
            flags |= port_flags;
            t = r;
        }
    }
    Some((t, flags))
}

/// The port after the `:` at `p`: digits up to the next special byte, at most five, at
/// most 65535, recorded in `c` unless it is the scheme's default. Returns where it ends,
/// and [`PORT_REWRITE`] when it is not written as it is serialized (a leading zero, the
/// default port, no digits). `None`: not a port the fast path takes.
#[inline(always)]
fn port<K: Words, const LONG: bool>(
    b: &[u8],
    m: &mut Cursor<'_, K, LONG>,
    c: &mut Components,
    p: usize,
) -> Option<(usize, u8)> {
    let r = m.next_special(p + 1);
    let digits = &b[p + 1..r];
    if digits.len() > 5 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let port = digits
        .iter()
        .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
    if port > u32::from(u16::MAX) {
        return None;
    }
    let mut flags = 0;
    if digits.is_empty() || Some(port as u16) == c.scheme_kind.default_port() {
        flags |= PORT_REWRITE;
    } else {
        if digits[0] == b'0' && digits.len() > 1 {
            flags |= PORT_REWRITE;
        }
        c.port = Some(port as u16);
    }
    Some((r, flags))
}

/// The path of a special URL from `t`: no dot segments, no `%2e`, nothing to encode.
/// Returns where it ends and, for an empty path, where the `/` must be inserted.
#[inline(always)]
fn path<K: Words, const LONG: bool>(
    b: &[u8],
    m: &mut Cursor<'_, K, LONG>,
    c: &mut Components,
    t: usize,
) -> Option<(usize, Option<u32>)> {
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
                if at_slash
                    && b.get(pos + 1) == Some(&b'.')
                    && starts_with_dot_segment(&b[pos + 1..])
                {
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

/// `scheme:opaque-path[?query][#fragment]` (a non-special scheme not followed by `/`), or
/// [`opaque_host`]'s shape.
fn opaque_path<K: Words, const LONG: bool>(
    b: &[u8],
    m: &mut Cursor<'_, K, LONG>,
    mut c: Components,
    lower: bool,
) -> Option<Canonical> {
    let start = c.scheme_end as usize + 1;
    if b.get(start) == Some(&b'/') {
        return opaque_host(b, m, c, lower);
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
        flags: lower as u8,
    })
}

/// `scheme://host[:port][/path][?query][#fragment]` for a non-special scheme: a host of
/// plain bytes (an opaque host, kept in its case), a port of at most five digits, the
/// path as [`path`] takes it (an empty path stays empty). As for special URLs, a proven
/// authority whose port or rest needs work is handed on as a prefix ([`prefix_only`]).
/// Else (`scheme:/path`, an empty host, userinfo, an IPv6 address, upper case in the
/// scheme, which [`LOWER`] would lower-case in the host too, …) `None`.
#[inline(never)]
fn opaque_host<K: Words, const LONG: bool>(
    b: &[u8],
    m: &mut Cursor<'_, K, LONG>,
    mut c: Components,
    lower: bool,
) -> Option<Canonical> {
    let n = b.len();
    let a = c.scheme_end as usize + 3;
    if lower || n <= a || b.get(a - 2..a) != Some(b"//") {
        return None;
    }
    let p = m.next_special(a);
    if p == a {
        return None;
    }
    c.username_end = a as u32;
    c.host_start = a as u32;
    c.host_end = p as u32;
    c.host_kind = HostKind::Opaque;
    let mut flags = 0;
    let mut t = p;
    if b.get(p) == Some(&b':') {
        let (r, port_flags) = port(b, m, &mut c, p)?;
        flags |= port_flags;
        t = r;
    }
    // What ends a non-special authority (not `\`, which the host would hold).
    if !b.get(t).is_none_or(|&e| matches!(e, b'/' | b'?' | b'#')) {
        return None;
    }
    if flags & PORT_REWRITE != 0 {
        return prefix_only(b, c, t, flags);
    }
    let pos = if b.get(t) == Some(&b'/') {
        match path(b, m, &mut c, t) {
            Some((pos, _)) => pos,
            None => return prefix_only(b, c, t, flags),
        }
    } else {
        c.path_start = t as u32;
        t
    };
    if query_and_fragment(b, m, &mut c, pos, false).is_none() {
        return prefix_only(b, c, t, flags);
    }
    Some(Canonical {
        components: c,
        slash_at: None,
        flags,
    })
}

/// The query (from a `?` at `pos`) and the fragment (from a `#`), when nothing in them
/// needs percent-encoding. Returns the end of the input.
#[inline(always)]
fn query_and_fragment<K: Words, const LONG: bool>(
    b: &[u8],
    m: &mut Cursor<'_, K, LONG>,
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

#[cfg(test)]
mod tests {
    use crate::parser::testing::{fast_outcome, parse_fast, parse_slow};

    /// Inputs whose scheme and authority are proven while the rest needs the state
    /// machine (or whose port is rewritten): the state machine's serialization and
    /// components, each time; and inputs whose authority is not proven at all.
    #[test]
    fn proven_prefixes_keep_the_state_machines_answer() {
        for input in [
            "http://example.com/a b",
            "https://Example.COM/a/../b?x y#z",
            "HTTP://example.com\\a\\b",
            "http://example.com?q=\"x\"",
            "http://example.com#a b",
            "http://example.com/%2e/x",
            "http://example.com/./x/",
            "http://example.com/\u{e9}t\u{e9}?\u{e9}#\u{e9}",
            "http://example.com/a\tb\nc/ ",
            "https://example.com/x\r\n ",
            "file:///C|/x/../y",
            "file://host/a b",
            "ws://192.0.2.1:8080/a'b?c'd",
            "http://example.com:80/x",
            "https://example.com:443",
            "http://example.com:0080/x?y",
            "http://example.com:/x",
            "http://Example.com:08/x y",
            "ftp://example.com:21/",
            "wss://EXAMPLE.com:00443/\u{1f600}",
        ] {
            assert_eq!(fast_outcome(input), Some(false), "{input:?}");
            let fast = parse_fast(input).unwrap_or_else(|| panic!("{input:?} not taken"));
            assert_eq!(Ok(fast), parse_slow(input), "{input:?}");
        }
        // Not proven: the authority does not end where the plain host does, or the port
        // is not one.
        for input in [
            "http://example.com /x",
            "http://exa%41mple.com/",
            "http://user@example.com/",
            "http://example.com:123456/",
            "http://example.com:99999/",
            "http://example.com:8x/",
            "file://user@host/x",
            "file://localhost/x",
            "file://host:8/x",
            "http://example.com|x/",
        ] {
            assert_eq!(fast_outcome(input), None, "{input:?}");
        }
    }

    /// Non-special URLs with an opaque host: whole when canonical, as a prefix when the
    /// port or what follows the authority needs work, not at all when the host is not
    /// plain or the scheme has upper case (the host keeps its case).
    #[test]
    fn opaque_hosts_of_non_special_urls() {
        for (input, whole) in [
            ("ssh://git@gitlab.example:2222/group/project.git", None),
            ("sftp://backup.example/var/backups/", Some(true)),
            ("git://github.example/user/repo.git", Some(true)),
            ("irc://irc.example.net:6697/#channel", Some(true)),
            ("x-custom://HOST.Example/A/b", Some(true)),
            ("x-custom://HOST.Example/A/./b/../C", Some(false)),
            ("s3://bucket.example/key/with spaces.txt", Some(false)),
            ("foo://host/path\\with\\backslash", Some(false)),
            ("foo://host", Some(true)),
            ("foo://host?q#f", Some(true)),
            ("foo://host#f", Some(true)),
            ("foo://host:08/x", Some(false)),
            ("foo://host:/x", Some(false)),
            ("foo://host:80", Some(true)),
            ("foo://host:0", Some(true)),
            ("foo://1.2.3.4:65535/", Some(true)),
            ("foo://host/?q='x'", Some(true)),
            ("foo://host/?q=\"x\"", Some(false)),
            ("Foo://host/", None),
            ("foo://host\\x/", None),
            ("foo://", None),
            ("foo:///x", None),
            ("foo:/x", None),
            ("foo://h:65536/", None),
            ("foo://[::1]/", None),
            ("foo://ho st/", None),
            ("foo://host%41/", None),
        ] {
            assert_eq!(fast_outcome(input), whole, "{input:?}");
            if whole.is_some() {
                let fast = parse_fast(input).unwrap_or_else(|| panic!("{input:?} not taken"));
                assert_eq!(Ok(fast), parse_slow(input), "{input:?}");
            }
        }
    }

    /// Canonical IPv4 hosts are taken as they are, with the state machine's serialization
    /// and components; other forms of IPv4 address are left to it.
    #[test]
    fn ipv4_hosts_as_serialized() {
        for input in [
            "http://192.0.2.1/x",
            "https://192.0.2.1:8080/x?y#z",
            "ftp://0.0.0.0/",
            "file://10.0.0.1/x",
            "WS://255.255.255.255",
        ] {
            let fast = parse_fast(input).unwrap_or_else(|| panic!("{input:?} not taken"));
            assert_eq!(Ok(fast), parse_slow(input), "{input:?}");
        }
        for input in [
            "http://192.0.2.01/",
            "http://192.0.2.1./",
            "http://3221225985/",
            "http://0xc0.0.2.1/",
            "http://256.0.0.1/",
        ] {
            assert!(parse_fast(input).is_none(), "{input:?}");
        }
    }
}
