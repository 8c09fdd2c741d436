//! Google Safe Browsing's canonicalization (the Safe Browsing API's "URLs and Hashing"
//! document, section "Canonicalization"), on the WHATWG parse.

use super::{ByteSet, escape_into, unescape_repeatedly};
use crate::components::{HostKind, SchemeKind};
use crate::host::{ends_in_a_number, parse_ipv4, serialize_ipv4};
use crate::view::UrlRef;

/// The bytes the document escapes (controls, space, DEL and above, `#`, `%`), plus those
/// the WHATWG path state would escape or read as a delimiter (`"<>?\^`{}`), so that the
/// key parses to itself.
const PATH: ByteSet = ByteSet::controls_space_high_and(b"#%\"<>?\\^`{}");
/// The document's bytes plus those the WHATWG special-query state escapes (`"<>'`).
const QUERY: ByteSet = ByteSet::controls_space_high_and(b"#%\"<>'");

/// The Safe Browsing canonical form of `url`: the fragment, credentials and port dropped;
/// the host without leading or trailing dots and with runs of dots made one (the WHATWG
/// parser has already decoded it, lower-cased it and written an IPv4 address in any
/// notation as dotted decimal); the path and the query percent-decoded until nothing is
/// left to decode; in the path, runs of `/` made one and `.` and `..` segments resolved;
/// both escaped again (controls, space, non-ASCII, `#` and `%`, with upper-case hex, and
/// the few bytes the WHATWG parser would otherwise escape or read as a delimiter, such as
/// a decoded `?` in the path). An empty query keeps its `?`. URLs whose scheme is `file`
/// or not special keep their serialization without the fragment.
///
/// ```
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("http://3279880203/blah", &arena).unwrap();
/// assert_eq!(rapidurl::canon::safe_browsing(&url), "http://195.127.0.11/blah");
/// let url = rapidurl::parse_ref("http://host.com//twoslashes?more//slashes", &arena).unwrap();
/// assert_eq!(rapidurl::canon::safe_browsing(&url), "http://host.com/twoslashes?more//slashes");
/// ```
pub fn safe_browsing(url: &UrlRef<'_>) -> String {
    let mut out = String::with_capacity(url.href().len());
    safe_browsing_into(url, &mut out);
    out
}

/// [`safe_browsing`], appended to `out`.
pub fn safe_browsing_into(url: &UrlRef<'_>, out: &mut String) {
    if matches!(url.scheme_kind(), SchemeKind::File | SchemeKind::NotSpecial) {
        out.push_str(url.without_fragment());
        return;
    }
    out.push_str(url.scheme());
    out.push_str("://");
    let host = url.hostname();
    if url.host_kind() == HostKind::Domain {
        let trimmed = host.trim_matches('.');
        let start = out.len();
        if trimmed.is_empty() {
            out.push_str(host);
        } else {
            let mut prev_dot = false;
            for c in trimmed.chars() {
                if !(c == '.' && prev_dot) {
                    out.push(c);
                }
                prev_dot = c == '.';
            }
            // A domain whose last label was followed by dots may end in a number once
            // they go: the WHATWG parser would read it as an IPv4 address. Where that
            // fails, the host stays as the parser wrote it.
            if ends_in_a_number(&out[start..]) {
                match parse_ipv4(&out[start..]) {
                    Ok(addr) => {
                        out.truncate(start);
                        serialize_ipv4(addr, out);
                    }
                    Err(_) => {
                        out.truncate(start);
                        out.push_str(host);
                    }
                }
            }
        }
    } else {
        out.push_str(host);
    }

    let mut buf = Vec::new();
    unescape_repeatedly(url.pathname().as_bytes(), &mut buf);
    let path = normalize_path(&buf);
    escape_into(&path, &PATH, out);

    if let Some(q) = url.query() {
        out.push('?');
        unescape_repeatedly(q.as_bytes(), &mut buf);
        escape_into(&buf, &QUERY, out);
    }
}

/// Runs of `/` made one, then `.` and `..` segments resolved as the WHATWG path state
/// resolves them (`..` at the root stays at the root; a last `.` or `..` leaves a `/`).
fn normalize_path(path: &[u8]) -> Vec<u8> {
    let mut segments: Vec<&[u8]> = Vec::new();
    let parts: Vec<&[u8]> = path.split(|&b| b == b'/').skip(1).collect();
    let last = parts.len().saturating_sub(1);
    for (i, segment) in parts.iter().enumerate() {
        match *segment {
            b"." | b".." => {
                if *segment == b".." {
                    segments.pop();
                }
                if i == last {
                    segments.push(b"");
                }
            }
            b"" if i != last => {}
            _ => segments.push(segment),
        }
    }
    let mut out = Vec::with_capacity(path.len() + 1);
    for segment in &segments {
        out.push(b'/');
        out.extend_from_slice(segment);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize_path;

    #[test]
    fn paths() {
        let n = |p: &str| String::from_utf8(normalize_path(p.as_bytes())).unwrap();
        assert_eq!(n("/"), "/");
        assert_eq!(n("//a///b//"), "/a/b/");
        assert_eq!(n("/a/b/.."), "/a/");
        assert_eq!(n("/a/./b/."), "/a/b/");
        assert_eq!(n("/../a"), "/a");
        assert_eq!(n("/a//../b"), "/b");
    }
}
