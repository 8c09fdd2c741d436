//! SURT, the Internet Archive's Sort-friendly URI Reordering Transform, as the `surt`
//! package computes it (`surt.surt(url)`: its Google and IA canonicalizers, then the host
//! reversed), on the WHATWG parse.

use super::{ByteSet, escape_into, unescape_repeatedly};
use crate::components::HostKind;
use crate::view::UrlRef;
use std::borrow::Cow;

/// The options of `surt.surt` that change the key; the defaults are the package's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SurtOptions {
    /// Starts the key with the scheme and `://(` (`with_scheme=True`):
    /// `http://(com,example)/`.
    pub with_scheme: bool,
    /// Ends the host with a comma (`trailing_comma=True`): `com,example,)/`.
    pub trailing_comma: bool,
    /// Keeps a leading `www.` (or `www2.`, …) label (`host_massage=False`).
    pub keep_www: bool,
}

/// The bytes `escapeOnce` encodes: controls, space, DEL, non-ASCII, `#` and `%`.
const ESCAPE: ByteSet = ByteSet::controls_space_high_and(b"#%");

/// The SURT of `url` with the `surt` package's defaults: `com,example)/a?a=1&b=2`.
///
/// The host is reversed label by label into `com,example)` without a leading `www`
/// label, the port kept when it is not the scheme's default; the path and query are
/// percent-decoded until nothing is left to decode, re-encoded (controls, space,
/// non-ASCII, `#` and `%` only) and lower-cased; the path's dot segments and empty
/// segments are removed, and its trailing `/` too (but for the path `/`); the query's
/// session ids (`jsessionid`, `phpsessid`, `sid`, `ASPSESSIONID…`, `cfid`+`cftoken`) are
/// removed and its `&`-separated arguments sorted; the credentials and the fragment are
/// dropped. A URL without a host gives `scheme:path`.
///
/// ```
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("https://www.Example.com:8443/A/./b/?z=1&A=2#top", &arena).unwrap();
/// assert_eq!(rapidurl::canon::surt(&url), "com,example:8443)/a/b?a=2&z=1");
/// ```
pub fn surt(url: &UrlRef<'_>) -> String {
    surt_with(url, &SurtOptions::default())
}

/// [`surt`] with options.
///
/// ```
/// use rapidurl::canon::{SurtOptions, surt_with};
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("http://www.example.com/", &arena).unwrap();
/// let all = SurtOptions { with_scheme: true, trailing_comma: true, keep_www: true };
/// assert_eq!(surt_with(&url, &all), "http://(com,example,www,)/");
/// ```
pub fn surt_with(url: &UrlRef<'_>, options: &SurtOptions) -> String {
    let mut out = String::with_capacity(url.href().len());
    surt_into(url, options, &mut out);
    out
}

/// [`surt_with`], appended to `out`.
pub fn surt_into(url: &UrlRef<'_>, options: &SurtOptions, out: &mut String) {
    let mut buf = Vec::new();
    let host = host_of(url, &mut buf);
    let has_host = !host.is_empty();
    if has_host {
        if options.with_scheme {
            out.push_str(url.scheme());
            out.push_str("://(");
        }
        let host = if options.keep_www {
            &host[..]
        } else {
            strip_www(&host)
        };
        // The labels, last first, joined by commas.
        let mut end = host.len();
        for i in (0..host.len()).rev() {
            if host.as_bytes()[i] == b'.' {
                out.push_str(&host[i + 1..end]);
                out.push(',');
                end = i;
            }
        }
        out.push_str(&host[..end]);
        let port = url.port();
        if !port.is_empty() {
            out.push(':');
            out.push_str(port);
        }
        if options.trailing_comma {
            out.push(',');
        }
        out.push(')');
    } else {
        out.push_str(url.scheme());
        out.push(':');
    }

    // The path: decoded, dot and empty segments removed (with a host), escaped,
    // lower-cased. A path with nothing to decode or escape and no empty segment (the
    // parser has removed the dot segments) is only lower-cased.
    let raw = url.pathname();
    let path_start = out.len();
    let plain = |t: &str| t.bytes().all(|b| !ESCAPE.contains(b));
    // One pass: nothing to decode or escape, no empty segment, and whether `.aspx` may
    // occur (a `.` followed by `a` or `A`).
    let (mut simple, mut prev, mut aspx) = (true, 0u8, false);
    for &b in raw.as_bytes() {
        simple &= !(ESCAPE.contains(b) || (b == b'/' && prev == b'/'));
        aspx |= prev == b'.' && (b | 0x20) == b'a';
        prev = b;
    }
    if simple && (!has_host || !raw.is_empty()) {
        out.push_str(raw);
    } else {
        unescape_repeatedly(raw.as_bytes(), &mut buf);
        if has_host {
            escape_into(&normalize_path(&buf), &ESCAPE, out);
        } else {
            escape_into(&buf, &ESCAPE, out);
        }
    }
    out[path_start..].make_ascii_lowercase();
    if (aspx || !simple) && out[path_start..].contains(".aspx") {
        let path = strip_path_session_id(&out[path_start..]);
        out.truncate(path_start);
        out.push_str(&path);
    }
    if out.len() - path_start > 1 && out.ends_with('/') {
        out.pop();
    }
    let path_empty = out.len() == path_start;

    // The query: decoded, escaped, session ids removed, lower-cased, arguments sorted.
    if let Some(q) = url.query().filter(|q| !q.is_empty()) {
        let mut query = String::with_capacity(q.len());
        if plain(q) {
            query.push_str(q);
        } else {
            unescape_repeatedly(q.as_bytes(), &mut buf);
            escape_into(&buf, &ESCAPE, &mut query);
        }
        let mut lower = query.clone();
        lower.make_ascii_lowercase();
        // Every session-id pattern holds one of these (ASCII case ignored).
        if ["sessionid", "sessid", "sid=", "cfid="]
            .iter()
            .any(|n| lower.contains(n))
        {
            lower = strip_query_session_ids(&query);
            lower.make_ascii_lowercase();
        }
        let query = if lower.contains('&') {
            alpha_reorder(&lower)
        } else {
            lower
        };
        if !query.is_empty() {
            if path_empty {
                out.push('/');
            }
            out.push('?');
            out.push_str(&query);
        }
    }
}

/// The host as the package's canonicalizers leave it, before it is reversed: empty for a
/// URL without one. An IPv6 address loses its brackets; a domain its doubled dots (one
/// pass, as Python's `replace("..", ".")`) and its leading and trailing dots; an opaque
/// host is decoded until nothing is left to decode, escaped and lower-cased.
fn host_of<'a>(url: &UrlRef<'a>, buf: &mut Vec<u8>) -> Cow<'a, str> {
    let name = url.hostname();
    let hostname = name.as_bytes();
    match url.host_kind() {
        HostKind::None | HostKind::Empty => Cow::Borrowed(""),
        HostKind::Ipv4 => Cow::Borrowed(name),
        HostKind::Ipv6 => Cow::Borrowed(&name[1..name.len() - 1]),
        HostKind::Domain
            if !hostname.starts_with(b".")
                && !hostname.ends_with(b".")
                && memchr::memmem::find(hostname, b"..").is_none() =>
        {
            Cow::Borrowed(name)
        }
        HostKind::Domain | HostKind::Opaque => {
            let mut host = if url.host_kind() == HostKind::Opaque {
                unescape_repeatedly(hostname, buf);
                buf.clone()
            } else {
                hostname.to_vec()
            };
            // `replace(b'..', b'.')`: non-overlapping, left to right.
            let mut fixed = Vec::with_capacity(host.len());
            let mut i = 0;
            while i < host.len() {
                if host[i] == b'.' && host.get(i + 1) == Some(&b'.') {
                    fixed.push(b'.');
                    i += 2;
                } else {
                    fixed.push(host[i]);
                    i += 1;
                }
            }
            let start = fixed.iter().position(|&b| b != b'.').unwrap_or(fixed.len());
            let end = fixed
                .iter()
                .rposition(|&b| b != b'.')
                .map_or(start, |e| e + 1);
            host.clear();
            if url.host_kind() == HostKind::Opaque {
                let mut s = String::new();
                escape_into(&fixed[start..end], &ESCAPE, &mut s);
                s.make_ascii_lowercase();
                host.extend_from_slice(s.as_bytes());
            } else {
                host.extend_from_slice(&fixed[start..end]);
            }
            Cow::Owned(String::from_utf8(host).unwrap_or_default())
        }
    }
}

/// The host without a first label `www`, `www1`, `www2`, … (`massageHost`).
fn strip_www(host: &str) -> &str {
    let Some(rest) = host.strip_prefix("www") else {
        return host;
    };
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    match rest[digits..].strip_prefix('.') {
        Some(after) => after,
        None => host,
    }
}

/// `normalizePath`: the segments after the first `/`, `.` dropped, `..` dropping the
/// segment kept before it (or kept itself when there is none), empty segments dropped
/// but for the last.
fn normalize_path(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b"/".to_vec();
    }
    let mut kept: Vec<&[u8]> = Vec::new();
    for segment in path.split(|&b| b == b'/').skip(1) {
        match segment {
            b"." => {}
            b".." => {
                if kept.pop().is_none() {
                    kept.push(segment);
                }
            }
            _ => kept.push(segment),
        }
    }
    let mut out = Vec::with_capacity(path.len());
    out.push(b'/');
    if let Some((last, rest)) = kept.split_last() {
        for segment in rest.iter().filter(|s| !s.is_empty()) {
            out.extend_from_slice(segment);
            out.push(b'/');
        }
        out.extend_from_slice(last);
    }
    out
}

/// For each position `p` of `path`, whether `path[p..]` matches `[^?]+\.aspx.*`: a
/// `.aspx` starts after `p` with no `?` from `p` to it. One backward pass.
fn aspx_follows(path: &[u8]) -> Vec<bool> {
    let mut follows = vec![false; path.len() + 1];
    // The nearest `.aspx` start after the current position, reset by a `?`.
    let mut nearest: Option<usize> = None;
    for p in (0..path.len()).rev() {
        follows[p] = path[p] != b'?' && nearest.is_some();
        if path[p] == b'?' {
            nearest = None;
        }
        if path.len() - p >= 5 && path[p..p + 5].eq_ignore_ascii_case(b".aspx") {
            nearest = Some(p);
        }
    }
    follows
}

/// The path without an ASP.NET session segment (`(S(24 characters))/` or
/// `(24 characters)/`) before a rest that holds `.aspx`: for each of the two forms in
/// turn, its last such segment (the package's two regular expressions, greedy).
fn strip_path_session_id(path: &str) -> String {
    let mut p = path.as_bytes().to_vec();
    for form in [SessionForm::Nested, SessionForm::Plain] {
        // Greedy `^(.*/)`: the last `/` after which the session segment and `/` follow.
        let follows = aspx_follows(&p);
        let mut found = None;
        for i in (0..p.len()).rev() {
            if p[i] != b'/' {
                continue;
            }
            if let Some(len) = form.matches(&p[i + 1..]) {
                if follows[i + 1 + len] {
                    found = Some((i + 1, len));
                    break;
                }
            }
        }
        if let Some((at, len)) = found {
            p.drain(at..at + len);
        }
    }
    String::from_utf8(p).unwrap_or_default()
}

#[derive(Clone, Copy)]
enum SessionForm {
    /// `\((?:[a-z]\([0-9a-z]{24}\))+\)/`
    Nested,
    /// `\([0-9a-z]{24}\)/`
    Plain,
}

impl SessionForm {
    /// The length of the session segment and its `/` at the start of `s`, if there is one.
    fn matches(self, s: &[u8]) -> Option<usize> {
        let id24 = |s: &[u8]| s.len() >= 24 && s[..24].iter().all(|b| b.is_ascii_alphanumeric());
        match self {
            SessionForm::Plain => (s.first() == Some(&b'(')
                && id24(&s[1..])
                && s.get(25) == Some(&b')')
                && s.get(26) == Some(&b'/'))
            .then_some(27),
            SessionForm::Nested => {
                if s.first() != Some(&b'(') {
                    return None;
                }
                let mut i = 1;
                let mut groups = 0;
                while i + 28 <= s.len()
                    && s[i].is_ascii_alphabetic()
                    && s[i + 1] == b'('
                    && id24(&s[i + 2..])
                    && s[i + 26] == b')'
                {
                    i += 27;
                    groups += 1;
                }
                (groups > 0 && s.get(i) == Some(&b')') && s.get(i + 1) == Some(&b'/'))
                    .then_some(i + 2)
            }
        }
    }
}

/// The query's session ids removed, as the package's five regular expressions do in
/// turn: each removes its last match that runs to the end of the query or to a `&`
/// (which goes with it).
fn strip_query_session_ids(query: &str) -> String {
    let mut q = query.as_bytes().to_vec();
    for pattern in SESSION_PATTERNS {
        // Where the next `&` is from each position (the `cfid` pattern's values end
        // there): one backward pass, so that each position is tried in constant time.
        let mut next_amp = vec![q.len(); q.len() + 1];
        for i in (0..q.len()).rev() {
            next_amp[i] = if q[i] == b'&' { i } else { next_amp[i + 1] };
        }
        let mut found = None;
        for i in (0..q.len()).rev() {
            if let Some(len) = pattern(&q[i..], &|j| next_amp[i + j] - i) {
                let end = i + len;
                if end == q.len() {
                    found = Some((i, end));
                    break;
                } else if q[end] == b'&' {
                    found = Some((i, end + 1));
                    break;
                }
            }
        }
        if let Some((start, end)) = found {
            q.drain(start..end);
        }
    }
    String::from_utf8(q).unwrap_or_default()
}

/// The length of a session id (name and value) at the start of `s`, for one pattern,
/// given where the next `&` (or the end) is in `s` from each of its positions.
type SessionPattern = fn(&[u8], NextAmp<'_>) -> Option<usize>;

/// Where the next `&` (or the end) is in `s` from position `j` of `s`.
type NextAmp<'a> = &'a dyn Fn(usize) -> usize;

const SESSION_PATTERNS: [SessionPattern; 5] = [
    |s, _| name_then_alnum(s, b"jsessionid=", 32),
    |s, _| name_then_alnum(s, b"phpsessid=", 32),
    |s, _| name_then_alnum(s, b"sid=", 32),
    |s, _| {
        // ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24}
        let p = b"aspsessionid";
        let alpha = |s: &[u8]| s.iter().all(|b| b.is_ascii_alphabetic());
        (s.len() >= 12 + 8 + 1 + 24
            && s[..12].eq_ignore_ascii_case(p)
            && alpha(&s[12..20])
            && s[20] == b'='
            && alpha(&s[21..45]))
        .then_some(45)
    },
    |s, next_amp| {
        // cfid=[^&]+&cftoken=[^&]+
        if s.len() < 5 || !s[..5].eq_ignore_ascii_case(b"cfid=") {
            return None;
        }
        let at = next_amp(5);
        if at == 5 || s.len() < at + 9 || !s[at..at + 9].eq_ignore_ascii_case(b"&cftoken=") {
            return None;
        }
        let end = next_amp(at + 9);
        (end > at + 9).then_some(end)
    },
];

/// `name` (any case) followed by exactly `n` ASCII letters or digits, where the match
/// must then end (the caller checks the end or `&`).
fn name_then_alnum(s: &[u8], name: &[u8], n: usize) -> Option<usize> {
    let k = name.len();
    (s.len() >= k + n
        && s[..k].eq_ignore_ascii_case(name)
        && s[k..k + n].iter().all(|b| b.is_ascii_alphanumeric()))
    .then_some(k + n)
}

/// `alphaReorderQuery`: the `&`-separated arguments sorted as Python sorts the tuples
/// `(name,)` and `(name, value)` (a name without `=` first).
fn alpha_reorder(query: &str) -> String {
    if query.len() <= 1 {
        return query.to_owned();
    }
    let mut args: Vec<(&str, Option<&str>)> = query
        .split('&')
        .map(|arg| match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg, None),
        })
        .collect();
    args.sort_unstable();
    let mut out = String::with_capacity(query.len());
    for (i, (name, value)) in args.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(name);
        if let Some(value) = value {
            out.push('=');
            out.push_str(value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids() {
        let id = "0123456789abcdef0123456789ABCDEF";
        assert_eq!(
            strip_query_session_ids(&format!("a=1&jsessionid={id}")),
            "a=1&"
        );
        assert_eq!(
            strip_query_session_ids(&format!("jsessionid={id}&b=2")),
            "b=2"
        );
        assert_eq!(
            strip_query_session_ids(&format!("jsessionid={id}x&b=2")),
            format!("jsessionid={id}x&b=2")
        );
        assert_eq!(strip_query_session_ids("cfid=1&cftoken=2&c=3"), "c=3");
        let seg = "(S(0123456789abcdefghijklmn))";
        assert_eq!(
            strip_path_session_id(&format!("/x/{seg}/page.aspx")),
            "/x/page.aspx"
        );
        assert_eq!(
            strip_path_session_id("/x/(0123456789abcdefghijklmn)/page.aspx"),
            "/x/page.aspx"
        );
        assert_eq!(
            strip_path_session_id(&format!("/x/{seg}/page.html")),
            format!("/x/{seg}/page.html")
        );
    }

    #[test]
    fn paths() {
        assert_eq!(normalize_path(b"/a//b/../c/./"), b"/a/c/");
        assert_eq!(normalize_path(b"/../../a"), b"/a");
        assert_eq!(normalize_path(b"/.."), b"/..");
        assert_eq!(alpha_reorder("b=1&a&a=&a=0"), "a&a=&a=0&b=1");
    }
}
