//! Checks shared by the fuzz targets and the property tests: what "the same URL" means, and the invariants every
//! parsed URL must satisfy whichever way it was made.
//!
//! The targets stay thin (decode the fuzzer's bytes, call the library, call a check
//! here), so that every target states its invariant in the same words and a failure
//! message always shows the input, the two URLs and which getter differs.

use rapidurl::{Components, ParseError, Url, UrlRef};

/// Every getter of the URL API (§6.1), plus the host kind and the opaque-path flag, as
/// one comparable value. Two URLs with equal `Snapshot`s are the same URL for every
/// observer of the public API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub href: String,
    pub origin: String,
    pub protocol: String,
    pub username: String,
    pub password: String,
    pub host: String,
    pub hostname: String,
    pub port: String,
    pub pathname: String,
    pub search: String,
    pub hash: String,
    pub components: Components,
}

impl Snapshot {
    /// The snapshot of an owned URL (through its borrowed view: the getters are one
    /// definition for both types).
    pub fn of(url: &Url) -> Snapshot {
        Snapshot::of_ref(&url.as_ref_view())
    }

    /// The snapshot of a borrowed view. Panics when its components break the offset
    /// rules (`Components::check`): every target that takes a snapshot checks them.
    pub fn of_ref(url: &UrlRef<'_>) -> Snapshot {
        if let Err(rule) = url.components().check(url.href()) {
            panic!(
                "{:?}: components break {rule:?}: {:?}",
                url.href(),
                url.components()
            );
        }
        Snapshot {
            href: url.href().to_owned(),
            origin: url.origin(),
            protocol: url.protocol().to_owned(),
            username: url.username().to_owned(),
            password: url.password().to_owned(),
            host: url.host().to_owned(),
            hostname: url.hostname().to_owned(),
            port: url.port().to_owned(),
            pathname: url.pathname().to_owned(),
            search: url.search().to_owned(),
            hash: url.hash().to_owned(),
            components: *url.components(),
        }
    }
}

/// The URL serializer is meant to be a fixed point of the parser (the URL Standard keeps
/// "parse(serialize(url)) == url" as a design goal and the web-platform-tests check it):
/// parsing `href` again must give the same href, the same getters and the same offsets.
///
/// `context` is printed on failure (the fuzz input, the setter sequence, ...).
pub fn assert_fixed_point(url: &Url, context: &dyn std::fmt::Debug) {
    let again = match Url::parse(url.href()) {
        Ok(again) => again,
        Err(e) => panic!(
            "href {:?} does not parse again ({e}); context: {context:?}",
            url.href()
        ),
    };
    let (a, b) = (Snapshot::of(url), Snapshot::of(&again));
    assert_eq!(
        a, b,
        "re-parsing href changed the URL; context: {context:?}"
    );
    // The getters must also be consistent with the serialization itself.
    assert_getters_consistent(url, context);
}

/// What the parser makes of `url`'s `href` when it is one of the file URLs that the
/// Standard's setters leave but its parser would not: the protocol setter turns a special
/// URL into a file URL without the file parser's normalizations, so a host `localhost`
/// stays (the parser empties it) and a first path segment `C|` stays (the parser reads
/// the drive letter `C:`). whatwg-url, the reference implementation, does the same.
/// `None` for every other URL, which must be a fixed point.
pub fn file_url_as_parsed(url: &Url) -> Option<String> {
    if url.protocol() != "file:" {
        return None;
    }
    let path = url.pathname().as_bytes();
    let bar = path.len() >= 3
        && path[1].is_ascii_alphabetic()
        && path[2] == b'|'
        && path.get(3).is_none_or(|&b| b == b'/');
    let localhost = url.hostname() == "localhost";
    (bar || localhost).then(|| {
        let path = url.pathname();
        let path = if bar {
            format!("{}:{}", &path[..2], &path[3..])
        } else {
            path.to_owned()
        };
        let host = if localhost { "" } else { url.host() };
        format!("file://{host}{path}{}{}", url.search(), url.hash())
    })
}

/// [`assert_fixed_point`], or for a URL of [`file_url_as_parsed`], that its href parses
/// to what that gives, which is a fixed point.
pub fn assert_fixed_point_after_setters(url: &Url, context: &dyn std::fmt::Debug) {
    match file_url_as_parsed(url) {
        Some(expected) => {
            let again = Url::parse(url.href()).expect("a file URL's href parses");
            assert_eq!(again.href(), expected, "context: {context:?}");
            assert_fixed_point(&again, context);
        }
        None => assert_fixed_point(url, context),
    }
}

/// The getters must reassemble into `href` (§4.5 URL serializer): protocol, then `//`
/// and the authority when there is a host, the pathname, search and hash. Only the
/// parts the getters cannot show (an empty `?` or `#`, the `/.` prefix) are allowed to
/// differ, and those are checked through `query()` / `fragment()`.
pub fn assert_getters_consistent(url: &Url, context: &dyn std::fmt::Debug) {
    let mut rebuilt = String::from(url.protocol());
    if url.host_kind() != rapidurl::HostKind::None {
        rebuilt.push_str("//");
        if url.has_credentials() {
            rebuilt.push_str(url.username());
            if !url.password().is_empty() {
                rebuilt.push(':');
                rebuilt.push_str(url.password());
            }
            rebuilt.push('@');
        }
        rebuilt.push_str(url.host());
    } else if !url.has_opaque_path() && url.pathname().starts_with("//") {
        rebuilt.push_str("/.");
    }
    rebuilt.push_str(url.pathname());
    if let Some(q) = url.query() {
        rebuilt.push('?');
        rebuilt.push_str(q);
    }
    if let Some(f) = url.fragment() {
        rebuilt.push('#');
        rebuilt.push_str(f);
    }
    assert_eq!(
        rebuilt,
        url.href(),
        "getters do not reassemble into href; context: {context:?}"
    );
    assert!(url.href().is_ascii(), "href is not ASCII: {:?}", url.href());
}

/// Two errors for the same bytes name the same place: `raw_err`, from an API that counts
/// bytes of `raw` (`Url::parse_bytes`, `batch::parse_lines`), and `decoded_err`, from
/// parsing `String::from_utf8_lossy(raw)`: the same kind, and decoding the bytes before
/// the raw offset gives exactly the text before the decoded one.
pub fn assert_same_error_in_raw(
    raw: &[u8],
    raw_err: &ParseError,
    decoded_err: &ParseError,
    context: &dyn std::fmt::Debug,
) {
    assert_eq!(raw_err.kind(), decoded_err.kind(), "context: {context:?}");
    match (raw_err.offset(), decoded_err.offset()) {
        (Some(r), Some(d)) => {
            assert!(
                r <= raw.len(),
                "offset {r} past the input; context: {context:?}"
            );
            assert_eq!(
                String::from_utf8_lossy(&raw[..r]).len(),
                d,
                "byte offset {r} is not decoded offset {d}; context: {context:?}"
            );
        }
        (r, d) => assert_eq!(r, d, "context: {context:?}"),
    }
}

/// The fuzzer's bytes as text: the bytes themselves when they are UTF-8, else the
/// lossy decoding that `Url::parse_bytes` documents (each invalid sequence → U+FFFD).
pub fn text_of(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
