//! SURT, the Internet Archive's Sort-friendly URI Reordering Transform, as the `surt`
//! package computes it (`surt.surt(url)`: its Google and IA canonicalizers, then the host
//! reversed), on the WHATWG parse.

use super::{ByteSet, escape_into, unescape_repeatedly};
use crate::components::HostKind;
use crate::scan::marks::summary;
use crate::view::UrlRef;
use std::borrow::Cow;

mod input;

pub use self::input::{Canonicalizer, SurtError, surt_input, surt_input_with};

/// The options of `surt.surt(url, **options)` that change the key, by the package's
/// names; [`Options::default`] is the package's defaults. The presets on a parsed URL
/// ([`surt_with`]) and the raw-input form ([`surt_input`]) take the same options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Which canonicalizers run (`canonicalizer=`; default Google's then the IA's).
    pub canonicalizer: Canonicalizer,
    /// The host reversed into `com,example)` (`surt=True`); `false` writes the URL form
    /// (`example.com/`).
    pub surt: bool,
    /// Starts the key with the scheme and `://(` (`with_scheme=True`):
    /// `http://(com,example)/`.
    pub with_scheme: bool,
    /// Ends the host with a comma (`trailing_comma=True`): `com,example,)/`.
    pub trailing_comma: bool,
    /// Reverses a dotted IPv4 address as a domain (`reverse_ipaddr=True`, the default):
    /// `4,3,2,1)`; `false` keeps `1.2.3.4)`.
    pub reverse_ipaddr: bool,
    /// Lower-cases the host (`host_lowercase`).
    pub host_lowercase: bool,
    /// Drops a first label `www`, `www1`, `www2`, … (`host_massage`).
    pub host_massage: bool,
    /// Drops the port 80 of `http` and 443 of `https` (`port_strip_default`).
    pub port_strip_default: bool,
    /// Drops a path that is `/` alone (`path_strip_empty`, default off).
    pub path_strip_empty: bool,
    /// Lower-cases the path (`path_lowercase`).
    pub path_lowercase: bool,
    /// Removes an ASP.NET session segment before a `.aspx` (`path_strip_session_id`).
    pub path_strip_session_id: bool,
    /// Removes a trailing `/` but from the path `/` (`path_strip_trailing_slash_unless_empty`).
    pub path_strip_trailing_slash_unless_empty: bool,
    /// Lower-cases the query (`query_lowercase`).
    pub query_lowercase: bool,
    /// Removes session ids from the query (`query_strip_session_id`).
    pub query_strip_session_id: bool,
    /// Drops an empty query and its `?` (`query_strip_empty`).
    pub query_strip_empty: bool,
    /// Sorts the query's `&`-separated arguments (`query_alpha_reorder`).
    pub query_alpha_reorder: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            canonicalizer: Canonicalizer::Default,
            surt: true,
            with_scheme: false,
            trailing_comma: false,
            reverse_ipaddr: true,
            host_lowercase: true,
            host_massage: true,
            port_strip_default: true,
            path_strip_empty: false,
            path_lowercase: true,
            path_strip_session_id: true,
            path_strip_trailing_slash_unless_empty: true,
            query_lowercase: true,
            query_strip_session_id: true,
            query_strip_empty: true,
            query_alpha_reorder: true,
        }
    }
}

impl Options {
    /// Whether only the options the direct computation on a parsed URL handles differ
    /// from the defaults (`with_scheme`, `trailing_comma`, `host_massage`).
    fn direct(&self) -> bool {
        let d = Options::default();
        *self
            == Options {
                with_scheme: self.with_scheme,
                trailing_comma: self.trailing_comma,
                host_massage: self.host_massage,
                ..d
            }
    }
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
    surt_with(url, &Options::default())
}

/// [`surt`] with options.
///
/// ```
/// use rapidurl::canon::{surt::Options, surt_with};
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("http://www.example.com/", &arena).unwrap();
/// let all = Options { with_scheme: true, trailing_comma: true, host_massage: false, ..Options::default() };
/// assert_eq!(surt_with(&url, &all), "http://(com,example,www,)/");
/// ```
pub fn surt_with(url: &UrlRef<'_>, options: &Options) -> String {
    let mut out = String::with_capacity(url.href().len());
    surt_into(url, options, &mut out);
    out
}

/// [`surt_with`], appended to `out`.
///
/// Each part is copied as it stands where it holds nothing to rewrite (found sixteen
/// bytes at a time), and rewritten otherwise; nothing is allocated where every part is
/// copied (a domain without empty labels or an IP address, a path without escapes, `//`
/// or `.aspx`, a query without escapes, upper-case letters, `&` or session-id names).
///
/// With options other than `with_scheme`, `trailing_comma` and `host_massage` changed,
/// the key is [`surt_input`]'s of the URL's `href`.
pub fn surt_into(url: &UrlRef<'_>, options: &Options, out: &mut String) {
    if !options.direct() {
        // The href is a URL: it splits, and its port is a number below 65536.
        if let Ok(key) = surt_input(url.href().as_bytes(), options) {
            out.push_str(&String::from_utf8_lossy(&key));
        }
        return;
    }
    let mut buf = Vec::new();
    let has_host = push_host(url, options, out, &mut buf);
    let path_empty = push_path(url, has_host, out, &mut buf);
    if let Some(q) = url.query().filter(|q| !q.is_empty()) {
        push_query(q, path_empty, out, &mut buf);
    }
}

/// Appends the host reversed (`com,example:8080)`, or `scheme://(com,example)` with the
/// scheme), or `scheme:` for a URL without one; whether there was one.
fn push_host(url: &UrlRef<'_>, options: &Options, out: &mut String, buf: &mut Vec<u8>) -> bool {
    let start = out.len();
    if options.with_scheme {
        out.push_str(url.scheme());
        out.push_str("://(");
    }
    let labels = out.len();
    let name = url.hostname();
    let plain = match url.host_kind() {
        HostKind::Domain => !name.starts_with('.') && !name.ends_with('.'),
        HostKind::Ipv4 => true,
        _ => false,
    };
    // A domain with an empty label (`a..b`) is the general case after all.
    if !plain || !push_labels(without_www(name, options), out) {
        out.truncate(labels);
        let host = host_of(url, buf);
        if host.is_empty() {
            out.truncate(start);
            out.push_str(url.scheme());
            out.push(':');
            return false;
        }
        push_labels(without_www(&host, options), out);
    }
    let port = url.port();
    // The package reads a port 0 as none.
    if !port.is_empty() && port != "0" {
        out.push(':');
        out.push_str(port);
    }
    if options.trailing_comma {
        out.push(',');
    }
    out.push(')');
    true
}

/// `host` without its `www` label, unless the options keep it.
fn without_www<'h>(host: &'h str, options: &Options) -> &'h str {
    if options.host_massage {
        strip_www(host)
    } else {
        host
    }
}

/// Appends the labels of `host`, last first, joined by commas; whether none was empty.
/// The dots of a host of at most 64 bytes are found sixteen bytes at a time, and each
/// label is appended as it stands (a domain of the parse is lower-case ASCII already).
fn push_labels(host: &str, out: &mut String) -> bool {
    let Some(marks) = crate::scan::marks::marks64(host.as_bytes()) else {
        return push_labels_each(host, out);
    };
    let (mut dots, mut end, mut no_empty) = (marks.dot, host.len(), true);
    while dots != 0 {
        let i = 63 - dots.leading_zeros() as usize;
        dots ^= 1 << i;
        no_empty &= i + 1 < end;
        out.push_str(&host[i + 1..end]);
        out.push(',');
        end = i;
    }
    out.push_str(&host[..end]);
    no_empty && end > 0
}

/// [`push_labels`] for a host of any length, one byte at a time.
fn push_labels_each(host: &str, out: &mut String) -> bool {
    let bytes = host.as_bytes();
    let mut end = bytes.len();
    let mut no_empty = true;
    for i in (0..bytes.len()).rev() {
        if bytes[i] == b'.' {
            no_empty &= i + 1 < end;
            out.push_str(&host[i + 1..end]);
            out.push(',');
            end = i;
        }
    }
    out.push_str(&host[..end]);
    no_empty && end > 0
}

/// Appends the path: decoded, dot and empty segments removed (with a host), escaped,
/// lower-cased, without its `.aspx` session segment and its trailing `/`; whether
/// nothing was appended. A path with nothing to decode or escape and no empty segment
/// (the parser has removed the dot segments) is copied and, where it holds upper-case
/// letters, lower-cased.
fn push_path(url: &UrlRef<'_>, has_host: bool, out: &mut String, buf: &mut Vec<u8>) -> bool {
    let raw = url.pathname();
    let path_start = out.len();
    let held = summary(raw.as_bytes());
    let copied = held.escape == 0 && !held.double_slash() && (!has_host || !raw.is_empty());
    if copied {
        out.push_str(raw);
        if held.upper != 0 {
            out[path_start..].make_ascii_lowercase();
        }
    } else {
        unescape_repeatedly(raw.as_bytes(), buf);
        if has_host {
            escape_into(&normalize_path(buf), &ESCAPE, out);
        } else {
            escape_into(buf, &ESCAPE, out);
        }
        out[path_start..].make_ascii_lowercase();
    }
    // Both forms of the session segment start with `(`.
    if (held.dot_a() || !copied)
        && holds_from_byte(&out[path_start..], ".aspx")
        && out[path_start..].contains('(')
    {
        let path = strip_path_session_id(&out[path_start..]);
        out.truncate(path_start);
        out.push_str(&path);
    }
    if out.len() - path_start > 1 && out.ends_with('/') {
        out.pop();
    }
    out.len() == path_start
}

/// Appends the query (`?` and it, after a `/` where the path was empty): decoded,
/// escaped, session ids removed, lower-cased, arguments sorted; nothing where that
/// leaves it empty.
fn push_query(q: &str, path_empty: bool, out: &mut String, buf: &mut Vec<u8>) {
    let mut query = String::new();
    let held = summary(q.as_bytes());
    let q = if held.escape != 0 {
        unescape_repeatedly(q.as_bytes(), buf);
        escape_into(buf, &ESCAPE, &mut query);
        query.make_ascii_lowercase();
        &query[..]
    } else if held.upper != 0 {
        query.push_str(q);
        query.make_ascii_lowercase();
        &query[..]
    } else {
        q
    };
    // Every session-id pattern holds one of these (the patterns ignore case, so they
    // match the lower-cased query as they match the query).
    let stripped;
    let q = if holds_from_byte(q, "id")
        && ["sessionid", "sessid", "sid=", "cfid="]
            .iter()
            .any(|n| q.contains(n))
    {
        stripped = strip_query_session_ids(q);
        &stripped[..]
    } else {
        q
    };
    if q.is_empty() {
        return;
    }
    if path_empty {
        out.push('/');
    }
    out.push('?');
    if q.contains('&') {
        alpha_reorder_into(q, out);
    } else {
        out.push_str(q);
    }
}

/// Whether `text` holds `needle` (of at least one byte): each place of the needle's first
/// byte tried in turn, which on a short span (a path, a query) costs less than setting up
/// a substring search.
fn holds_from_byte(text: &str, needle: &str) -> bool {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    let mut at = 0;
    while let Some(i) = memchr::memchr(needle[0], &text[at..]) {
        if text[at + i..].starts_with(needle) {
            return true;
        }
        at += i + 1;
    }
    false
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
                && !crate::canon::has_pair(hostname, b'.', b'.') =>
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
    // A path from `/` without `.` or empty segments (but the last) is its own result.
    if path[0] == b'/'
        && !crate::canon::has_pair(path, b'/', b'/')
        && !crate::canon::has_pair(path, b'/', b'.')
    {
        return path.to_vec();
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
            if let Some(len) = form.matches(&p[i + 1..])
                && follows[i + 1 + len]
            {
                found = Some((i + 1, len));
                break;
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

/// `alphaReorderQuery`: appends the `&`-separated arguments sorted as Python sorts the
/// tuples `(name,)` and `(name, value)` (a name without `=` first).
fn alpha_reorder_into(query: &str, out: &mut String) {
    if query.len() <= 1 {
        out.push_str(query);
        return;
    }
    let mut args: Vec<(&str, Option<&str>)> = query
        .split('&')
        .map(|arg| match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg, None),
        })
        .collect();
    args.sort_unstable();
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
    fn labels_by_mask_as_one_at_a_time() {
        let long = "a".repeat(70);
        let hosts = [
            "",
            ".",
            "..",
            "a",
            "a.",
            ".a",
            "a..b",
            "www.example.com",
            "a.b.c.d.e",
            "0123456789abcdefg.h",
            "x.0123456789abcdef0123456789abcdef0",
            &long,
            "0123456789.0123456789.0123456789.0123456789.0123456789.0123456789",
        ];
        for host in hosts {
            for cut in 0..=host.len().min(66) {
                let host = &host[..cut];
                let (mut a, mut b) = (String::from("k"), String::from("k"));
                let empty_a = push_labels(host, &mut a);
                let empty_b = push_labels_each(host, &mut b);
                assert_eq!((a, empty_a), (b, empty_b), "{host:?}");
            }
        }
    }

    #[test]
    fn holds_as_contains() {
        for text in [
            "",
            "i",
            "id",
            "xid",
            "iid",
            "idx",
            "a.asp.aspx",
            ".aspx",
            ".asp",
            "x.aspxx",
        ] {
            for needle in ["id", ".aspx"] {
                assert_eq!(
                    holds_from_byte(text, needle),
                    text.contains(needle),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn paths() {
        assert_eq!(normalize_path(b"/a//b/../c/./"), b"/a/c/");
        assert_eq!(normalize_path(b"/../../a"), b"/a");
        assert_eq!(normalize_path(b"/.."), b"/..");
        let mut sorted = String::new();
        alpha_reorder_into("b=1&a&a=&a=0", &mut sorted);
        assert_eq!(sorted, "a&a=&a=0&b=1");
    }
}
