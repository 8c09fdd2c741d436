//! w3lib's `canonicalize_url` on a raw input, split as w3lib splits it (its own
//! `urlsplit`, not the WHATWG parser): what `rapidurl.compat.w3lib.canonicalize_url`
//! returns.
//!
//! The steps, in w3lib's order: the input trimmed of C0 controls and spaces and its tabs
//! and newlines removed; split into scheme (lower-cased), authority, path, query and
//! fragment (a `\` before the query is a `/` for a special scheme; a bracketed host
//! must be an IPv6 address; a port a number up to 65535); each part made safe (the
//! credentials decoded and encoded again, the host lower-cased and converted by IDNA
//! where it is not ASCII, the path, query and fragment percent-encoded where they hold
//! bytes outside RFC 3986's sets); the path's parameters split off after a `;` in its
//! last segment; the query's arguments decoded, sorted and encoded again; the path's
//! escapes decoded (but `%25 %2F %3B %3F`) and encoded again, its dot segments resolved;
//! the fragment dropped unless kept; an IPv6 host written in its RFC 5952 form.
//!
//! The few steps that are Python's own (an encoding other than UTF-8, IDNA 2003,
//! Unicode normalization, `ipaddress`) go through an [`Environment`]; [`RustEnvironment`]
//! gives rapidurl's nearest equivalents.

use super::super::{ByteSet, escape_into, escape_with};
use super::Options;
use crate::percent::push_pct;
use std::borrow::Cow;
use std::fmt;

/// The caller's encoding cannot write a query or fragment (w3lib then starts again in
/// UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unencodable;

impl fmt::Display for Unencodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the encoding cannot write the query or fragment")
    }
}

impl std::error::Error for Unencodable {}

/// What Python's `ipaddress.ip_address` reads a text as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IpAddress {
    /// An IPv4 address.
    V4,
    /// An IPv6 address, in its RFC 5952 form (`str(address)`).
    V6(String),
}

/// The steps of `canonicalize_url` that are Python's own, asked of the caller.
pub trait Environment {
    /// Appends `text` in the caller's encoding (`text.encode(encoding)`), for the query
    /// and the fragment; [`Unencodable`] where the encoding cannot write `text`.
    fn encode(&mut self, text: &str, out: &mut Vec<u8>) -> Result<(), Unencodable> {
        out.extend_from_slice(text.as_bytes());
        Ok(())
    }

    /// A host that is not ASCII as w3lib writes it: lower-cased (but for a zone after
    /// `%`), NFKC-normalized and converted by IDNA 2003, or its UTF-8 bytes where that
    /// fails.
    fn host(&mut self, hostname: &str) -> Vec<u8>;

    /// Whether Unicode normalization (NFKC) of an authority that is not ASCII introduces
    /// a delimiter (`/ ? # @ : \`), which w3lib rejects.
    fn netloc_normalizes_to_a_delimiter(&mut self, netloc: &str) -> bool;

    /// Python's `ipaddress.ip_address(text)`: `None` where `text` is no IP address.
    fn ip_address(&mut self, text: &str) -> Option<IpAddress>;
}

/// rapidurl's nearest equivalents of Python's steps: UTF-8; UTS #46 (not strict) for
/// IDNA 2003, which it follows but for a few code points (`ß`, `ς`, ZWJ); no
/// normalization check; IPv4 and IPv6 addresses as the WHATWG parser reads them (no
/// zone identifiers).
#[derive(Clone, Copy, Debug, Default)]
pub struct RustEnvironment;

impl Environment for RustEnvironment {
    fn host(&mut self, hostname: &str) -> Vec<u8> {
        let lower = hostname.to_lowercase();
        match crate::host::domain_to_ascii(&lower, false) {
            Ok(ascii) => ascii.into_bytes(),
            Err(_) => lower.into_bytes(),
        }
    }

    fn netloc_normalizes_to_a_delimiter(&mut self, _netloc: &str) -> bool {
        false
    }

    fn ip_address(&mut self, text: &str) -> Option<IpAddress> {
        if let Ok(addr) = crate::host::parse_ipv6(text) {
            let mut out = String::new();
            crate::host::serialize_ipv6(&addr, &mut out);
            return Some(IpAddress::V6(out.trim_matches(['[', ']']).to_owned()));
        }
        let v4 = text.split('.').count() == 4
            && text
                .split('.')
                .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
            && text
                .split('.')
                .all(|p| p.parse::<u16>().is_ok_and(|v| v <= 255))
            && text.split('.').all(|p| p == "0" || !p.starts_with('0'));
        v4.then_some(IpAddress::V4)
    }
}

/// An input on which `canonicalize_url` raises `ValueError`; the message is w3lib's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScrapyError(pub String);

impl fmt::Display for ScrapyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScrapyError {}

fn err<T>(message: impl Into<String>) -> Result<T, ScrapyError> {
    Err(ScrapyError(message.into()))
}

/// w3lib's `canonicalize_url(input, **options)` with Python's own steps asked of `env`.
///
/// ```
/// use rapidurl::canon::scrapy::{Options, RustEnvironment, scrapy_input_with};
/// let key = scrapy_input_with("a?b=1&a=2#frag", &Options::default(), &mut RustEnvironment);
/// assert_eq!(key.unwrap(), "a?a=2&b=1");
/// let key = scrapy_input_with("foo://Example.COM/x", &Options::default(), &mut RustEnvironment);
/// assert_eq!(key.unwrap(), "foo://example.com/x");
/// ```
pub fn scrapy_input_with(
    input: &str,
    options: &Options,
    env: &mut dyn Environment,
) -> Result<String, ScrapyError> {
    if let Some(key) = plain(input, options, env) {
        return key;
    }
    steps(input, options, env)
}

/// w3lib's steps one by one (what [`plain`] shortens for the inputs it takes).
fn steps(input: &str, options: &Options, env: &mut dyn Environment) -> Result<String, ScrapyError> {
    let parts = match safe_split(input, env, false)? {
        Some(parts) => parts,
        None => safe_split(input, env, true)?.unwrap_or_default(),
    };
    canonicalize(parts, options, env)
}

/// [`scrapy_input_with`] with [`RustEnvironment`].
pub fn scrapy_input(input: &str, options: &Options) -> Result<String, ScrapyError> {
    scrapy_input_with(input, options, &mut RustEnvironment)
}

#[derive(Default)]
struct Safe {
    scheme: String,
    netloc: String,
    path: String,
    query: String,
    fragment: String,
}

const SPECIAL: [&str; 6] = ["ftp", "file", "http", "https", "ws", "wss"];

/// `urllib.parse.uses_params`.
const USES_PARAMS: [&str; 16] = [
    "", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp", "rtsps", "rtspu",
    "sip", "sips", "mms", "sftp", "tel",
];

/// `urllib.parse.uses_netloc`.
const USES_NETLOC: [&str; 26] = [
    "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp",
    "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git",
    "git+ssh", "ws", "wss",
];

const UNRESERVED: &[u8] = b"-._~";
const USERINFO: ByteSet = ByteSet::all_but_alnum_and(b"-._~!$&'()*+,");
const PATH_SAFEST: ByteSet = ByteSet::all_but_alnum_and(b"-._~:/?@!$&'()*+,;=%");
const SPECIAL_QUERY_SAFEST: ByteSet = ByteSet::all_but_alnum_and(b"-._~:/?@!$&()*+,;=%");
const PATH_SAFE: ByteSet = ByteSet::all_but_alnum_and(b"-._~:/?[]@!$&'()*+,;=|%");
const FORM: ByteSet = ByteSet::all_but_alnum_and(UNRESERVED);

fn quote_into(bytes: &[u8], set: &ByteSet, out: &mut String) {
    escape_into(bytes, set, out);
}

/// `_strip`: C0 controls and spaces trimmed, tabs and newlines removed.
fn strip(input: &str) -> Cow<'_, str> {
    if !input.bytes().any(|b| b <= b' ') {
        return input.into();
    }
    input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .into()
}

/// `_safe_url_split`; `None` where the encoding cannot write the query or fragment.
fn safe_split(
    input: &str,
    env: &mut dyn Environment,
    utf8: bool,
) -> Result<Option<Safe>, ScrapyError> {
    let url = strip(input);
    let (scheme, rest) = split_scheme(&url);
    // For a special scheme, `\` before the query or fragment is `/`.
    let rest: Cow<'_, str> = if SPECIAL.contains(&scheme.as_str()) && rest.contains('\\') {
        let cut = rest.find(['?', '#']).unwrap_or(rest.len());
        (rest[..cut].replace('\\', "/") + &rest[cut..]).into()
    } else {
        rest.into()
    };
    let parts = urlsplit(scheme, &rest, env)?;
    let mut netloc = String::with_capacity(parts.netloc_len + 2);
    if let Some(user) = parts.username {
        quote_into(&unquote(user.as_bytes()), &USERINFO, &mut netloc);
        if let Some(pass) = parts.password {
            netloc.push(':');
            quote_into(&unquote(pass.as_bytes()), &USERINFO, &mut netloc);
        }
        netloc.push('@');
    }
    let hostname = parts.hostname;
    if hostname.contains(':') {
        netloc.push('[');
        push_lower_host(hostname, &mut netloc);
        netloc.push(']');
    } else if hostname.is_ascii() {
        push_lower_host(hostname, &mut netloc);
    } else {
        let bytes = env.host(hostname);
        netloc.push_str(&String::from_utf8_lossy(&bytes));
    }
    if let Some(port) = parts.port {
        netloc.push(':');
        netloc.push_str(&port.to_string());
    }
    let mut path = String::with_capacity(parts.path.len() + 1);
    quote_into(parts.path.as_bytes(), &PATH_SAFEST, &mut path);
    let special = SPECIAL.contains(&parts.scheme.as_str());
    let mut buf = Vec::new();
    let Ok(encoded) = encode(parts.query, utf8, env, &mut buf) else {
        return Ok(None);
    };
    let mut query = String::with_capacity(encoded.len());
    quote_into(
        encoded,
        if special {
            &SPECIAL_QUERY_SAFEST
        } else {
            &PATH_SAFEST
        },
        &mut query,
    );
    let mut fragment = String::new();
    if !parts.fragment.is_empty() {
        let mut buf = Vec::new();
        let Ok(encoded) = encode(parts.fragment, utf8, env, &mut buf) else {
            return Ok(None);
        };
        quote_into(encoded, &PATH_SAFEST, &mut fragment);
    }
    if path.is_empty() && !query.is_empty() && special {
        path.push('/');
    }
    Ok(Some(Safe {
        scheme: parts.scheme,
        netloc,
        path,
        query,
        fragment,
    }))
}

/// `text` in the caller's encoding: its own bytes in UTF-8, else written into `buf` by
/// `env`.
fn encode<'t>(
    text: &'t str,
    utf8: bool,
    env: &mut dyn Environment,
    buf: &'t mut Vec<u8>,
) -> Result<&'t [u8], Unencodable> {
    if utf8 {
        return Ok(text.as_bytes());
    }
    buf.clear();
    env.encode(text, buf)?;
    Ok(&buf[..])
}

/// Appends the host lower-cased before a `%` (a zone identifier keeps its case).
fn push_lower_host(host: &str, out: &mut String) {
    let (h, zone) = match host.split_once('%') {
        Some((h, zone)) => (h, Some(zone)),
        None => (host, None),
    };
    if h.is_ascii() {
        let start = out.len();
        out.push_str(h);
        out[start..].make_ascii_lowercase();
    } else {
        out.push_str(&h.to_lowercase());
    }
    if let Some(zone) = zone {
        out.push('%');
        out.push_str(zone);
    }
}

/// The parts of a stripped input, borrowed from it.
struct Split<'a> {
    scheme: String,
    path: &'a str,
    query: &'a str,
    fragment: &'a str,
    username: Option<&'a str>,
    password: Option<&'a str>,
    hostname: &'a str,
    port: Option<u32>,
    /// The authority's length.
    netloc_len: usize,
}

/// The scheme of a stripped input (lower-cased, empty when there is none) and the rest.
fn split_scheme(url: &str) -> (String, &str) {
    let b = url.as_bytes();
    if b.first().is_some_and(u8::is_ascii_alphabetic) {
        let n = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')));
        if let Some(n) = n.filter(|&n| b[n] == b':') {
            return (url[..n].to_ascii_lowercase(), &url[n + 1..]);
        }
    }
    (String::new(), url)
}

/// w3lib's `_urlsplit` on a stripped input after its scheme (`\` already made `/` for a
/// special scheme).
fn urlsplit<'a>(
    scheme: String,
    rest: &'a str,
    env: &mut dyn Environment,
) -> Result<Split<'a>, ScrapyError> {
    let (netloc, after) = match rest.strip_prefix("//") {
        Some(r) => {
            let delim = r.find(['/', '?', '#']).unwrap_or(r.len());
            let netloc = &r[..delim];
            if netloc.contains('[') != netloc.contains(']') {
                return err("Invalid IPv6 URL");
            }
            if netloc.contains('[') {
                check_bracketed_netloc(netloc, env)?;
            }
            (netloc, &r[delim..])
        }
        None => ("", rest),
    };
    if !netloc.is_ascii() && env.netloc_normalizes_to_a_delimiter(netloc) {
        return err(format!(
            "netloc {} contains invalid characters under NFKC normalization",
            python_repr(netloc)
        ));
    }
    let (before_fragment, fragment) = after.split_once('#').unwrap_or((after, ""));
    let (path, query) = before_fragment
        .split_once('?')
        .unwrap_or((before_fragment, ""));
    let (userinfo, hostinfo) = match netloc.rfind('@') {
        Some(i) => (Some(&netloc[..i]), &netloc[i + 1..]),
        None => (None, netloc),
    };
    let (username, password) = match userinfo {
        Some(u) => match u.split_once(':') {
            Some((user, pass)) => (Some(user), Some(pass)),
            None => (Some(u), None),
        },
        None => (None, None),
    };
    let (hostname, port) = if netloc.contains('[') {
        let inner = hostinfo.split_once('[').map_or("", |(_, r)| r);
        let (host, tail) = inner.split_once(']').unwrap_or((inner, ""));
        (host, tail.split_once(':').map_or("", |(_, p)| p))
    } else {
        hostinfo.split_once(':').unwrap_or((hostinfo, ""))
    };
    let port = if port.is_empty() {
        None
    } else if !port.bytes().all(|c| c.is_ascii_digit()) {
        return err(format!("Port could not be cast to integer value as {port}"));
    } else {
        let digits = port.trim_start_matches('0');
        match digits.parse::<u32>() {
            Ok(v) if v <= 65535 => Some(v),
            _ if digits.is_empty() => Some(0),
            _ => return err("Port out of range 0-65535"),
        }
    };
    Ok(Split {
        scheme,
        path,
        query,
        fragment,
        username,
        password,
        hostname,
        port,
        netloc_len: netloc.len(),
    })
}

/// `repr()` of a Python `str` without quotes or backslashes in it.
fn python_repr(s: &str) -> String {
    if s.contains('\'') && !s.contains('"') {
        format!("\"{s}\"")
    } else {
        format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// `_check_bracketed_netloc`: brackets only around the whole host, which is an IPv6
/// address or an IPvFuture literal.
fn check_bracketed_netloc(netloc: &str, env: &mut dyn Environment) -> Result<(), ScrapyError> {
    let host_and_port = netloc.rsplit_once('@').map_or(netloc, |(_, h)| h);
    let hostname = match host_and_port.split_once('[') {
        Some((before, bracketed)) => {
            if !before.is_empty() {
                return err("Invalid IPv6 URL");
            }
            let (host, port) = bracketed.split_once(']').unwrap_or((bracketed, ""));
            if !port.is_empty() && !port.starts_with(':') {
                return err("Invalid IPv6 URL");
            }
            host
        }
        None => host_and_port
            .split_once(':')
            .map_or(host_and_port, |(h, _)| h),
    };
    if hostname.starts_with(['v', 'V']) {
        // `\Av[a-fA-F0-9]+\..+\Z`
        let ok = hostname.strip_prefix('v').is_some_and(|r| {
            let hex = r.bytes().take_while(u8::is_ascii_hexdigit).count();
            hex > 0 && r[hex..].starts_with('.') && r.len() > hex + 1
        });
        return if ok {
            Ok(())
        } else {
            err("IPvFuture address is invalid")
        };
    }
    match env.ip_address(hostname) {
        Some(IpAddress::V6(_)) => Ok(()),
        Some(IpAddress::V4) => err("An IPv4 address cannot be in brackets"),
        None => err(format!(
            "{} does not appear to be an IPv4 or IPv6 address",
            python_repr(hostname)
        )),
    }
}

/// `_unquote`: each `%XX` decoded.
fn unquote(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    crate::percent::decode_into(s, false, &mut out);
    out
}

/// Bytes borrowed from the input, or decoded from it.
type Bytes<'a> = Cow<'a, [u8]>;

/// `_unquote_plus`: each `%XX` decoded, `+` a space (`s` itself when it has neither).
fn unquote_plus(s: &[u8]) -> Cow<'_, [u8]> {
    if !s.iter().any(|&b| b == b'%' || b == b'+') {
        return Cow::Borrowed(s);
    }
    let mut out = Vec::with_capacity(s.len());
    crate::percent::decode_into(s, true, &mut out);
    Cow::Owned(out)
}

/// `canonicalize_url`'s steps after the split.
fn canonicalize(
    parts: Safe,
    options: &Options,
    env: &mut dyn Environment,
) -> Result<String, ScrapyError> {
    let Safe {
        scheme,
        netloc,
        path,
        query,
        fragment,
    } = parts;
    let (path, params) = if USES_PARAMS.contains(&scheme.as_str()) {
        let from = path.rfind('/').map_or(0, |i| i + 1);
        match path[from..].find(';') {
            Some(i) => (&path[..from + i], &path[from + i + 1..]),
            None => (&path[..], ""),
        }
    } else {
        (&path[..], "")
    };
    let mut out_query = String::new();
    push_query(&query, options, &mut out_query)?;
    let mut out_path = String::with_capacity(path.len() + 1);
    if path.is_empty() {
        out_path.push('/');
    } else {
        quote_into(&unquote_path(path), &PATH_SAFE, &mut out_path);
    }
    if out_path.starts_with('/') && out_path.contains("/.") {
        out_path = remove_dot_segments(&out_path);
    }
    let fragment = if options.keep_fragments {
        fragment
    } else {
        String::new()
    };
    let (userinfo, host) = match netloc.rfind('@') {
        Some(i) => (&netloc[..=i], &netloc[i + 1..]),
        None => ("", &netloc[..]),
    };
    let mut lowered = String::with_capacity(netloc.len());
    lowered.push_str(userinfo);
    if host.is_ascii() {
        lowered.push_str(host);
        lowered[userinfo.len()..].make_ascii_lowercase();
    } else {
        lowered.push_str(&host.to_lowercase());
    }
    if lowered.ends_with(':') {
        lowered.pop();
    }
    let netloc = normalize_ipv6_host(lowered, env);
    let mut url = out_path;
    if !params.is_empty() {
        url.push(';');
        url.push_str(params);
    }
    let mut out = String::with_capacity(scheme.len() + netloc.len() + url.len() + 8);
    if !scheme.is_empty() {
        out.push_str(&scheme);
        out.push(':');
    }
    if !netloc.is_empty() {
        out.push_str("//");
        out.push_str(&netloc);
        if !url.is_empty() && !url.starts_with('/') {
            out.push('/');
        }
    } else if url.starts_with("//")
        || (!scheme.is_empty()
            && USES_NETLOC.contains(&scheme.as_str())
            && (url.is_empty() || url.starts_with('/')))
    {
        out.push_str("//");
    }
    out.push_str(&url);
    if !out_query.is_empty() {
        out.push('?');
        out.push_str(&out_query);
    }
    if !fragment.is_empty() {
        out.push('#');
        out.push_str(&fragment);
    }
    Ok(out)
}

/// Appends the query's arguments decoded, sorted and encoded again (`parse_qsl`, `sorted`,
/// `urlencode` in w3lib), joined by the separator; nothing for an empty query or one whose
/// arguments are all dropped.
fn push_query(query: &str, options: &Options, out: &mut String) -> Result<(), ScrapyError> {
    if query.is_empty() {
        return Ok(());
    }
    let sep = options.query_separator.as_bytes();
    if sep.is_empty() {
        return err("empty separator");
    }
    let mut args: Vec<(Bytes<'_>, Bytes<'_>)> = Vec::new();
    for field in split_bytes(query.as_bytes(), sep) {
        if field.is_empty() {
            continue;
        }
        let (name, value, has_eq) = match memchr::memchr(b'=', field) {
            Some(i) => (&field[..i], &field[i + 1..], true),
            None => (field, &field[..0], false),
        };
        if !options.keep_blank_values && (!has_eq || value.is_empty()) {
            continue;
        }
        args.push((unquote_plus(name), unquote_plus(value)));
    }
    if args.len() > 1 {
        args.sort();
    }
    for (i, (name, value)) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(&options.query_separator);
        }
        quote_plus_into(name, out);
        out.push('=');
        quote_plus_into(value, out);
    }
    Ok(())
}

/// [`CLASS`] bits: a byte outside `!`..`~` or a `\\`.
const NOT_PRINTABLE: u8 = 1;
/// A byte an authority of [`plain`] cannot hold: `[`, `]`, `@`, `%`.
const NOT_HOST: u8 = 2;
/// A byte [`plain`]'s path cannot hold: one the path is escaped for, `%` or `;`.
const NOT_PATH: u8 = 4;
/// A byte the query of a special URL is escaped for.
const NOT_QUERY: u8 = 8;
/// A byte the fragment is escaped for.
const NOT_FRAGMENT: u8 = 16;

/// What each byte keeps [`plain`] from taking an input, by part.
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        if b < 0x21 || b > 0x7e || b == b'\\' {
            c |= NOT_PRINTABLE;
        }
        if matches!(b, b'[' | b']' | b'@' | b'%') {
            c |= NOT_HOST;
        }
        if PATH_SAFEST.0[i] || b == b'%' || b == b';' {
            c |= NOT_PATH;
        }
        if SPECIAL_QUERY_SAFEST.0[i] {
            c |= NOT_QUERY;
        }
        if PATH_SAFEST.0[i] {
            c |= NOT_FRAGMENT;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// The union of the [`CLASS`] bits of `text`'s bytes.
#[inline]
fn classes(text: &str) -> u8 {
    text.bytes().fold(0, |acc, b| acc | CLASS[b as usize])
}

/// The key of an `http` or `https` input that every step but the query's leaves as it is
/// (`None` for any other input, which takes the steps one by one): printable ASCII
/// without `\\`; an authority without credentials, brackets or `%`, a host, and a port of
/// digits without a leading zero up to 65535 if any; a path of bytes that need no
/// escaping, without `%`, `;` or a dot segment; a query and a kept fragment of bytes that
/// need no escaping, which the caller's encoding writes as they are. The key is then the
/// scheme and host lower-cased, the port and path (or `/`) as they are, the query's
/// arguments sorted ([`push_query`]) and the fragment if kept.
fn plain(
    input: &str,
    options: &Options,
    env: &mut dyn Environment,
) -> Option<Result<String, ScrapyError>> {
    let b = input.as_bytes();
    let colon = memchr::memchr(b':', b)?;
    let scheme = &input[..colon];
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let rest = input[colon + 1..].strip_prefix("//")?;
    let end = rest
        .bytes()
        .position(|c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let (netloc, after) = rest.split_at(end);
    if classes(netloc) & (NOT_PRINTABLE | NOT_HOST) != 0 {
        return None;
    }
    let (host, port) = match memchr::memchr(b':', netloc.as_bytes()) {
        Some(i) => (&netloc[..i], &netloc[i + 1..]),
        None => (netloc, ""),
    };
    let port_ok = port.is_empty()
        || (port.len() <= 5
            && !port.starts_with('0')
            && port.bytes().all(|c| c.is_ascii_digit())
            && port.parse::<u32>().is_ok_and(|p| p <= 65535));
    if host.is_empty() || !port_ok {
        return None;
    }
    let (before_fragment, fragment) = match memchr::memchr(b'#', after.as_bytes()) {
        Some(i) => (&after[..i], &after[i + 1..]),
        None => (after, ""),
    };
    let (path, query) = match memchr::memchr(b'?', before_fragment.as_bytes()) {
        Some(i) => (&before_fragment[..i], &before_fragment[i + 1..]),
        None => (before_fragment, ""),
    };
    // The scheme's bytes are letters; a dropped fragment need only be printable.
    let fragment_not = if options.keep_fragments {
        NOT_PRINTABLE | NOT_FRAGMENT
    } else {
        NOT_PRINTABLE
    };
    if classes(path) & (NOT_PRINTABLE | NOT_PATH) != 0
        || crate::canon::has_pair(path.as_bytes(), b'/', b'.')
        || classes(query) & (NOT_PRINTABLE | NOT_QUERY) != 0
        || classes(fragment) & fragment_not != 0
    {
        return None;
    }
    let fragment = if options.keep_fragments { fragment } else { "" };
    // The query and fragment in the caller's encoding must be their own bytes.
    let mut buf = Vec::new();
    for text in [query, fragment] {
        if !text.is_empty() && encode(text, false, env, &mut buf).ok()? != text.as_bytes() {
            return None;
        }
    }
    let mut out = String::with_capacity(input.len() + 2);
    out.push_str(scheme);
    out.push_str("://");
    out.push_str(host);
    out.make_ascii_lowercase();
    if !port.is_empty() {
        out.push(':');
        out.push_str(port);
    }
    out.push_str(if path.is_empty() { "/" } else { path });
    let at = out.len();
    out.push('?');
    if let Err(e) = push_query(query, options, &mut out) {
        return Some(Err(e));
    }
    if out.len() == at + 1 {
        out.pop();
    }
    if !fragment.is_empty() {
        out.push('#');
        out.push_str(fragment);
    }
    Some(Ok(out))
}

/// `bytes.split(sep)` (a non-empty `sep`).
fn split_bytes<'a>(s: &'a [u8], sep: &'a [u8]) -> impl Iterator<Item = &'a [u8]> + 'a {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match memchr::memmem::find(r, sep) {
            Some(i) => {
                rest = Some(&r[i + sep.len()..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// `quote(…, quote_plus=True)`: unreserved bytes as they are, space as `+`, else `%XX`.
fn quote_plus_into(bytes: &[u8], out: &mut String) {
    escape_with(bytes, &FORM, out, |out, b| match b {
        b' ' => out.push('+'),
        _ => push_pct(out, b),
    });
}

/// `_unquotepath`: every escape decoded but `%25`, `%2F`, `%3B`, `%3F`, found as w3lib
/// finds them (one `str.replace` after the other, then one decoding pass).
fn unquote_path(path: &str) -> Cow<'_, [u8]> {
    if !path.contains('%') {
        return Cow::Borrowed(path.as_bytes());
    }
    let p = path
        .replace("%25", "%2525")
        .replace("%2f", "%252F")
        .replace("%2F", "%252F")
        .replace("%3b", "%253B")
        .replace("%3B", "%253B")
        .replace("%3f", "%253F")
        .replace("%3F", "%253F");
    Cow::Owned(unquote(p.as_bytes()))
}

/// `_remove_dot_segments` (RFC 3986, 5.2.4) on a path that starts with `/` and holds a
/// `/.` (any other path is its own result).
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path[1..].split('/').collect();
    let (last, init) = segments.split_last().unwrap_or((&"", &[]));
    let mut output: Vec<&str> = Vec::new();
    for &segment in init {
        if segment == ".." {
            output.pop();
        } else if segment != "." {
            output.push(segment);
        }
    }
    match *last {
        ".." => {
            output.pop();
            output.push("");
        }
        "." => output.push(""),
        other => output.push(other),
    }
    format!("/{}", output.join("/"))
}

/// `_normalize_ipv6_host`: the address between the first `[` and the `]` after it in
/// its RFC 5952 form, where it is an IPv6 address.
fn normalize_ipv6_host(netloc: String, env: &mut dyn Environment) -> String {
    let Some(start) = netloc.find('[') else {
        return netloc;
    };
    let Some(len) = netloc[start..].find(']') else {
        return netloc;
    };
    let end = start + len;
    match env.ip_address(&netloc[start + 1..end]) {
        Some(IpAddress::V6(form)) => {
            format!("{}[{form}]{}", &netloc[..start], &netloc[end + 1..])
        }
        _ => netloc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Inputs near the edges of what [`plain`] takes: schemes, hosts, ports, paths,
    /// queries and fragments, each plain or one byte away from it.
    fn near_plain() -> impl Strategy<Value = String> {
        let pick = |items: &'static [&'static str]| proptest::sample::select(items);
        (
            pick(&[
                "http://",
                "https://",
                "HTTP://",
                "HtTpS://",
                "http:",
                "http:///",
                "ftp://",
                "http+x://",
            ]),
            pick(&[
                "a.com",
                "Example.COM",
                "",
                ":80",
                "host:",
                "host:0",
                "host:080",
                "host:8080",
                "host:65535",
                "host:65536",
                "host:1:2",
                "u@h",
                "[::1]",
                "h%41",
                "a_b.com",
            ]),
            pick(&[
                "",
                "/",
                "/A/b",
                "/a;b",
                "/a/./b",
                "/a/../b",
                "/.",
                "/a%2F",
                "/a|b",
                "/a b",
                "/a\"b",
                "/a[b]",
                "/~x",
                "/a:b@c",
                "/a+b*c,d=e!f'g(h)$i&j",
                "//x",
                "/a^b",
                "/a\\b",
            ]),
            pick(&[
                "",
                "?",
                "?a=1",
                "?b=2&a=1",
                "?a",
                "?a=",
                "?&&a=1&&",
                "?q=a+b",
                "?q=%41%2b",
                "?q=a b",
                "?q=\"x\"",
                "?q=<x>",
                "?q='x'",
                "?q=;x",
                "?q=a/b?c",
                "?q=%zz",
                "?a=1;b=2",
                "?\u{e9}=1",
                "?q=^",
            ]),
            pick(&[
                "", "#", "#f", "#a b", "#a\"b", "#%41", "#a#b", "#<x>", "#\u{e9}", "#a?b",
            ]),
        )
            .prop_map(|(a, b, c, d, e)| format!("{a}{b}{c}{d}{e}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

        /// [`plain`]'s key, where it gives one, is that of w3lib's steps, for every option.
        #[test]
        fn plain_keys_are_those_of_the_steps(
            input in near_plain(),
            keep_blank_values: bool,
            keep_fragments: bool,
            separator in proptest::sample::select(&["&", ";", "", "&&"][..]),
        ) {
            let options = Options {
                keep_blank_values,
                keep_fragments,
                query_separator: separator.to_string(),
            };
            if let Some(key) = plain(&input, &options, &mut RustEnvironment) {
                let want = steps(&input, &options, &mut RustEnvironment);
                prop_assert_eq!(key.map_err(|e| e.0), want.map_err(|e| e.0), "{}", input);
            }
        }
    }

    #[test]
    fn common_urls_take_the_plain_path() {
        let options = Options::default();
        for url in [
            "https://www.Example.com/a/b?z=1&a=2#top",
            "http://example.com:8080",
            "http://example.com/path/to/page.html?q=a+b&lang=en",
        ] {
            assert!(
                plain(url, &options, &mut RustEnvironment).is_some(),
                "{url}"
            );
        }
    }
}
