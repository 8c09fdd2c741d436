//! `Components`: the one description of a parsed URL.
//!
//! A URL is kept as its normalized serialization (an ASCII string) plus the byte offsets
//! where each component starts and ends — the layout ada calls a "URL aggregator". Every
//! getter of the URL API is written once here, over `(&str, &Components)`, and shared by
//! [`crate::Url`] and every later view of a URL.
//!
//! ```text
//! https://user:pass@example.com:8080/a/b?q=1#frag
//!       |     |    |           |    |   |   |
//!       |     |    host_start  |    |   |   fragment_start
//!       |     username_end     |    |   query_start
//!       scheme_end             |    path_start
//!                              host_end
//! ```
//!
//! * `scheme_end` is the index of the `:` that ends the scheme.
//! * When the URL has a host (`host_kind != HostKind::None`) the serialization continues
//!   with `//`; the username runs from `scheme_end + 3` to `username_end`; when the URL has
//!   credentials, the byte at `host_start - 1` is `@` and a password, if any, runs from
//!   `username_end + 1` (after a `:`) to `host_start - 1`. Without credentials
//!   `username_end == host_start`.
//! * When the URL has no host, `username_end == host_start == host_end == scheme_end + 1`,
//!   and `path_start` is either that too or, when the path begins with an empty segment,
//!   two bytes later (the serializer's `/.` prefix, URL Standard §4.5 step 3).
//! * The port, when there is one, is written after `host_end` as `:` and its digits.
//! * `query_start` and `fragment_start` are the indices of `?` and `#`.

pub use crate::syntax::SchemeKind;
use std::ops::Range;

/// Which kind of host a URL has (URL Standard §3.1), or `None` for a null host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HostKind {
    /// The URL has no host (a null host): `mailto:x`, `sc:/path`.
    None,
    /// The empty host: `file:///etc`, `sc://`.
    Empty,
    /// A domain, serialized in ASCII (after UTS #46 processing): `example.com`.
    Domain,
    /// An IPv4 address, serialized in dotted decimal.
    Ipv4,
    /// An IPv6 address, serialized in brackets with the longest zero run compressed.
    Ipv6,
    /// An opaque host (non-special URLs): percent-encoded, case preserved.
    Opaque,
}

/// A parsed URL borrowed as its serialization and components (a base URL, a row of a
/// column): what the parser and the setters read a URL through.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UrlParts<'a> {
    pub(crate) s: &'a str,
    pub(crate) c: &'a Components,
}

/// A parsed base URL, borrowed from a [`crate::Url`] or a [`crate::UrlRef`]: what every
/// entry point that resolves against a base takes (`base: impl Into<Base>`), so that a
/// base is parsed once and each input is resolved against it without parsing it again.
///
/// ```
/// use rapidurl::{Url, bumpalo::Bump};
/// let base = Url::parse("https://example.com/a/b").unwrap();
/// assert_eq!(Url::parse_with_base("c", &base).unwrap().as_str(), "https://example.com/a/c");
/// assert!(rapidurl::can_parse_with_base("../c", &base));
/// let arena = Bump::new();
/// let page = rapidurl::parse_ref("https://example.com/blog/", &arena).unwrap();
/// let link = rapidurl::parse_ref_with_base("post", &page, &arena).unwrap();
/// assert_eq!(Url::parse_with_base("p", &link).unwrap().as_str(), "https://example.com/blog/p");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Base<'b> {
    pub(crate) parts: UrlParts<'b>,
}

impl<'b> Base<'b> {
    pub(crate) fn new(parts: UrlParts<'b>) -> Base<'b> {
        Base { parts }
    }

    /// The base URL's serialization.
    pub fn as_str(&self) -> &'b str {
        self.parts.s
    }

    /// The base URL's components.
    pub fn components(&self) -> &'b Components {
        self.parts.c
    }
}

/// Offsets of a URL's components in its serialization, plus its host kind and flags.
///
/// See the module documentation for the layout. All offsets are `u32`: a serialization
/// longer than `u32::MAX` bytes is refused with [`crate::ErrorKind::InputTooLong`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Components {
    pub(crate) scheme_end: u32,
    pub(crate) username_end: u32,
    pub(crate) host_start: u32,
    pub(crate) host_end: u32,
    pub(crate) path_start: u32,
    pub(crate) query_start: Option<u32>,
    pub(crate) fragment_start: Option<u32>,
    pub(crate) port: Option<u16>,
    pub(crate) host_kind: HostKind,
    pub(crate) scheme_kind: SchemeKind,
    pub(crate) opaque_path: bool,
}

impl Components {
    /// Components of a URL whose serialization is still being written.
    pub(crate) const fn empty() -> Components {
        Components {
            scheme_end: 0,
            username_end: 0,
            host_start: 0,
            host_end: 0,
            path_start: 0,
            query_start: None,
            fragment_start: None,
            port: None,
            host_kind: HostKind::None,
            scheme_kind: SchemeKind::NotSpecial,
            opaque_path: false,
        }
    }

    /// Records a host with no userinfo and an empty serialization at `at`: the null host
    /// (`HostKind::None`, right after the scheme's `:`) or the empty host (after `//`).
    #[inline]
    pub(crate) fn set_host_at(&mut self, at: u32, kind: HostKind) {
        self.username_end = at;
        self.host_start = at;
        self.host_end = at;
        self.host_kind = kind;
    }

    /// Index of the `:` that ends the scheme.
    pub const fn scheme_end(&self) -> u32 {
        self.scheme_end
    }
    /// End of the username (see the module docs).
    pub const fn username_end(&self) -> u32 {
        self.username_end
    }
    /// Start of the serialized host.
    pub const fn host_start(&self) -> u32 {
        self.host_start
    }
    /// End of the serialized host.
    pub const fn host_end(&self) -> u32 {
        self.host_end
    }
    /// Start of the path.
    pub const fn path_start(&self) -> u32 {
        self.path_start
    }
    /// Index of the `?` that starts the query, if the query is not null.
    pub const fn query_start(&self) -> Option<u32> {
        self.query_start
    }
    /// Index of the `#` that starts the fragment, if the fragment is not null.
    pub const fn fragment_start(&self) -> Option<u32> {
        self.fragment_start
    }
    /// The port, or `None` when it is null (absent, or the scheme's default).
    pub const fn port(&self) -> Option<u16> {
        self.port
    }
    /// The kind of host.
    pub const fn host_kind(&self) -> HostKind {
        self.host_kind
    }
    /// The kind of scheme.
    pub const fn scheme_kind(&self) -> SchemeKind {
        self.scheme_kind
    }
    /// Whether the URL has an opaque path (§4.1), e.g. `mailto:a@b`.
    pub const fn has_opaque_path(&self) -> bool {
        self.opaque_path
    }
    /// Whether the URL is special (§4.1).
    pub const fn is_special(&self) -> bool {
        self.scheme_kind.is_special()
    }

    /// End of the path: where the query, the fragment or the string begins.
    #[inline]
    pub(crate) fn path_end(&self, s: &str) -> usize {
        match (self.query_start, self.fragment_start) {
            (Some(q), _) => q as usize,
            (None, Some(f)) => f as usize,
            (None, None) => s.len(),
        }
    }

    /// End of the authority (host and port): the start of the path, less the `/.`
    /// prefix a host-less URL may carry.
    #[inline]
    pub(crate) fn authority_end(&self) -> usize {
        if self.host_kind == HostKind::None {
            self.host_end as usize
        } else {
            self.path_start as usize
        }
    }

    // ---- The URL API getters (URL Standard §6.1), written once. ----

    /// `protocol`: the scheme followed by `:`.
    #[inline]
    pub(crate) fn protocol<'s>(&self, s: &'s str) -> &'s str {
        &s[self.protocol_range()]
    }

    /// Where [`Components::protocol`] lies in the serialization.
    #[inline]
    pub(crate) fn protocol_range(&self) -> Range<usize> {
        0..self.scheme_end as usize + 1
    }

    /// The scheme without `:`.
    #[inline]
    pub(crate) fn scheme<'s>(&self, s: &'s str) -> &'s str {
        &s[..self.scheme_end as usize]
    }

    /// `username`.
    #[inline]
    pub(crate) fn username<'s>(&self, s: &'s str) -> &'s str {
        &s[self.username_range()]
    }

    /// Where [`Components::username`] lies in the serialization (empty when it is).
    #[inline]
    pub(crate) fn username_range(&self) -> Range<usize> {
        if self.host_kind == HostKind::None {
            return 0..0;
        }
        self.scheme_end as usize + 3..self.username_end as usize
    }

    /// `password`.
    #[inline]
    pub(crate) fn password<'s>(&self, s: &'s str) -> &'s str {
        &s[self.password_range(s)]
    }

    /// Where [`Components::password`] lies in the serialization `s` (empty when it is).
    #[inline]
    pub(crate) fn password_range(&self, s: &str) -> Range<usize> {
        let (ue, hs) = (self.username_end as usize, self.host_start as usize);
        if hs > ue + 1 && s.as_bytes()[ue] == b':' {
            ue + 1..hs - 1
        } else {
            0..0
        }
    }

    /// Whether the URL includes credentials (a non-empty username or password).
    #[inline]
    pub(crate) fn has_credentials(&self) -> bool {
        self.host_start > self.username_end
    }

    /// `hostname`: the serialized host, `""` when it is null.
    #[inline]
    pub(crate) fn hostname<'s>(&self, s: &'s str) -> &'s str {
        &s[self.hostname_range()]
    }

    /// Where [`Components::hostname`] lies in the serialization.
    #[inline]
    pub(crate) fn hostname_range(&self) -> Range<usize> {
        self.host_start as usize..self.host_end as usize
    }

    /// `host`: hostname and, when the port is not null, `:` and the port.
    #[inline]
    pub(crate) fn host<'s>(&self, s: &'s str) -> &'s str {
        &s[self.host_range()]
    }

    /// Where [`Components::host`] lies in the serialization.
    #[inline]
    pub(crate) fn host_range(&self) -> Range<usize> {
        self.host_start as usize..self.authority_end()
    }

    /// `port`: the port's digits, or `""`.
    #[inline]
    pub(crate) fn port_str<'s>(&self, s: &'s str) -> &'s str {
        &s[self.port_range()]
    }

    /// Where [`Components::port_str`] lies in the serialization (empty when it is).
    #[inline]
    pub(crate) fn port_range(&self) -> Range<usize> {
        if self.port.is_some() {
            self.host_end as usize + 1..self.path_start as usize
        } else {
            0..0
        }
    }

    /// `pathname`: the URL path serializer's result.
    #[inline]
    pub(crate) fn pathname<'s>(&self, s: &'s str) -> &'s str {
        &s[self.pathname_range(s)]
    }

    /// Where [`Components::pathname`] lies in the serialization `s`.
    #[inline]
    pub(crate) fn pathname_range(&self, s: &str) -> Range<usize> {
        self.path_start as usize..self.path_end(s)
    }

    /// The query without `?`, or `None` when it is null.
    #[inline]
    pub(crate) fn query<'s>(&self, s: &'s str) -> Option<&'s str> {
        let q = self.query_start? as usize;
        let end = self.fragment_start.map_or(s.len(), |f| f as usize);
        Some(&s[q + 1..end])
    }

    /// The fragment without `#`, or `None` when it is null.
    #[inline]
    pub(crate) fn fragment<'s>(&self, s: &'s str) -> Option<&'s str> {
        Some(&s[self.fragment_start? as usize + 1..])
    }

    /// `search`: `""` when the query is null or empty, else `?` and the query.
    #[inline]
    pub(crate) fn search<'s>(&self, s: &'s str) -> &'s str {
        &s[self.search_range(s)]
    }

    /// Where [`Components::search`] lies in the serialization `s` (empty when it is).
    #[inline]
    pub(crate) fn search_range(&self, s: &str) -> Range<usize> {
        let Some(q) = self.query_start else {
            return 0..0;
        };
        let end = self.fragment_start.map_or(s.len(), |f| f as usize);
        if end - q as usize == 1 {
            0..0
        } else {
            q as usize..end
        }
    }

    /// `hash`: `""` when the fragment is null or empty, else `#` and the fragment.
    #[inline]
    pub(crate) fn hash<'s>(&self, s: &'s str) -> &'s str {
        &s[self.hash_range(s)]
    }

    /// Where [`Components::hash`] lies in the serialization `s` (empty when it is).
    #[inline]
    pub(crate) fn hash_range(&self, s: &str) -> Range<usize> {
        match self.fragment_start {
            Some(f) if s.len() - f as usize > 1 => f as usize..s.len(),
            _ => 0..0,
        }
    }

    /// The serialization without the fragment (§4.5 with exclude fragment).
    #[inline]
    pub(crate) fn without_fragment<'s>(&self, s: &'s str) -> &'s str {
        &s[..self.fragment_start.map_or(s.len(), |f| f as usize)]
    }

    /// The port, or the scheme's default port when the port is null.
    #[inline]
    pub(crate) fn port_or_known_default(&self) -> Option<u16> {
        self.port.or(self.scheme_kind.default_port())
    }

    /// The segments of a hierarchical path; `None` for an opaque path.
    #[inline]
    pub(crate) fn path_segments<'s>(&self, s: &'s str) -> Option<PathSegments<'s>> {
        if self.opaque_path {
            return None;
        }
        let path = self.pathname(s);
        Some(PathSegments {
            rest: path.strip_prefix('/'),
        })
    }

    /// Checks that these components describe `serialization` as the module documentation
    /// says; `Err` names the first rule that does not hold. Every producer of components
    /// (state machine, fast path, setters, column rows) is followed by this check in debug
    /// builds, and the property tests and fuzz targets call it on every URL they see.
    ///
    /// ```
    /// let url = rapidurl::Url::parse("https://a@example.com:8/p?q#f").unwrap();
    /// assert_eq!(url.components().check(url.as_str()), Ok(()));
    /// assert!(url.components().check("https://example.com/").is_err());
    /// ```
    pub fn check(&self, serialization: &str) -> Result<(), &'static str> {
        let s = serialization.as_bytes();
        let len = s.len();
        let rule = |ok: bool, name: &'static str| if ok { Ok(()) } else { Err(name) };
        rule(s.is_ascii(), "the serialization is ASCII")?;
        let se = self.scheme_end as usize;
        rule(
            se > 0 && se < len && s[se] == b':',
            "scheme_end is the `:` after the scheme",
        )?;
        rule(
            crate::syntax::scheme_len(s) == Some(se) && !s[..se].iter().any(u8::is_ascii_uppercase),
            "the scheme is a lower-case scheme",
        )?;
        rule(
            SchemeKind::from_bytes(&s[..se]) == self.scheme_kind,
            "scheme_kind is the scheme's",
        )?;
        let (ue, hs, he, ps) = (
            self.username_end as usize,
            self.host_start as usize,
            self.host_end as usize,
            self.path_start as usize,
        );
        let q = self.query_start.map(|q| q as usize);
        let f = self.fragment_start.map(|f| f as usize);
        rule(
            se < ue && ue <= hs && hs <= he && he <= ps && ps <= len,
            "scheme_end < username_end <= host_start <= host_end <= path_start <= len",
        )?;
        let path_end = q.or(f).unwrap_or(len);
        rule(ps <= path_end, "the path ends after it starts")?;
        if let Some(q) = q {
            rule(q < len && s[q] == b'?', "query_start is a `?`")?;
            rule(
                f.is_none_or(|f| q < f),
                "the query comes before the fragment",
            )?;
        }
        if let Some(f) = f {
            rule(f < len && s[f] == b'#', "fragment_start is a `#`")?;
        }
        if self.host_kind == HostKind::None {
            rule(
                ue == se + 1 && hs == ue && he == ue,
                "without a host, the authority offsets are scheme_end + 1",
            )?;
            rule(self.port.is_none(), "without a host there is no port")?;
            let dot = ps == se + 3 && &s[se + 1..ps] == b"/." && s[ps..].starts_with(b"//");
            rule(
                ps == he || dot,
                "without a host the path follows, or `/.` then `//`",
            )?;
            if self.opaque_path {
                rule(
                    ps == he && s.get(ps) != Some(&b'/'),
                    "an opaque path does not start with `/`",
                )?;
            }
            return Ok(());
        }
        rule(!self.opaque_path, "a URL with a host has no opaque path")?;
        rule(&s[se + 1..se + 3] == b"//", "a host follows `//`")?;
        rule(ue >= se + 3, "the username starts after `//`")?;
        if ue == hs {
            // No credentials.
        } else {
            rule(s[hs - 1] == b'@', "credentials end with `@`")?;
            rule(hs - 1 == ue || s[ue] == b':', "a password follows `:`")?;
        }
        let host = &s[hs..he];
        match self.host_kind {
            HostKind::Empty => rule(host.is_empty(), "an empty host is empty")?,
            HostKind::Ipv6 => rule(
                host.len() > 2 && host[0] == b'[' && host[host.len() - 1] == b']',
                "an IPv6 host is in brackets",
            )?,
            _ => rule(!host.is_empty(), "a host is not empty")?,
        }
        match self.port {
            None => rule(he == ps, "without a port the path follows the host")?,
            Some(port) => {
                rule(
                    Some(port) != self.scheme_kind.default_port(),
                    "a default port is null",
                )?;
                let text = &serialization[he..ps];
                rule(
                    text.strip_prefix(':').and_then(|d| d.parse::<u16>().ok()) == Some(port)
                        && !text[1..].starts_with('0')
                        || text == ":0" && port == 0,
                    "the port is written after the host as `:` and its decimal digits",
                )?;
            }
        }
        if self.scheme_kind.is_special() {
            rule(
                s.get(ps) == Some(&b'/'),
                "a special URL's path starts with `/`",
            )?;
        } else {
            rule(
                ps == path_end || s[ps] == b'/',
                "a path after a host starts with `/`",
            )?;
        }
        Ok(())
    }
}

/// The segments of a URL's path, between its slashes, as serialized (percent-encoded):
/// `/a/b/` gives `"a"`, `"b"`, `""`. Made by `path_segments` on [`crate::Url`] and
/// [`crate::UrlRef`].
#[derive(Clone, Debug)]
pub struct PathSegments<'s> {
    /// The path after its leading `/`; `None` when it is exhausted (or was empty).
    rest: Option<&'s str>,
}

impl<'s> Iterator for PathSegments<'s> {
    type Item = &'s str;

    #[inline]
    fn next(&mut self) -> Option<&'s str> {
        let rest = self.rest?;
        match memchr::memchr(b'/', rest.as_bytes()) {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

impl std::iter::FusedIterator for PathSegments<'_> {}
