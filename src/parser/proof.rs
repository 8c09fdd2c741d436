//! The check `can_parse` runs before anything else: whether an input is proven to parse,
//! without parsing it (and without writing anything).
//!
//! It reads the input with the same byte-level rules as the state machine
//! ([`crate::syntax`]: scheme, tab and newline, end of the authority, port digits) and the
//! host parsers' own IPv4 and IPv6 functions, so it is not a second copy of those rules;
//! what it adds is the reasoning in [`proven_valid`]'s documentation about which parts can
//! make a parse fail.

use std::ops::Range;

use crate::components::SchemeKind;
use crate::scan::{self, Task, Words};
use crate::syntax::{
    authority_end, ends_authority, has_tab_or_newline, last_label_is_not_numeric, scan_port,
    scheme_len,
};

/// Whether `input` is proven to parse, without parsing it: the check `can_parse` runs
/// before anything else. `false` means "not proven": ask the state machine.
///
/// Only the scheme and the authority can make a URL fail to parse: the path, query and
/// fragment states never return failure (§4.4), whatever they hold. So it is enough to see
/// a scheme, and for a special URL an authority of plain bytes (any case) whose host does
/// not end in a number and whose port is at most 65535. A URL with a scheme of its own
/// parses the same with or without a base, so the proof holds for any base.
#[inline(always)]
pub(crate) fn proven_valid(input: &str) -> bool {
    // Percent-encoding can triple the input: past u32::MAX / 3 bytes the serialization may
    // exceed what `Components` can address (`input-too-long`): let the parser decide.
    if input.is_empty() || input.len() > u32::MAX as usize / 3 {
        return false;
    }
    scan::run_leaf(Prove(input.as_bytes()))
}

/// [`proven_valid`] as a [`Task`] of the classifier (the kernel inlined into it).
struct Prove<'a>(&'a [u8]);

impl Task for Prove<'_> {
    type Out = bool;
    #[inline(always)]
    fn run<K: Words>(self, k: K) -> bool {
        proven_valid_with(self.0, k)
    }
}

/// [`proven_valid`] in one pass over the classes of the input's first 64 bytes (and more
/// only when the host runs past them), for the common shapes: a special scheme in any case
/// (its bytes are all letters, so it is a scheme), `//`, a plain domain, then the end of
/// the authority or a port. The plain-domain test is [`plain_domain_prefix`]'s: the first
/// *special* byte of `scan` is the first byte outside the plain set. Anything else is
/// decided by [`proven_valid_bytes`], the byte-by-byte version.
#[inline(always)]
fn proven_valid_with<K: Words>(b: &[u8], k: K) -> bool {
    let (first, _) = k.word(b, 0);
    let Some((kind, a, end)) = plain_authority(b, k, first) else {
        return proven_valid_bytes(b);
    };
    let host = &b[a..end];
    if kind == SchemeKind::File {
        // As `proven_valid_bytes`: an empty host, or a plain domain, then the end of the
        // authority.
        return (host.is_empty() || last_label_is_not_numeric(host))
            && b.get(end).is_none_or(|&c| ends_authority(c, true));
    }
    if last_label_is_not_numeric(host) {
        // A `:` after a plain domain is the port's (as in `proven_valid_bytes`, which
        // this pass must agree with: `user:pass@` is left to it).
        if b.get(end) == Some(&b':') {
            return valid_port(&b[end + 1..]);
        }
        if domain_then_end(b, end) {
            return true;
        }
    }
    valid_special_authority(&b[a..])
}

/// The common shape, read from `first` (the special mask of `b`'s first 64 bytes): a
/// special scheme in any case (its bytes are all letters, so it is a scheme), `//`, then a
/// run of plain bytes from `a` to `end` (the first special byte, or the end of `b`): the
/// host, when what follows ends it. `None`: another shape.
#[inline(always)]
fn plain_authority<K: Words>(b: &[u8], k: K, first: u64) -> Option<(SchemeKind, usize, usize)> {
    let colon = first.trailing_zeros() as usize;
    if colon >= b.len() || b[colon] != b':' {
        return None;
    }
    let kind = SchemeKind::from_prefix_ignoring_case(b, colon);
    if kind == SchemeKind::NotSpecial || b.get(colon + 1..colon + 3) != Some(b"//") {
        return None;
    }
    let a = colon + 3;
    Some((kind, a, next_special(b, k, first, a)))
}

/// Whether what follows a plain domain of a special URL, at `b[end..]`, completes the
/// authority: the end of the input, a port of at most 65535, or a byte that ends the
/// authority.
#[inline(always)]
fn domain_then_end(b: &[u8], end: usize) -> bool {
    match b.get(end) {
        None => true,
        Some(b':') => valid_port(&b[end + 1..]),
        Some(&c) => ends_authority(c, true),
    }
}

/// Where the hostname of `input` is, when the one-pass proof shows that `input` parses
/// (against any base, or none) and that its hostname is its host bytes as they are, but
/// ASCII lower-cased: a special scheme other than `file` (whose `localhost` becomes the
/// empty host), `//`, a plain domain (see [`plain_domain_prefix`]), then the end of the
/// input, a port or the end of the authority. Returns the host's range and whether it
/// holds upper case; `None` means "not proven": parse. Inlined, so that its callers call
/// the classifier's task directly.
#[inline(always)]
pub(crate) fn proven_hostname(input: &str) -> Option<(Range<usize>, bool)> {
    if input.is_empty() || input.len() > u32::MAX as usize / 3 {
        return None;
    }
    scan::run(ProveHost(input.as_bytes()))
}

/// [`proven_hostname`] as a [`Task`] of the classifier.
struct ProveHost<'a>(&'a [u8]);

impl Task for ProveHost<'_> {
    type Out = Option<(Range<usize>, bool)>;
    #[inline(always)]
    fn run<K: Words>(self, k: K) -> Self::Out {
        let b = self.0;
        let (first, upper) = k.word(b, 0);
        let (kind, a, end) = plain_authority(b, k, first)?;
        if kind == SchemeKind::File
            || !last_label_is_not_numeric(&b[a..end])
            || !domain_then_end(b, end)
        {
            return None;
        }
        // `a` is at most 8 (`https://`); a host within the first word has its upper-case
        // bits there.
        let upper = if end <= 64 {
            (upper >> a) & ((1u64 << (end - a)) - 1) != 0
        } else {
            b[a..end].iter().any(u8::is_ascii_uppercase)
        };
        Some((a..end, upper))
    }
}

/// The first special byte of `b` at or after `from` (`b.len()` when there is none), given
/// `first`, the special mask of `b`'s first 64 bytes.
#[inline(always)]
fn next_special<K: Words>(b: &[u8], k: K, first: u64, from: usize) -> usize {
    let n = b.len();
    let mut at = from;
    if at < 64 {
        let bits = first >> at;
        if bits != 0 {
            return at + bits.trailing_zeros() as usize;
        }
        at = 64;
    }
    while at < n {
        let (special, _) = k.word(b, at);
        if special != 0 {
            return at + special.trailing_zeros() as usize;
        }
        at += 64;
    }
    n
}

/// [`proven_valid`], byte by byte: every shape (`proven_valid_with` handles the common
/// ones first).
fn proven_valid_bytes(b: &[u8]) -> bool {
    let Some(colon) = scheme_len(b) else {
        return false;
    };
    let rest = &b[colon + 1..];
    // Tab and newline are removed before parsing: one among the next two bytes could
    // turn `/`+tab+`/` into `//`. (Inside the authority they are not plain bytes.)
    if has_tab_or_newline(&rest[..rest.len().min(2)]) {
        return false;
    }
    let kind = SchemeKind::from_bytes_ignoring_case(&b[..colon]);
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
    let authority = &authority[..authority_end(authority, 0, true)];
    // The parser removes tabs and newlines first; and more slashes would be skipped.
    if authority.is_empty() || has_tab_or_newline(authority) {
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
    let (digits_end, port) = scan_port(after, 0);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass proof with every kernel this CPU has gives the byte-by-byte proof's
    /// answer: it is an optimisation, not a second opinion.
    fn same_answer(input: &str) {
        let b = input.as_bytes();
        if b.is_empty() {
            assert!(!proven_valid(input));
            return;
        }
        let expected = proven_valid_bytes(b);
        assert_eq!(proven_valid(input), expected, "{input:?}");
        assert_eq!(Prove(b).run(scan::Scalar), expected, "scalar: {input:?}");
        #[cfg(target_arch = "x86_64")]
        assert_eq!(Prove(b).run(scan::x86::Sse2), expected, "sse2: {input:?}");
    }

    #[test]
    fn one_pass_proof_agrees_with_the_byte_by_byte_one() {
        let long = "a".repeat(70);
        let mut inputs: Vec<String> = [
            "https://example.com/",
            "HTTP://Example.COM:8080/x",
            "http://example.com:65536/",
            "http://example.com:/",
            "http://example.com:0080/",
            "http://1.2.3.4/",
            "http://1.2.3.4.5/",
            "http://example.1/",
            "http://0x7f.1/",
            "http://user:pass@example.com/",
            "http://[::1]:80/",
            "http://[::1/",
            "http://exa mple.com/",
            "http://exa%41mple.com/",
            "http://example.com\\path",
            "http://example.com?q",
            "http://example.com#f",
            "http:/example.com/",
            "http:\t//example.com/",
            "http://",
            "http:///x",
            "ws://x",
            "wss://x:443",
            "ftp://x.y/z",
            "file:///C:/x",
            "file://host/x",
            "file://1.2.3.4/x",
            "file://LOCALHOST/x",
            "file:/x",
            "file:\t//x",
            "file:\\\\host\\x",
            "file://host:80/x",
            "mailto:a@b",
            "foo://x",
            "f!o:x",
            "ht!tp://x/",
            " http://x/",
            "http://x/ ",
            "/relative",
            ":",
            "a:",
            "h\u{e9}://x",
            "http://\u{e9}.com/",
        ]
        .map(String::from)
        .to_vec();
        // Hosts and schemes that run past the first 64-byte word, at every split.
        for pad in 50..80 {
            let host = "h".repeat(pad);
            inputs.push(format!("https://{host}.com/"));
            inputs.push(format!("https://{host}.1/"));
            inputs.push(format!("https://{host}:8080/"));
            inputs.push(format!("https://{host}:99999/"));
            inputs.push(format!("https://{host}%41/"));
            inputs.push(format!("file://{host}/x"));
            inputs.push(format!("{}:x", "s".repeat(pad)));
        }
        inputs.push(format!("https://{long}{long}.example"));
        let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/sample.txt");
        let text = std::fs::read_to_string(sample).expect("corpora/sample.txt");
        inputs.extend(text.lines().map(String::from));
        for input in &inputs {
            same_answer(input);
        }
    }
}
