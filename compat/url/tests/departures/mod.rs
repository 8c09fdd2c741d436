//! What may differ between the drop-in and rust-url 2.5.8, and how to tell: the named
//! departures, where rust-url departs from the URL Standard and the drop-in follows it.
//! Shared by tests/differential.rs and the fuzz target `url_compat`
//! (fuzz/fuzz_targets/url_compat.rs), which include this file.

#![allow(dead_code)]

use std::fmt::Write as _;

/// A place where rust-url 2.5.8 departs from the URL Standard and the drop-in follows the
/// Standard. docs/url-compat.md has an example of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Departure {
    /// `^` in a path is percent-encoded (`%5E`); rust-url leaves it.
    CaretInPath,
    /// A `file:` path's Windows drive letter `C|` is written `C:`.
    PipeDriveLetter,
    /// A `file:` path keeps its leading empty segments (`file:////x` has the path `//x`);
    /// rust-url drops them.
    FileEmptySegments,
    /// A `file:` URL keeps its host when its path starts with a Windows drive letter
    /// (`C|/e` against `file://host/x` is `file://host/C:/e`); rust-url drops the host.
    DriveLetterKeepsHost,
    /// An ASCII label that starts with `xn--` but is not valid Punycode is accepted, as
    /// the current Standard's domain-to-ASCII does for ASCII input; rust-url fails.
    XnLabels,
    /// A backslash in a non-special URL is a code point of the path, no separator
    /// (`\a` against `foo://foo/a` is `foo://foo/\a`); rust-url reads it as `/`.
    BackslashInNonSpecial,
    /// The origin of a `blob:` URL whose path is not an `http:` or `https:` URL (a
    /// `blob:` of a `blob:`, of `ftp:`, `ws:`…) is opaque; rust-url gives it a tuple.
    BlobOrigin,
    /// A non-special URL with an `@` and no host (`sc://@/x`) fails, `host-missing`
    /// (`EmptyHost`); rust-url parses it as `sc:///x`.
    EmptyHostAfterAt,
    /// A space that ends an opaque path before `?` or `#` is written `%20`
    /// (`sc:space  ?q` is `sc:space %20?q`), and removing the query or fragment after it
    /// keeps the path; rust-url keeps the spaces, then strips them all. `set_path` on an
    /// opaque path writes a last space `%20` too; rust-url writes it raw, in a URL that
    /// parses without it.
    OpaquePathSpaces,
    /// A domain that UTS #46 maps to nothing (`https://%C2%AD/`, a soft hyphen) fails
    /// as domain-to-ASCII does, `IdnaError`; rust-url says `EmptyHost`.
    EmptyAfterIdna,
    /// After a setter, the getters read the URL as a new parse of its serialization
    /// would; rust-url's can keep a stale host (`set_host(None)` on `sc://h/` reads
    /// `Some("")` until parsed again).
    FreshAfterSetter,
    /// `set_path` takes its whole text as the path: `?` and `#` are percent-encoded
    /// (the path state with an override); rust-url stops at them, or, on an opaque path,
    /// writes them raw into a URL that then parses to another.
    SetPathWhole,
    /// `set_path("")` on a URL without a host keeps the path `/` (the path start state
    /// with an override); rust-url empties it and the URL becomes one that cannot be a
    /// base.
    EmptyPathWithoutHost,
    /// `set_host(None)` on a non-special URL whose path starts with `//` writes `/.`
    /// before the path (`sc://h//p` becomes `sc:/.//p`), as the serializer does; rust-url
    /// writes `sc://p`, which reads as a URL with the host `p`.
    HostRemovedBeforeDoubleSlash,
    /// The `/.` that the serializer writes between a null host and a path starting with
    /// `//` (`sc:/.//p`) goes when a host is set or the path no longer starts with `//`
    /// (`sc://h//p`, `sc:/` after a `pop`); rust-url keeps it in the serialization.
    DotPrefixDropped,
    /// `set_host(Some(""))` on a URL with credentials or a port is refused with
    /// `EmptyHost` (the Standard forbids an empty host there); rust-url writes a URL that
    /// does not parse.
    EmptyHostRefused,
}

/// Every departure, for the test that docs/url-compat.md names each.
pub const ALL: [Departure; 16] = [
    Departure::DotPrefixDropped,
    Departure::BlobOrigin,
    Departure::BackslashInNonSpecial,
    Departure::EmptyHostAfterAt,
    Departure::HostRemovedBeforeDoubleSlash,
    Departure::OpaquePathSpaces,
    Departure::EmptyAfterIdna,
    Departure::CaretInPath,
    Departure::PipeDriveLetter,
    Departure::FileEmptySegments,
    Departure::DriveLetterKeepsHost,
    Departure::XnLabels,
    Departure::FreshAfterSetter,
    Departure::SetPathWhole,
    Departure::EmptyPathWithoutHost,
    Departure::EmptyHostRefused,
];

/// rust-url's serialization `theirs` with each departure undone in turn (each rewrites
/// only what it names), given the drop-in's serialization `ours`; with the departures
/// that changed something.
pub fn undo_all(theirs: &str, ours: &str) -> (String, Vec<Departure>) {
    let mut s = theirs.to_owned();
    let mut used = Vec::new();
    let (Ok(o), Ok(_)) = (url::Url::parse(ours), rust_url::Url::parse(theirs)) else {
        return (s, used);
    };
    // Each step reads the string so far through rust-url's parse of it, and rewrites only
    // what it names (a step whose pattern is absent leaves the string as it is).
    let step = |d: Departure,
                s: &mut String,
                used: &mut Vec<Departure>,
                f: &dyn Fn(&rust_url::Url) -> Option<String>| {
        if let Some(t) = rust_url::Url::parse(s).ok().as_ref().and_then(f) {
            if t != *s {
                *s = t;
                used.push(d);
            }
        }
    };
    // The path of `u`'s serialization, and what comes before and after it.
    fn split(u: &rust_url::Url) -> (&str, &str, &str) {
        let s = u.as_str();
        let end = s.len()
            - u.query().map_or(0, |q| q.len() + 1)
            - u.fragment().map_or(0, |f| f.len() + 1);
        let start = end - u.path().len();
        (&s[..start], &s[start..end], &s[end..])
    }
    step(Departure::OpaquePathSpaces, &mut s, &mut used, &|u| {
        let (h, p, t) = split(u);
        (u.cannot_be_a_base() && !t.is_empty() && p.ends_with(' '))
            .then(|| format!("{h}{}%20{t}", &p[..p.len() - 1]))
    });
    step(Departure::CaretInPath, &mut s, &mut used, &|u| {
        (!u.cannot_be_a_base() && u.path().contains('^')).then(|| {
            let (h, p, t) = split(u);
            format!("{h}{}{t}", p.replace('^', "%5E"))
        })
    });
    step(Departure::PipeDriveLetter, &mut s, &mut used, &|u| {
        let (h, p, t) = split(u);
        let b = p.as_bytes();
        (u.scheme() == "file"
            && b.len() >= 3
            && b[1].is_ascii_alphabetic()
            && b[2] == b'|'
            && matches!(b.get(3), None | Some(b'/')))
        .then(|| format!("{h}/{}:{}{t}", &p[1..2], &p[3..]))
    });
    // Read off the drop-in's string, as rust-url may read its own otherwise (a drive
    // letter after a host): the drop-in's URL with its leading empty segments collapsed.
    let ours_path = o.path();
    if o.scheme() == "file" && ours_path.starts_with("//") {
        let ours_str = o.as_str();
        let end = ours_str.len()
            - o.query().map_or(0, |q| q.len() + 1)
            - o.fragment().map_or(0, |f| f.len() + 1);
        let start = end - ours_path.len();
        let collapsed = format!(
            "{}/{}{}",
            &ours_str[..start],
            ours_path.trim_start_matches('/'),
            &ours_str[end..]
        );
        if collapsed == s {
            s = ours_str.to_owned();
            used.push(Departure::FileEmptySegments);
        }
    }
    let ours_host = o.host_str().map(str::to_owned);
    step(Departure::DriveLetterKeepsHost, &mut s, &mut used, &|u| {
        let host = ours_host.as_deref()?;
        let rest = u.as_str().strip_prefix("file://")?;
        (u.host_str().is_none() && rest.starts_with('/')).then(|| format!("file://{host}{rest}"))
    });
    (s, used)
}

/// [`explain`], and for two failures of `input` (parsed alone or joined), the
/// departure that makes rust-url fail first: an `xn--` label it rejects before the
/// failure both find (`http://xn--zz.1` is an invalid IPv4 address, rust-url stops at
/// the label).
pub fn explain_input(
    input: &str,
    ours: &Result<url::Url, String>,
    theirs: &Result<rust_url::Url, String>,
) -> Option<Vec<Departure>> {
    match (ours, theirs) {
        (Err(o), Err(t))
            if t == "invalid international domain name"
                && o != t
                && input.to_ascii_lowercase().contains("xn--") =>
        {
            Some(vec![Departure::XnLabels])
        }
        (Ok(o), Ok(_))
            if !o.is_special() && input.contains('\\') && explain(ours, theirs).is_none() =>
        {
            Some(vec![Departure::BackslashInNonSpecial])
        }
        _ => explain(ours, theirs),
    }
}

/// The departures that explain why the drop-in's `ours` differs from rust-url's
/// `theirs`, or `None`.
pub fn explain(
    ours: &Result<url::Url, String>,
    theirs: &Result<rust_url::Url, String>,
) -> Option<Vec<Departure>> {
    match (ours, theirs) {
        (Ok(o), Ok(t))
            if o.as_str() == t.as_str()
                && o.scheme() == "blob"
                && !o.origin().is_tuple()
                && t.origin().is_tuple() =>
        {
            Some(vec![Departure::BlobOrigin])
        }
        (Ok(o), Ok(t)) if o.as_str() == t.as_str() => {
            let again = rust_url::Url::parse(t.as_str()).map_err(|e| e.to_string());
            (view_theirs(&again) == view_ours(ours)).then(|| vec![Departure::FreshAfterSetter])
        }
        (Ok(o), Ok(t)) => {
            let (undone, used) = undo_all(t.as_str(), o.as_str());
            (undone == o.as_str() && !used.is_empty()).then_some(used)
        }
        (Err(o), Err(t)) => (o == "invalid international domain name" && t == "empty host")
            .then(|| vec![Departure::EmptyAfterIdna]),
        (Err(o), Ok(t)) => {
            (o == "empty host" && !t.is_special() && t.host_str().is_none_or(str::is_empty))
                .then(|| vec![Departure::EmptyHostAfterAt])
        }
        (Ok(o), Err(e)) if e == "invalid international domain name" => {
            let host = o.host_str()?;
            (host.is_ascii()
                && host
                    .split('.')
                    .any(|l| l.to_ascii_lowercase().starts_with("xn--")))
            .then(|| vec![Departure::XnLabels])
        }
        _ => None,
    }
}

/// Every getter of a parsed URL of either crate (the two have the same API), as one
/// string.
macro_rules! view {
    ($u:expr) => {{
        let u = $u;
        let mut s = String::new();
        write!(
            s,
            "{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{}|{}|{}|{:?}|{:?}|{}",
            u.as_str(),
            u.scheme(),
            u.username(),
            u.password(),
            u.host_str(),
            u.host().map(|h| h.to_string()),
            u.domain(),
            u.port(),
            u.path(),
            u.query(),
            u.fragment(),
            u.cannot_be_a_base(),
            u.has_authority(),
            u.authority(),
            u.port_or_known_default(),
            u.path_segments().map(|s| s.collect::<Vec<_>>()),
            u.origin().ascii_serialization(),
        )
        .unwrap();
        s
    }};
}

/// Every getter of the drop-in's URL, as one string, or the error.
pub fn view_ours(r: &Result<url::Url, String>) -> Result<String, String> {
    Ok(view!(r.as_ref().map_err(Clone::clone)?))
}

/// Every getter of rust-url's URL, as one string, or the error.
pub fn view_theirs(r: &Result<rust_url::Url, String>) -> Result<String, String> {
    Ok(view!(r.as_ref().map_err(Clone::clone)?))
}

pub fn ours(r: Result<url::Url, url::ParseError>) -> Result<url::Url, String> {
    r.map_err(|e| e.to_string())
}

pub fn theirs(r: Result<rust_url::Url, rust_url::ParseError>) -> Result<rust_url::Url, String> {
    r.map_err(|e| e.to_string())
}

/// One setter call, on both crates, with its result.
pub fn setters(u: &mut url::Url, t: &mut rust_url::Url, op: usize, v: &str) -> (String, String) {
    let (a, b) = match op {
        0 => (
            format!("{:?}", u.set_scheme(v)),
            format!("{:?}", t.set_scheme(v)),
        ),
        1 => (
            format!("{:?}", u.set_username(v)),
            format!("{:?}", t.set_username(v)),
        ),
        2 => (
            format!("{:?}", u.set_password(Some(v))),
            format!("{:?}", t.set_password(Some(v))),
        ),
        3 => (
            format!("{:?}", u.set_password(None)),
            format!("{:?}", t.set_password(None)),
        ),
        4 => (
            format!("{:?}", u.set_host(Some(v))),
            format!("{:?}", t.set_host(Some(v))),
        ),
        5 => (
            format!("{:?}", u.set_host(None)),
            format!("{:?}", t.set_host(None)),
        ),
        6 => {
            let p = v.parse::<u16>().ok();
            (
                format!("{:?}", u.set_port(p)),
                format!("{:?}", t.set_port(p)),
            )
        }
        7 => {
            u.set_path(v);
            t.set_path(v);
            (String::new(), String::new())
        }
        8 => {
            u.set_query(Some(v));
            t.set_query(Some(v));
            (String::new(), String::new())
        }
        9 => {
            u.set_query(None);
            t.set_query(None);
            (String::new(), String::new())
        }
        10 => {
            u.set_fragment(Some(v));
            t.set_fragment(Some(v));
            (String::new(), String::new())
        }
        11 => {
            u.set_fragment(None);
            t.set_fragment(None);
            (String::new(), String::new())
        }
        12 => {
            let a = u.path_segments_mut().map(|mut s| {
                s.pop_if_empty().push(v);
            });
            let b = t.path_segments_mut().map(|mut s| {
                s.pop_if_empty().push(v);
            });
            (format!("{a:?}"), format!("{b:?}"))
        }
        13 => {
            let a = u.path_segments_mut().map(|mut s| {
                s.pop();
            });
            let b = t.path_segments_mut().map(|mut s| {
                s.pop();
            });
            (format!("{a:?}"), format!("{b:?}"))
        }
        14 => {
            u.query_pairs_mut().append_pair(v, "1 2");
            t.query_pairs_mut().append_pair(v, "1 2");
            (String::new(), String::new())
        }
        _ => {
            let ip: std::net::IpAddr = if v.len().is_multiple_of(2) {
                "10.0.0.1".parse().unwrap()
            } else {
                "::1".parse().unwrap()
            };
            (
                format!("{:?}", u.set_ip_host(ip)),
                format!("{:?}", t.set_ip_host(ip)),
            )
        }
    };
    (a, b)
}

/// The setter departures, recognised by the call and the URL it was made on.
pub fn setter_departure(
    op: usize,
    v: &str,
    base: &url::Url,
    ours: &Result<url::Url, String>,
    theirs: &Result<rust_url::Url, String>,
) -> Option<Departure> {
    if view_ours(ours) == view_theirs(theirs) {
        return None;
    }
    let rejected_label = |t: &Result<rust_url::Url, String>| {
        t.as_ref().is_err_and(|e| e.contains("IdnaError"))
            && v.to_ascii_lowercase().contains("xn--")
    };
    match op {
        4 if rejected_label(theirs) => Some(Departure::XnLabels),
        5 if base.path().starts_with("//") => Some(Departure::HostRemovedBeforeDoubleSlash),
        4 | 15 if !base.has_authority() && base.path().starts_with("//") => {
            Some(Departure::DotPrefixDropped)
        }
        9 | 11 if base.cannot_be_a_base() && base.path().ends_with([' ', '0']) => {
            Some(Departure::OpaquePathSpaces)
        }
        7 if v.contains(['?', '#']) => Some(Departure::SetPathWhole),
        7 if base.cannot_be_a_base() && v.trim_end_matches(['\t', '\n', '\r']).ends_with(' ') => {
            Some(Departure::OpaquePathSpaces)
        }
        7 if v.is_empty() && base.host().is_none() && !base.has_authority() => {
            Some(Departure::EmptyPathWithoutHost)
        }
        4 if v.is_empty()
            && (!base.username().is_empty()
                || base.password().is_some()
                || base.port().is_some()) =>
        {
            Some(Departure::EmptyHostRefused)
        }
        _ => None,
    }
}
