//! Google Safe Browsing's canonicalization (the Safe Browsing API's "URLs and Hashing"
//! document, section "Canonicalization"), on the WHATWG parse.

use super::split::{authority_len, host_port, scheme_len};
use super::{ByteSet, escape_into, unescape_repeatedly};
use crate::host::{ends_in_a_number, parse_ipv4, serialize_ipv4};
use crate::view::UrlRef;

/// The bytes the document escapes: controls, space, DEL and above, `#`, `%`.
const ESCAPE: ByteSet = ByteSet::controls_space_high_and(b"#%");

/// The Safe Browsing canonical form of `url`: [`canonicalize_input`] of its `href`.
///
/// ```
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("http://3279880203/blah", &arena).unwrap();
/// assert_eq!(rapidurl::canon::safe_browsing(&url), "http://195.127.0.11/blah");
/// let url = rapidurl::parse_ref("http://host.com//twoslashes?more//slashes", &arena).unwrap();
/// assert_eq!(rapidurl::canon::safe_browsing(&url), "http://host.com/twoslashes?more//slashes");
/// ```
pub fn safe_browsing(url: &UrlRef<'_>) -> String {
    canonicalize_input(url.href().as_bytes())
}

/// [`safe_browsing`], appended to `out`.
pub fn safe_browsing_into(url: &UrlRef<'_>, out: &mut String) {
    out.push_str(&canonicalize_input(url.href().as_bytes()));
}

/// Google Safe Browsing's canonicalization of an input as a client receives it (v4
/// "URLs and Hashing", section "Canonicalization"), any bytes: the input trimmed of
/// whitespace, its tabs, CRs and LFs removed, its fragment removed; then percent-decoded
/// until nothing is left to decode; `http://` put before an input without a scheme
/// followed by `//`; the host found after it (credentials and port dropped), its leading
/// and trailing dots removed and runs of dots made one, read as an IPv4 address in any
/// notation where it is one (written as dotted decimal), converted to ASCII by IDNA where
/// it is valid UTF-8 and not ASCII, lower-cased; the path `/` where it is empty, its runs
/// of `/` made one and `.` and `..` segments resolved; the query (after the first `?`)
/// left as it is; then every byte up to space, from DEL up, `#` and `%` percent-encoded
/// with upper-case hex. Where this and the WHATWG parser disagree (a decoded `?` in the
/// path starts the query here; a host may hold any byte), this follows Google.
///
/// An input with a scheme but no `//` after it (`mailto:a@b`, `data:…`) keeps its scheme
/// and has the rest decoded and escaped only.
///
/// ```
/// use rapidurl::canon::safe_browsing::canonicalize_input;
/// assert_eq!(canonicalize_input(b"www.google.com"), "http://www.google.com/");
/// assert_eq!(canonicalize_input(b"http://\x01\x80.com/"), "http://%01%80.com/");
/// assert_eq!(canonicalize_input(b"http://host/%25%32%35"), "http://host/%25");
/// ```
pub fn canonicalize_input(input: &[u8]) -> String {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let start = input.iter().position(|b| !ws(b)).unwrap_or(input.len());
    let end = input.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    let mut raw: Vec<u8> = input[start..end]
        .iter()
        .copied()
        .filter(|b| !matches!(b, b'\t' | b'\n' | b'\r'))
        .collect();
    if let Some(i) = memchr::memchr(b'#', &raw) {
        raw.truncate(i);
    }
    let mut url = Vec::with_capacity(raw.len());
    unescape_repeatedly(&raw, &mut url);

    let mut out = String::with_capacity(url.len() + 8);
    let scheme_end = scheme_len(&url);
    let rest: &[u8] = match scheme_end {
        Some(n) if url[n + 1..].starts_with(b"//") => {
            out.push_str(&String::from_utf8_lossy(&url[..n]).to_ascii_lowercase());
            out.push_str("://");
            &url[n + 3..]
        }
        // `host:port/…`: a number after the colon is a port, not an opaque path.
        Some(n) if !url.get(n + 1).is_some_and(u8::is_ascii_digit) => {
            out.push_str(&String::from_utf8_lossy(&url[..n]).to_ascii_lowercase());
            out.push(':');
            escape_into(&url[n + 1..], &ESCAPE, &mut out);
            return out;
        }
        _ => {
            out.push_str("http://");
            &url[..]
        }
    };
    let (authority, after) = rest.split_at(authority_len(rest));
    push_host(authority, &mut out);
    let (path, query) = match memchr::memchr(b'?', after) {
        Some(i) => (&after[..i], Some(&after[i + 1..])),
        None => (after, None),
    };
    escape_into(&normalize_path(path), &ESCAPE, &mut out);
    if let Some(q) = query {
        out.push('?');
        escape_into(q, &ESCAPE, &mut out);
    }
    out
}

/// Appends the host of `authority`: credentials and port dropped, dots trimmed and made
/// single, an IPv4 address in any notation as dotted decimal, IDNA for a valid UTF-8
/// host that is not ASCII, lower-cased, escaped.
fn push_host(authority: &[u8], out: &mut String) {
    let host_port = host_port(authority);
    let host = if host_port.starts_with(b"[") {
        match memchr::memchr(b']', host_port) {
            Some(i) => &host_port[..=i],
            None => host_port,
        }
    } else {
        // The port starts at the first colon: a host keeps none (with the last, the key of
        // `a:1b:2` would hold `a:1b`, whose key is `a`).
        match memchr::memchr(b':', host_port) {
            Some(i) => &host_port[..i],
            None => host_port,
        }
    };
    let mut host = single_dots(host);
    host.make_ascii_lowercase();
    // IDNA may map a label to nothing (a soft hyphen) or to digits (full-width ones): its
    // result gets the dots and the IPv4 test of an ASCII host, so that the key is its
    // own key.
    if let Ok(text) = std::str::from_utf8(&host)
        && !text.is_ascii()
        && let Ok(ascii) = crate::host::domain_to_ascii(text, false)
    {
        host = single_dots(ascii.as_bytes());
    }
    if let Ok(text) = std::str::from_utf8(&host)
        && text.is_ascii()
        && ends_in_a_number(text)
        && let Ok(addr) = parse_ipv4(text)
    {
        serialize_ipv4(addr, out);
        return;
    }
    escape_into(&host, &ESCAPE, out);
}

/// `host` with its leading and trailing dots trimmed and each run of dots made one.
fn single_dots(host: &[u8]) -> Vec<u8> {
    let start = host.iter().position(|&b| b != b'.').unwrap_or(host.len());
    let end = host
        .iter()
        .rposition(|&b| b != b'.')
        .map_or(start, |e| e + 1);
    let mut single = Vec::with_capacity(end - start);
    for &b in &host[start..end] {
        if !(b == b'.' && single.last() == Some(&b'.')) {
            single.push(b);
        }
    }
    single
}

/// The lookup expressions of `url` that a Safe Browsing client hashes (v4 "URLs and
/// Hashing", section "Suffix/Prefix Expressions"): up to five host suffixes (the exact
/// host, then up to four formed from its last five labels, the top-level one alone
/// excluded; an IP address only as itself) times up to six path prefixes (the exact path
/// with the query, the exact path, then the root and up to three directories after it),
/// each `host` + `path` without the scheme, at most 30, in that order, without repeats.
///
/// ```
/// use rapidurl::canon::safe_browsing::expressions;
/// assert_eq!(
///     expressions(b"http://a.b.c/1/2.html?param=1"),
///     [
///         "a.b.c/1/2.html?param=1", "a.b.c/1/2.html", "a.b.c/", "a.b.c/1/",
///         "b.c/1/2.html?param=1", "b.c/1/2.html", "b.c/", "b.c/1/",
///     ]
/// );
/// ```
pub fn expressions(url: &[u8]) -> Vec<String> {
    let canonical = canonicalize_input(url);
    let after_scheme = canonical
        .find("://")
        .map_or(&canonical[..], |i| &canonical[i + 3..]);
    let slash = after_scheme.find('/').unwrap_or(after_scheme.len());
    let (host, path_query) = after_scheme.split_at(slash);
    let path_query = if path_query.is_empty() {
        "/"
    } else {
        path_query
    };
    let mut hosts = vec![host.to_owned()];
    let is_ip = parse_ipv4(host).is_ok() || host.starts_with('[');
    if !is_ip {
        let labels: Vec<&str> = host.split('.').collect();
        let n = labels.len();
        // The last five labels, then four, three, two (the exact host already first).
        let first = n.saturating_sub(5).max(1);
        for start in first..n.saturating_sub(1) {
            if start == 0 {
                continue;
            }
            let suffix = labels[start..].join(".");
            if hosts.len() < 5 {
                hosts.push(suffix);
            }
        }
    }
    let (path, query) = match path_query.find('?') {
        Some(i) => (&path_query[..i], Some(&path_query[i..])),
        None => (path_query, None),
    };
    let mut paths: Vec<String> = Vec::new();
    if let Some(q) = query {
        paths.push(format!("{path}{q}"));
    }
    paths.push(path.to_owned());
    paths.push("/".to_owned());
    let mut prefix = String::from("/");
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    for segment in segments
        .iter()
        .take(segments.len().saturating_sub(1))
        .take(3)
    {
        prefix.push_str(segment);
        prefix.push('/');
        paths.push(prefix.clone());
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for h in &hosts {
        for p in &paths {
            let e = format!("{h}{p}");
            if seen.insert(e.clone()) {
                out.push(e);
            }
        }
    }
    out
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
