//! Scrapy's canonical form: `w3lib.url.canonicalize_url(url)` with its defaults, on the
//! WHATWG parse.

mod input;

pub use self::input::{
    Environment, IpAddress, RustEnvironment, ScrapyError, Unencodable, scrapy_input,
    scrapy_input_with,
};

use super::{ByteSet, escape_into, is_unreserved};
use crate::components::SchemeKind;
use crate::percent::{hex_value, push_pct};
use crate::view::UrlRef;

/// What w3lib encodes in the path: all but the unreserved bytes, RFC 3986's reserved
/// bytes but `#`, `|` and `%`.
const PATH: ByteSet = ByteSet::all_but_alnum_and(b"-._~:/?[]@!$&'()*+,;=|%");
/// What w3lib encodes in a user name or password: all but the unreserved bytes and
/// ``!$&'()*+,``.
const USERINFO: ByteSet = ByteSet::all_but_alnum_and(b"-._~!$&'()*+,");
/// What w3lib encodes in a query name or value (space aside, which becomes `+`): all but
/// the unreserved bytes.
const FORM: ByteSet = ByteSet::all_but_alnum_and(b"-._~");
/// What w3lib encodes in path parameters (after `;`) of a WHATWG path: `[`, `]`, `|`.
const PARAMS: ByteSet = ByteSet::controls_space_high_and(b"[]|");

/// The arguments of `w3lib.url.canonicalize_url` but the URL and its encoding;
/// [`Options::default`] is w3lib's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Keeps query arguments without a value (`a`, `a=`) as `a=` (`keep_blank_values`,
    /// default on); off drops them.
    pub keep_blank_values: bool,
    /// Keeps the fragment (`keep_fragments`, default off).
    pub keep_fragments: bool,
    /// What separates query arguments (`query_separator`, default `&`).
    pub query_separator: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep_blank_values: true,
            keep_fragments: false,
            query_separator: "&".to_owned(),
        }
    }
}

/// What w3lib encodes in a fragment: all but the unreserved bytes and
/// `:/?@!$&'()*+,;=%`.
const FRAGMENT: ByteSet = ByteSet::all_but_alnum_and(b"-._~:/?@!$&'()*+,;=%");

/// Scrapy's canonical form of `url`, as `w3lib.url.canonicalize_url(url)` computes it:
/// the query's `&`-separated arguments decoded (`+` as space), sorted by name then value,
/// and encoded again as `application/x-www-form-urlencoded` (`name=` for an argument
/// without a value; an empty query dropped); the path's escapes decoded (but `%25`,
/// `%2F`, `%3B`, `%3F`, and the parameters after a `;` in its last segment) and encoded
/// again with upper-case hex; the credentials decoded and encoded again; the fragment
/// dropped. The scheme, host and port are the WHATWG parser's (which drops a default
/// port). URLs whose scheme is `file` or not special keep their serialization without
/// the fragment.
///
/// ```
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("http://www.example.com/do?c=3&b=5&b=2&a=50#x", &arena).unwrap();
/// assert_eq!(rapidurl::canon::scrapy(&url), "http://www.example.com/do?a=50&b=2&b=5&c=3");
/// let url = rapidurl::parse_ref("http://example.com/r%c3%a9sum%c3%a9%7e?q=a+b%20c", &arena).unwrap();
/// assert_eq!(rapidurl::canon::scrapy(&url), "http://example.com/r%C3%A9sum%C3%A9~?q=a+b+c");
/// ```
pub fn scrapy(url: &UrlRef<'_>) -> String {
    let mut out = String::with_capacity(url.href().len());
    scrapy_into(url, &mut out);
    out
}

/// [`scrapy`], appended to `out`.
pub fn scrapy_into(url: &UrlRef<'_>, out: &mut String) {
    scrapy_with_into(url, &Options::default(), out);
}

/// [`scrapy`] with w3lib's options: blank values dropped (`keep_blank_values=false`),
/// the fragment kept (`keep_fragments=true`, escaped as w3lib escapes it), another
/// query separator.
///
/// ```
/// use rapidurl::canon::scrapy::{Options, scrapy_with};
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("http://h/?d=4;b=;c;a=1#f", &arena).unwrap();
/// let options = Options { keep_blank_values: false, keep_fragments: true, query_separator: ";".into() };
/// assert_eq!(scrapy_with(&url, &options), "http://h/?a=1;d=4#f");
/// ```
pub fn scrapy_with(url: &UrlRef<'_>, options: &Options) -> String {
    let mut out = String::with_capacity(url.href().len());
    scrapy_with_into(url, options, &mut out);
    out
}

/// [`scrapy_with`], appended to `out`.
pub fn scrapy_with_into(url: &UrlRef<'_>, options: &Options, out: &mut String) {
    let kind = url.scheme_kind();
    if matches!(kind, SchemeKind::File | SchemeKind::NotSpecial) {
        out.push_str(url.without_fragment());
        push_fragment(url, options, out);
        return;
    }
    out.push_str(url.scheme());
    out.push_str("://");
    let (user, pass) = (url.username(), url.password());
    if !user.is_empty() || !pass.is_empty() {
        escape_into(&crate::percent::decode(user.as_bytes()), &USERINFO, out);
        if !pass.is_empty() {
            out.push(':');
            escape_into(&crate::percent::decode(pass.as_bytes()), &USERINFO, out);
        }
        out.push('@');
    }
    out.push_str(url.host());

    // The path, with the parameters after a `;` in its last segment (http, https, ftp).
    let path = url.pathname();
    let split = if matches!(kind, SchemeKind::Ws | SchemeKind::Wss) {
        None
    } else {
        let last = path.rfind('/').map_or(0, |i| i + 1);
        path[last..].find(';').map(|i| last + i)
    };
    let (main, params) = match split {
        Some(i) => (&path[..i], &path[i..]),
        None => (path, ""),
    };
    requote_path(main, out);
    escape_into(params.as_bytes(), &PARAMS, out);

    // The query: arguments decoded, sorted, encoded again.
    let sep = options.query_separator.as_str();
    if let Some(q) = url.query().filter(|_| !sep.is_empty()) {
        let mut args: Vec<(Vec<u8>, Vec<u8>)> = q
            .split(sep)
            .filter(|arg| !arg.is_empty())
            .filter_map(|arg| {
                let (name, value) = match arg.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (arg, None),
                };
                if !options.keep_blank_values && value.is_none_or(str::is_empty) {
                    return None;
                }
                Some((decode_plus(name), decode_plus(value.unwrap_or(""))))
            })
            .collect();
        args.sort();
        for (i, (name, value)) in args.iter().enumerate() {
            if i == 0 {
                out.push('?');
            } else {
                out.push_str(sep);
            }
            encode_plus(name, out);
            out.push('=');
            encode_plus(value, out);
        }
    }
    push_fragment(url, options, out);
}

/// `#` and the fragment, escaped as w3lib escapes it, where the options keep it and it
/// is not empty.
fn push_fragment(url: &UrlRef<'_>, options: &Options, out: &mut String) {
    if let Some(f) = url
        .fragment()
        .filter(|f| options.keep_fragments && !f.is_empty())
    {
        out.push('#');
        escape_into(f.as_bytes(), &FRAGMENT, out);
    }
}

/// `_unquotepath` then `quote(…, _PATH_SAFE_CHARS)`: each `%XX` decoded but `%25`,
/// `%2F`, `%3B`, `%3F` (which stay, upper-cased), then every byte outside the safe set
/// escaped. A decoded hex digit stays escaped where it would complete an escape with a
/// `%` before it, so that the key is its own key (w3lib decodes it).
fn requote_path(path: &str, out: &mut String) {
    let b = path.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex_value(b[i + 1]), hex_value(b[i + 2]))
        {
            let v = h << 4 | l;
            let completes = super::completes_escape(out, v);
            if matches!(v, 0x25 | 0x2f | 0x3b | 0x3f) || PATH.contains(v) || completes {
                push_pct(out, v);
            } else {
                out.push(v as char);
            }
            i += 3;
            continue;
        }
        if PATH.contains(c) {
            push_pct(out, c);
        } else {
            out.push(c as char);
        }
        i += 1;
    }
}

/// Percent-decodes with `+` as a space.
fn decode_plus(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    crate::percent::decode_into(s.as_bytes(), true, &mut out);
    out
}

/// `quote(…, quote_plus=True)`: unreserved bytes as they are, space as `+`, all else `%XX`.
fn encode_plus(bytes: &[u8], out: &mut String) {
    for &b in bytes {
        if b == b' ' {
            out.push('+');
        } else if is_unreserved(b) {
            out.push(b as char);
        } else {
            debug_assert!(FORM.contains(b));
            push_pct(out, b);
        }
    }
}
