//! Stage 2 of the fast path: when the masks of `scan` show that a URL is already in
//! canonical form, compute its [`Components`] straight from the delimiter positions, with
//! no copy and no allocation.
//!
//! "Canonical" is decided by what can be proven cheaply; anything else returns `None` and
//! the state machine (`state.rs`) takes over. The fast path is an optimisation, never a
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

use super::state::ends_authority;
use crate::components::{Components, HostKind, SchemeKind};
use crate::scan;

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

    /// Writes the serialization into `out`.
    #[inline]
    pub(crate) fn write(&self, input: &str, out: &mut String) {
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
    let kind = match &b[..colon] {
        b"http" => SchemeKind::Http,
        b"https" => SchemeKind::Https,
        b"ws" => SchemeKind::Ws,
        b"wss" => SchemeKind::Wss,
        b"ftp" => SchemeKind::Ftp,
        b"file" => SchemeKind::File,
        scheme => {
            let valid = scheme
                .iter()
                .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
            if !valid {
                return None;
            }
            SchemeKind::NotSpecial
        }
    };
    let mut c = Components::empty();
    c.scheme_end = colon as u32;
    c.scheme_kind = kind;

    if kind == SchemeKind::NotSpecial {
        return opaque_path(b, m, c);
    }

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

    // Path.
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

/// `scheme:opaque-path[?query][#fragment]` (a non-special scheme not followed by `/`).
fn opaque_path(b: &[u8], m: &Masks, mut c: Components) -> Option<Canonical> {
    let start = c.scheme_end as usize + 1;
    if b.get(start) == Some(&b'/') {
        return None;
    }
    c.username_end = start as u32;
    c.host_start = start as u32;
    c.host_end = start as u32;
    c.path_start = start as u32;
    c.host_kind = HostKind::None;
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

/// Whether `input` is proven to parse, without parsing it: the check `can_parse` runs
/// before anything else. `false` means "not proven": ask the state machine.
///
/// Only the scheme and the authority can make a URL fail to parse: the path, query and
/// fragment states never return failure (§4.4), whatever they hold. So it is enough to see
/// a scheme, and for a special URL an authority of plain bytes (any case) whose host does
/// not end in a number and whose port is at most 65535. A URL with a scheme of its own
/// parses the same with or without a base, so the proof holds for any base.
pub(crate) fn proven_valid(input: &str) -> bool {
    // Percent-encoding can triple the input: past u32::MAX / 3 bytes the serialization may
    // exceed what `Components` can address (`input-too-long`): let the parser decide.
    if input.len() > u32::MAX as usize / 3 {
        return false;
    }
    let b = input.as_bytes();
    let Some(colon) = super::state::scheme_len(b) else {
        return false;
    };
    let rest = &b[colon + 1..];
    // Tab and newline are removed before parsing: one among the next two bytes could
    // turn `/`+tab+`/` into `//`. (Inside the authority they are not plain bytes.)
    if rest
        .iter()
        .take(2)
        .any(|&c| matches!(c, b'\t' | b'\n' | b'\r'))
    {
        return false;
    }
    let kind = special_scheme_ignoring_case(&b[..colon]);
    match kind {
        // An opaque path or a path: nothing can fail. `scheme://` has an opaque host,
        // which can (forbidden host code points): not proven.
        SchemeKind::NotSpecial => !rest.starts_with(b"//"),
        // `file:` without two slashes (`/` or `\`, any mix) is a path; `file:///` has an
        // empty host.
        SchemeKind::File => {
            let authority = match rest {
                [b'/' | b'\\', b'/' | b'\\', authority @ ..] => authority,
                _ => return true,
            };
            let (end, ok) = plain_domain_prefix(authority);
            (end == 0 || ok) && authority.get(end).is_none_or(|&c| ends_authority(c, true))
        }
        _ => {
            let Some(authority) = rest.strip_prefix(b"//") else {
                return false;
            };
            // The common case first, in one pass: a plain domain, then the end of the
            // authority or a port.
            let (end, ok) = plain_domain_prefix(authority);
            if ok {
                match authority.get(end) {
                    None => return true,
                    Some(b':') => return valid_port(&authority[end + 1..]),
                    Some(&c) if ends_authority(c, true) => return true,
                    _ => {}
                }
            }
            // Userinfo, IP addresses.
            valid_special_authority(authority)
        }
    }
}

/// Whether the authority at the start of `authority` (after `//`) of a special URL is
/// proven to parse: any userinfo (it is only percent-encoded), then a host — plain bytes
/// that make a domain, or an IPv4 address that parses, or an IPv6 address in brackets that
/// parses — and a port of at most 65535.
fn valid_special_authority(authority: &[u8]) -> bool {
    let end = authority
        .iter()
        .position(|&c| ends_authority(c, true))
        .unwrap_or(authority.len());
    let authority = &authority[..end];
    // The parser removes tabs and newlines first; and more slashes would be skipped.
    if authority.is_empty()
        || authority
            .iter()
            .any(|&c| matches!(c, b'\t' | b'\n' | b'\r'))
    {
        return false;
    }
    // The host starts after the last `@`; the userinfo before it cannot fail.
    let host_and_port = match authority.iter().rposition(|&c| c == b'@') {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    let (host_ok, port) = if let Some(v6) = host_and_port.strip_prefix(b"[") {
        let Some(close) = v6.iter().position(|&c| c == b']') else {
            return false;
        };
        let ok = std::str::from_utf8(&v6[..close])
            .is_ok_and(|text| crate::host::parse_ipv6(text).is_ok());
        (ok, &v6[close + 1..])
    } else {
        let colon = host_and_port
            .iter()
            .position(|&c| c == b':')
            .unwrap_or(host_and_port.len());
        (plain_host(&host_and_port[..colon]), &host_and_port[colon..])
    };
    host_ok
        && match port {
            [] => true,
            [b':', after @ ..] => valid_port(after),
            _ => false,
        }
}

/// Whether `after` (what follows the `:` of a port) is a port of at most 65535 (empty is
/// fine) followed by the end of the authority: the port state's success (§4.4).
#[inline]
fn valid_port(after: &[u8]) -> bool {
    let (digits_end, port) = super::state::scan_port(after, 0);
    port <= u32::from(u16::MAX)
        && after
            .get(digits_end)
            .is_none_or(|&c| ends_authority(c, true))
}

/// A non-empty host of plain bytes: a domain after lower-casing (none of them is a forbidden
/// domain code point), or, when it ends in a number, an IPv4 address that must parse.
fn plain_host(host: &[u8]) -> bool {
    let (end, domain) = plain_domain_prefix(host);
    if end != host.len() || end == 0 {
        return false;
    }
    if domain {
        return true;
    }
    // Plain bytes are ASCII.
    let Ok(text) = std::str::from_utf8(host) else {
        return false;
    };
    !crate::host::ends_in_a_number(text) || crate::host::parse_ipv4(text).is_ok()
}

/// The special scheme `scheme` names, in any case (`NotSpecial` for the others).
#[inline]
fn special_scheme_ignoring_case(scheme: &[u8]) -> SchemeKind {
    if scheme.len() > 5 {
        return SchemeKind::NotSpecial;
    }
    // Schemes are ASCII alphanumerics, `+`, `-`, `.`: OR-ing 0x20 lower-cases letters and
    // maps no other scheme byte onto a letter.
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

/// The run of plain bytes (letters of either case, digits, `- . _ ~ ! $ & ( ) * + , ; =`)
/// at the start of `authority`, and whether it is a non-empty host whose last label does
/// not start with a digit: a valid domain that is not an IPv4 address (an ASCII domain is
/// only lower-cased, and none of these bytes is a forbidden domain code point).
#[inline]
fn plain_domain_prefix(authority: &[u8]) -> (usize, bool) {
    let end = authority
        .iter()
        .position(|&c| scan::CLASS[c as usize] == 0)
        .unwrap_or(authority.len());
    (end, last_label_is_not_numeric(&authority[..end]))
}

/// Whether `host` has a last label (ignoring one trailing dot) that does not start with an
/// ASCII digit. Such a domain cannot end in a number (§3.5: a number is digits, or `0x`
/// and hex digits); one whose last label starts with a digit is left to the parser (no
/// real top-level domain does). Scans only the last label, from the end.
#[inline]
fn last_label_is_not_numeric(host: &[u8]) -> bool {
    let trimmed = host.strip_suffix(b".").unwrap_or(host);
    let last = trimmed
        .iter()
        .rposition(|&c| c == b'.')
        .map_or(0, |i| i + 1);
    trimmed.get(last).is_some_and(|c| !c.is_ascii_digit())
}
