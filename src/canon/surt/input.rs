//! The `surt` package's key of a raw input, split as the package splits it (RFC 2396's
//! regular expression, not the WHATWG parser): what `rapidurl.compat.surt.surt` returns.
//!
//! The steps, in the package's order: inputs it passes through (the empty input gives
//! `-`, an ARC `filedesc` record header itself); the input trimmed of ASCII whitespace and
//! its tabs and newlines removed; `http://` put before an input without a scheme, and a
//! run of `http://` or `https://` prefixes reduced to its last; the split into scheme,
//! authority, path, query and fragment, the host and port read from the authority as
//! Python's `urlsplit` reads them (for a scheme starting with `http` and no authority, the
//! host is the first segment of the path); then the canonicalizers (Google's, then the
//! Internet Archive's, each step an [`Options`] field), then the key written out
//! (`com,example)/path?query`, or `scheme://(…` with the scheme).

use super::super::unescape_repeatedly;
use super::{ESCAPE, Options, normalize_path, strip_path_session_id};
use super::{strip_query_session_ids, strip_www};
use crate::canon::escape_into;
use crate::canon::split::{authority_len, host_port, scheme_len};
use std::fmt;

/// The canonicalizers a key goes through (the package's `canonicalizer` argument).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Canonicalizer {
    /// Google's then the Internet Archive's (`DefaultIAURLCanonicalizer`, the default).
    #[default]
    Default,
    /// Google's only (`GoogleURLCanonicalizer`): fragment dropped, host decoded, IPv4
    /// forms, dot segments, escapes; no lower-casing, no sorting.
    Google,
    /// The Internet Archive's only (`IAURLCanonicalizer`): the [`Options`] steps on the
    /// parts as split, nothing decoded.
    Ia,
    /// None (an empty list of canonicalizers): the parts as split.
    Identity,
}

impl Canonicalizer {
    fn google(self) -> bool {
        matches!(self, Canonicalizer::Default | Canonicalizer::Google)
    }

    fn ia(self) -> bool {
        matches!(self, Canonicalizer::Default | Canonicalizer::Ia)
    }
}

/// An input on which the `surt` package raises instead of giving a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurtError {
    /// Nothing is left once whitespace is trimmed: the package finds no scheme.
    NoScheme,
    /// The port is not a number from 0 to 65535 (the package's `urlsplit` raises).
    InvalidPort(String),
    /// A host of more digits than Python converts to an integer (4300).
    HostTooManyDigits(usize),
}

impl fmt::Display for SurtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SurtError::NoScheme => f.write_str("no scheme: the input is only whitespace"),
            SurtError::InvalidPort(p) => {
                write!(f, "port {p:?} is not a number from 0 to 65535")
            }
            SurtError::HostTooManyDigits(n) => write!(
                f,
                "host of {n} digits: more than the 4300 Python converts to an integer"
            ),
        }
    }
}

impl std::error::Error for SurtError {}

/// The host of a key as the package's URL object holds it.
struct Parts<'a> {
    scheme: &'a [u8],
    host: Option<Vec<u8>>,
    port: Option<u32>,
    path: Option<Vec<u8>>,
    query: Option<Vec<u8>>,
    fragment: Option<Vec<u8>>,
    last_delimiter: bool,
}

/// The `surt` package's key of `input` (`surt.surt(input, **options)`), with the host
/// converted by IDNA 2003 where it is not ASCII through `idna` (given the host as
/// decoded, it returns the ASCII form, or `None` where conversion fails and the host
/// stays as it is). [`surt_input`] passes rapidurl's own conversion.
///
/// ```
/// use rapidurl::canon::surt::{Options, surt_input_with};
/// let key = surt_input_with(b"http://www.Example.com/B/?b=1&a=2", &Options::default(), &mut |_| None);
/// assert_eq!(key.unwrap(), b"com,example)/b?a=2&b=1");
/// assert_eq!(surt_input_with(b"", &Options::default(), &mut |_| None).unwrap(), b"-");
/// ```
pub fn surt_input_with(
    input: &[u8],
    options: &Options,
    idna: &mut dyn FnMut(&[u8]) -> Option<Vec<u8>>,
) -> Result<Vec<u8>, SurtError> {
    if input.is_empty() {
        return Ok(b"-".to_vec());
    }
    if input.starts_with(b"filedesc") {
        return Ok(input.to_vec());
    }
    let cleaned = clean(input);
    let mut parts = split(&cleaned)?;
    if options.canonicalizer.google() {
        google(&mut parts, idna)?;
    }
    if options.canonicalizer.ia() {
        ia(&mut parts, options);
    }
    Ok(write(&parts, options))
}

/// [`surt_input_with`], with a host that is not ASCII converted by UTS #46
/// ([`crate::host::domain_to_ascii`], not strict) where the package applies IDNA 2003:
/// the two differ on a few code points (`ß`, `ς`, ZWJ, which IDNA 2003 maps and UTS #46
/// non-transitional processing keeps).
pub fn surt_input(input: &[u8], options: &Options) -> Result<Vec<u8>, SurtError> {
    surt_input_with(input, options, &mut |host| {
        let text = String::from_utf8_lossy(host);
        crate::host::domain_to_ascii(&text, false)
            .ok()
            .map(String::into_bytes)
    })
}

/// Trimmed of ASCII whitespace, tabs and newlines removed, `http://` put before an input
/// without a scheme, a run of `http://`/`https://` prefixes reduced to its last.
fn clean(input: &[u8]) -> Vec<u8> {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let start = input.iter().position(|b| !ws(b)).unwrap_or(input.len());
    let end = input.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    let kept = &input[start..end];
    let mut url: Vec<u8> = Vec::with_capacity(kept.len() + 7);
    if memchr::memchr3(b'\t', b'\n', b'\r', kept).is_none() {
        url.extend_from_slice(kept);
    } else {
        url.extend(kept.iter().filter(|b| !matches!(b, b'\t' | b'\n' | b'\r')));
    }
    if !url.is_empty() && scheme_len(&url).is_none() {
        url.splice(0..0, b"http://".iter().copied());
    }
    // `^(https?://)+` replaced by its last repetition.
    let mut at = 0;
    let mut last = None;
    loop {
        let rest = &url[at..];
        let n = if rest.starts_with(b"http://") {
            7
        } else if rest.starts_with(b"https://") {
            8
        } else {
            break;
        };
        last = Some(at);
        at += n;
    }
    if let Some(last) = last {
        url.drain(..last);
    }
    url
}

/// The package's split: RFC 2396's regular expression, then `urlsplit`'s host and port.
fn split(url: &[u8]) -> Result<Parts<'_>, SurtError> {
    let (scheme, rest) = match scheme_len(url) {
        Some(n) => (&url[..n], &url[n + 1..]),
        None => (&url[..0], url),
    };
    let (before_fragment, fragment) = match memchr::memchr(b'#', rest) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (netloc, after) = match before_fragment.strip_prefix(b"//") {
        Some(r) => r.split_at(authority_len(r)),
        None => (&before_fragment[..0], before_fragment),
    };
    let (path, query) = match memchr::memchr(b'?', after) {
        Some(i) => (&after[..i], &after[i + 1..]),
        None => (after, &after[..0]),
    };
    if scheme.is_empty() {
        return Err(SurtError::NoScheme);
    }
    let netloc = {
        let mut n = netloc;
        while let Some(r) = n.strip_suffix(b":") {
            n = r;
        }
        n
    };
    // `SplitResultBytes._hostinfo`, `.port`, `.hostname`.
    let hostinfo = host_port(netloc);
    let (hostname, port) = match memchr::memchr(b'[', hostinfo) {
        Some(i) => {
            let bracketed = &hostinfo[i + 1..];
            match memchr::memchr(b']', bracketed) {
                Some(j) => {
                    let tail = &bracketed[j + 1..];
                    let port = memchr::memchr(b':', tail).map_or(&tail[..0], |k| &tail[k + 1..]);
                    (&bracketed[..j], port)
                }
                None => (bracketed, &bracketed[..0]),
            }
        }
        None => match memchr::memchr(b':', hostinfo) {
            Some(i) => (&hostinfo[..i], &hostinfo[i + 1..]),
            None => (hostinfo, &hostinfo[..0]),
        },
    };
    let port = if port.is_empty() {
        None
    } else {
        let invalid = || SurtError::InvalidPort(String::from_utf8_lossy(port).into_owned());
        if !port.iter().all(u8::is_ascii_digit) {
            return Err(invalid());
        }
        let digits = &port[port.iter().position(|&b| b != b'0').unwrap_or(port.len())..];
        if digits.len() > 5 {
            return Err(invalid());
        }
        let value = digits
            .iter()
            .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
        if value > 65535 {
            return Err(invalid());
        }
        (value != 0).then_some(value)
    };
    let mut host = if hostname.is_empty() {
        None
    } else {
        // `hostname.lower()` before a `%`, the zone after it as it is.
        let mut h = hostname.to_vec();
        let cut = memchr::memchr(b'%', &h).unwrap_or(h.len());
        h[..cut].make_ascii_lowercase();
        Some(h)
    };
    let mut path = (!path.is_empty()).then(|| path.to_vec());
    if scheme.starts_with(b"http")
        && host.is_none()
        && let Some(p) = &path
    {
        let trimmed = &p[p.iter().position(|&b| b != b'/').unwrap_or(p.len())..];
        let (h, rest) = match memchr::memchr(b'/', trimmed) {
            Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
            None => (trimmed, &trimmed[..0]),
        };
        let mut new_path = Vec::with_capacity(rest.len() + 1);
        new_path.push(b'/');
        new_path.extend_from_slice(rest);
        host = Some(h.to_vec());
        path = Some(new_path);
    }
    let query = (!query.is_empty()).then(|| query.to_vec());
    let fragment = fragment.filter(|f| !f.is_empty()).map(<[u8]>::to_vec);
    let last_delimiter = url.ends_with(b"?") && query.is_none();
    Ok(Parts {
        scheme,
        host,
        port,
        path,
        query,
        fragment,
        last_delimiter,
    })
}

/// `escapeOnce(unescapeRepeatedly(x))`.
fn minimal_escape(x: &[u8], buf: &mut Vec<u8>) -> Vec<u8> {
    unescape_repeatedly(x, buf);
    escape_bytes(buf)
}

fn escape_bytes(x: &[u8]) -> Vec<u8> {
    let mut s = String::with_capacity(x.len());
    escape_into(x, &ESCAPE, &mut s);
    s.into_bytes()
}

/// Google's canonicalizer.
fn google(
    parts: &mut Parts<'_>,
    idna: &mut dyn FnMut(&[u8]) -> Option<Vec<u8>>,
) -> Result<(), SurtError> {
    let mut buf = Vec::new();
    parts.fragment = None;
    if let Some(q) = &parts.query {
        parts.query = Some(minimal_escape(q, &mut buf));
    }
    if let Some(h) = parts.host.as_ref().filter(|h| !h.is_empty()) {
        unescape_repeatedly(h, &mut buf);
        let mut host = std::mem::take(&mut buf);
        if !host.is_ascii()
            && let Some(ascii) = idna(&host)
        {
            host = ascii;
        }
        if crate::canon::has_pair(&host, b'.', b'.') {
            host = replace_double_dots(&host);
        }
        let start = host.iter().position(|&b| b != b'.').unwrap_or(host.len());
        let end = host
            .iter()
            .rposition(|&b| b != b'.')
            .map_or(start, |e| e + 1);
        let host = &mut host[start..end];
        parts.host = Some(match attempt_ip_formats(host)? {
            Some(ip) => ip.into_bytes(),
            None => {
                host.make_ascii_lowercase();
                escape_bytes(host)
            }
        });
    }
    let has_host = parts.host.as_ref().is_some_and(|h| !h.is_empty());
    parts.path = match parts.path.as_deref() {
        Some(p) => {
            unescape_repeatedly(p, &mut buf);
            Some(if has_host {
                escape_bytes(&normalize_path(&buf))
            } else {
                escape_bytes(&buf)
            })
        }
        None if has_host => Some(escape_bytes(&normalize_path(b""))),
        None => None,
    };
    Ok(())
}

/// Python's `replace(b'..', b'.')`: non-overlapping, left to right.
fn replace_double_dots(host: &[u8]) -> Vec<u8> {
    let mut fixed = Vec::with_capacity(host.len());
    let mut i = 0;
    while i < host.len() {
        fixed.push(host[i]);
        i += if host[i] == b'.' && host.get(i + 1) == Some(&b'.') {
            2
        } else {
            1
        };
    }
    fixed
}

/// `attemptIPFormats`: a host of digits only is an integer (its low 32 bits); one that
/// looks like a dotted decimal (first part without a leading zero) or octal (first part
/// with one) address is read as the C library's `inet_aton` reads it, where it can.
fn attempt_ip_formats(host: &[u8]) -> Result<Option<String>, SurtError> {
    // Every form below starts with a digit.
    if !host.first().is_some_and(u8::is_ascii_digit) {
        return Ok(None);
    }
    if host.iter().all(u8::is_ascii_digit) {
        if host.len() > 4300 {
            return Err(SurtError::HostTooManyDigits(host.len()));
        }
        let v = host.iter().fold(0u32, |v, &d| {
            v.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
        });
        return Ok(Some(dotted(v)));
    }
    let groups: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    let first = groups[0];
    let decimal = first.first().is_some_and(|b| (b'1'..=b'9').contains(b))
        && first.iter().all(u8::is_ascii_digit)
        && groups[1..]
            .iter()
            .all(|g| !g.is_empty() && g.iter().all(u8::is_ascii_digit));
    let octal = first.first() == Some(&b'0')
        && first.iter().all(|b| (b'0'..=b'7').contains(b))
        && groups[1..]
            .iter()
            .all(|g| !g.is_empty() && g.iter().all(|b| (b'0'..=b'7').contains(b)));
    if groups.len() > 4 || !(decimal || octal) {
        return Ok(None);
    }
    Ok(inet_aton(&groups).map(dotted))
}

fn dotted(v: u32) -> String {
    let b = v.to_be_bytes();
    format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])
}

/// `inet_aton` on parts of digits: each part octal after a leading `0`, decimal
/// otherwise; the last part fills the bytes the parts before it leave.
fn inet_aton(groups: &[&[u8]]) -> Option<u32> {
    let mut values = Vec::with_capacity(4);
    for g in groups {
        let (radix, digits) = if g.len() > 1 && g[0] == b'0' {
            (8, &g[1..])
        } else {
            (10, &g[..])
        };
        let mut v: u64 = 0;
        for &d in digits {
            let d = u64::from(d - b'0');
            if d >= radix {
                return None;
            }
            v = v * radix + d;
            if v > u64::from(u32::MAX) {
                return None;
            }
        }
        values.push(v);
    }
    let (last, init) = values.split_last()?;
    if init.iter().any(|&v| v > 255) {
        return None;
    }
    let room = 32 - 8 * init.len() as u32;
    if room < 32 && *last >= 1u64 << room {
        return None;
    }
    let mut addr = 0u64;
    for (i, &v) in init.iter().enumerate() {
        addr |= v << (24 - 8 * i);
    }
    Some((addr | last) as u32)
}

/// The Internet Archive's canonicalizer, each step as `options` says.
fn ia(parts: &mut Parts<'_>, options: &Options) {
    if let Some(h) = parts.host.as_mut().filter(|h| !h.is_empty()) {
        if options.host_lowercase {
            h.make_ascii_lowercase();
        }
        if options.host_massage && parts.scheme != b"dns" {
            let kept = strip_www_bytes(h).len();
            h.drain(..h.len() - kept);
        }
    }
    if options.port_strip_default {
        let default = if parts.scheme.eq_ignore_ascii_case(b"http") {
            80
        } else if parts.scheme.eq_ignore_ascii_case(b"https") {
            443
        } else {
            0
        };
        if parts.port == Some(default) {
            parts.port = None;
        }
    }
    if options.path_strip_empty && parts.path.as_deref() == Some(b"/") {
        parts.path = None;
    } else if let Some(mut path) = parts.path.take().filter(|p| !p.is_empty()) {
        if options.path_lowercase {
            path.make_ascii_lowercase();
        }
        if options.path_strip_session_id {
            path = strip_path_session_id_bytes(path);
        }
        if options.path_strip_empty && path == b"/" {
            parts.path = None;
        } else {
            if options.path_strip_trailing_slash_unless_empty
                && path.len() > 1
                && path.ends_with(b"/")
            {
                path.pop();
            }
            parts.path = Some(path);
        }
    }
    match parts.query.take().filter(|q| !q.is_empty()) {
        Some(mut q) => {
            if options.query_strip_session_id {
                q = strip_query_session_ids_bytes(q);
            }
            if options.query_lowercase {
                q.make_ascii_lowercase();
            }
            if options.query_alpha_reorder {
                q = alpha_reorder_bytes(&q);
            }
            if !(q.is_empty() && options.query_strip_empty) {
                parts.query = Some(q);
            }
        }
        None => {
            if options.query_strip_empty {
                parts.last_delimiter = false;
            }
        }
    }
}

/// The key: the host reversed (or as it is), the port, the path, the query.
fn write(parts: &Parts<'_>, options: &Options) -> Vec<u8> {
    let host_src: Option<std::borrow::Cow<'_, [u8]>> =
        parts.host.as_deref().filter(|h| !h.is_empty()).map(|h| {
            if options.surt {
                host_to_surt(h, options.reverse_ipaddr).into()
            } else {
                h.into()
            }
        });
    let len = |v: &Option<Vec<u8>>| v.as_ref().map_or(0, Vec::len);
    let mut s = Vec::with_capacity(
        parts.scheme.len()
            + parts.host.as_ref().map_or(0, Vec::len)
            + len(&parts.path)
            + len(&parts.query)
            + len(&parts.fragment)
            + 16,
    );
    if options.with_scheme {
        s.extend_from_slice(parts.scheme);
        s.push(b':');
        if host_src.is_some() {
            if parts.scheme != b"dns" {
                s.extend_from_slice(b"//");
            }
            if options.surt {
                s.push(b'(');
            }
        }
    } else if host_src.is_none() {
        s.extend_from_slice(parts.scheme);
        s.push(b':');
    }
    if let Some(h) = &host_src {
        s.extend_from_slice(h);
        if let Some(p) = parts.port {
            s.push(b':');
            s.extend_from_slice(p.to_string().as_bytes());
        }
        if options.surt {
            if options.trailing_comma {
                s.push(b',');
            }
            s.push(b')');
        }
    }
    match parts.path.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => s.extend_from_slice(p),
        None if parts.query.is_some() || parts.fragment.is_some() => s.push(b'/'),
        None => {}
    }
    if let Some(q) = &parts.query {
        s.push(b'?');
        s.extend_from_slice(q);
    }
    if let Some(f) = &parts.fragment {
        s.push(b'#');
        s.extend_from_slice(f);
    }
    if parts.last_delimiter {
        s.push(b'?');
    }
    s
}

/// `hostToSURT`: labels reversed and joined by commas, unless the host is a dotted
/// address kept as it is (`reverse_ipaddr=False`).
fn host_to_surt(host: &[u8], reverse_ipaddr: bool) -> Vec<u8> {
    if !reverse_ipaddr && looks_like_ipv4(host) {
        return host.to_vec();
    }
    let mut out = Vec::with_capacity(host.len());
    for (i, label) in host.rsplit(|&b| b == b'.').enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(label);
    }
    out
}

/// `(?:(?:\d{1,3}\.){3}\d{1,3})$` from the start (a trailing newline allowed by `$`).
fn looks_like_ipv4(host: &[u8]) -> bool {
    let host = host.strip_suffix(b"\n").unwrap_or(host);
    let groups: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    groups.len() == 4
        && groups
            .iter()
            .all(|g| (1..=3).contains(&g.len()) && g.iter().all(u8::is_ascii_digit))
}

fn strip_www_bytes(host: &[u8]) -> &[u8] {
    match std::str::from_utf8(host) {
        Ok(text) => {
            let kept = strip_www(text).len();
            &host[host.len() - kept..]
        }
        Err(_) => {
            // Only ASCII decides: the prefix `www`, digits, `.`.
            let ascii = host
                .iter()
                .position(|b| !b.is_ascii())
                .unwrap_or(host.len());
            let text = std::str::from_utf8(&host[..ascii]).unwrap_or("");
            let kept = strip_www(text).len();
            &host[ascii - kept..]
        }
    }
}

/// Runs `f` on `bytes` read as Latin-1 text (one char per byte) and back: the shared
/// steps are written for `&str`, and every one of them matches ASCII only.
fn on_latin1(bytes: &[u8], f: impl FnOnce(&str) -> String) -> Vec<u8> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return f(text).into_bytes();
    }
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    f(&text).chars().map(|c| c as u32 as u8).collect()
}

/// Whether `hay` holds `needle`, ASCII case ignored.
fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

fn strip_path_session_id_bytes(path: Vec<u8>) -> Vec<u8> {
    // Both patterns need a `.aspx` after the segment.
    if !contains_ignore_case(&path, b".aspx") {
        return path;
    }
    on_latin1(&path, strip_path_session_id)
}

fn strip_query_session_ids_bytes(q: Vec<u8>) -> Vec<u8> {
    // Every pattern holds one of these (`phpsessid=` ends in `sid=`).
    if ![&b"sessionid"[..], b"sid=", b"cfid="]
        .iter()
        .any(|n| contains_ignore_case(&q, n))
    {
        return q;
    }
    on_latin1(&q, strip_query_session_ids)
}

fn alpha_reorder_bytes(q: &[u8]) -> Vec<u8> {
    if q.len() <= 1 {
        return q.to_vec();
    }
    let mut args: Vec<(&[u8], Option<&[u8]>)> = q
        .split(|&b| b == b'&')
        .map(|arg| match memchr::memchr(b'=', arg) {
            Some(i) => (&arg[..i], Some(&arg[i + 1..])),
            None => (arg, None),
        })
        .collect();
    args.sort_unstable();
    let mut out = Vec::with_capacity(q.len());
    for (i, (name, value)) in args.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(name);
        if let Some(v) = value {
            out.push(b'=');
            out.extend_from_slice(v);
        }
    }
    out
}
