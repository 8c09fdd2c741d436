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

use crate::psl::{Sections, Suffix, SuffixList};

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

/// A URL's scheme, as far as the Standard treats schemes differently (§4.1 special schemes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SchemeKind {
    /// `http`, default port 80.
    Http,
    /// `https`, default port 443.
    Https,
    /// `ws`, default port 80.
    Ws,
    /// `wss`, default port 443.
    Wss,
    /// `ftp`, default port 21.
    Ftp,
    /// `file`, no default port.
    File,
    /// Any scheme that is not special.
    NotSpecial,
}

impl SchemeKind {
    /// Classifies an ASCII-lowercase scheme.
    #[inline]
    pub fn from_scheme(scheme: &str) -> SchemeKind {
        match scheme {
            "http" => SchemeKind::Http,
            "https" => SchemeKind::Https,
            "ws" => SchemeKind::Ws,
            "wss" => SchemeKind::Wss,
            "ftp" => SchemeKind::Ftp,
            "file" => SchemeKind::File,
            _ => SchemeKind::NotSpecial,
        }
    }

    /// Whether the scheme is special (§4.1): ftp, file, http, https, ws, wss.
    #[inline]
    pub const fn is_special(self) -> bool {
        !matches!(self, SchemeKind::NotSpecial)
    }

    /// The scheme's default port (§4.1), if it has one.
    #[inline]
    pub const fn default_port(self) -> Option<u16> {
        match self {
            SchemeKind::Http | SchemeKind::Ws => Some(80),
            SchemeKind::Https | SchemeKind::Wss => Some(443),
            SchemeKind::Ftp => Some(21),
            SchemeKind::File | SchemeKind::NotSpecial => None,
        }
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
        &s[..self.scheme_end as usize + 1]
    }

    /// The scheme without `:`.
    #[inline]
    pub(crate) fn scheme<'s>(&self, s: &'s str) -> &'s str {
        &s[..self.scheme_end as usize]
    }

    /// `username`.
    #[inline]
    pub(crate) fn username<'s>(&self, s: &'s str) -> &'s str {
        if self.host_kind == HostKind::None {
            return "";
        }
        &s[self.scheme_end as usize + 3..self.username_end as usize]
    }

    /// `password`.
    #[inline]
    pub(crate) fn password<'s>(&self, s: &'s str) -> &'s str {
        let (ue, hs) = (self.username_end as usize, self.host_start as usize);
        if hs > ue + 1 && s.as_bytes()[ue] == b':' {
            &s[ue + 1..hs - 1]
        } else {
            ""
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
        &s[self.host_start as usize..self.host_end as usize]
    }

    /// `host`: hostname and, when the port is not null, `:` and the port.
    #[inline]
    pub(crate) fn host<'s>(&self, s: &'s str) -> &'s str {
        &s[self.host_start as usize..self.authority_end()]
    }

    /// `port`: the port's digits, or `""`.
    #[inline]
    pub(crate) fn port_str<'s>(&self, s: &'s str) -> &'s str {
        if self.port.is_some() {
            &s[self.host_end as usize + 1..self.path_start as usize]
        } else {
            ""
        }
    }

    /// `pathname`: the URL path serializer's result.
    #[inline]
    pub(crate) fn pathname<'s>(&self, s: &'s str) -> &'s str {
        &s[self.path_start as usize..self.path_end(s)]
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
        let Some(q) = self.query_start else { return "" };
        let end = self.fragment_start.map_or(s.len(), |f| f as usize);
        if end - q as usize == 1 {
            ""
        } else {
            &s[q as usize..end]
        }
    }

    /// `hash`: `""` when the fragment is null or empty, else `#` and the fragment.
    #[inline]
    pub(crate) fn hash<'s>(&self, s: &'s str) -> &'s str {
        match self.fragment_start {
            Some(f) if s.len() - f as usize > 1 => &s[f as usize..],
            _ => "",
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

    // ---- Host and path analytics (§3.2 public suffix, registrable domain). ----

    /// The public suffix lookup of the host (§3.2): `None` unless the host is a domain.
    #[inline]
    pub(crate) fn domain_suffix<'s>(
        &self,
        s: &'s str,
        list: &SuffixList,
        sections: Sections,
    ) -> Option<Suffix<'s>> {
        if self.host_kind != HostKind::Domain {
            return None;
        }
        list.lookup(self.hostname(s), sections)
    }

    /// The last label of a domain host, without the trailing dot.
    #[inline]
    pub(crate) fn top_level_domain<'s>(&self, s: &'s str) -> Option<&'s str> {
        if self.host_kind != HostKind::Domain {
            return None;
        }
        let host = self.hostname(s);
        let name = host.strip_suffix('.').unwrap_or(host);
        let label = name.rsplit('.').next()?;
        (!label.is_empty()).then_some(label)
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

/// The URL API getters, written once and generated for [`crate::Url`] and
/// [`crate::UrlRef`]. The type must have a `components: Components` field and an
/// `fn src(&self) -> &$lt str` returning its serialization; `$lt` is the lifetime of the
/// returned slices (`'_` for an owned URL, the input's lifetime for a view).
macro_rules! url_getters {
    ($lt:lifetime, $open:literal, $close:literal) => {
        /// The serialization (§4.5): same as `href`.
        #[inline]
        pub fn as_str(&self) -> &$lt str {
            self.src()
        }

        /// `href`: the serialization.
        #[inline]
        pub fn href(&self) -> &$lt str {
            self.src()
        }

        /// The component offsets.
        #[inline]
        pub fn components(&self) -> &Components {
            &self.components
        }

        /// `origin`: the ASCII serialization of the URL's origin (§4.7): `"null"` for an
        /// opaque origin.
        pub fn origin(&self) -> String {
            self.to_origin().to_string()
        }

        /// The URL's origin (§4.7) as a value.
        pub fn to_origin(&self) -> $crate::Origin {
            $crate::Origin::from_parts(self.src(), &self.components)
        }

        /// `protocol`: the scheme and `:`.
        #[inline]
        pub fn protocol(&self) -> &$lt str {
            self.components.protocol(self.src())
        }

        /// The scheme, lower case, without `:`.
        #[inline]
        pub fn scheme(&self) -> &$lt str {
            self.components.scheme(self.src())
        }

        /// `username`, percent-encoded.
        #[inline]
        pub fn username(&self) -> &$lt str {
            self.components.username(self.src())
        }

        /// `password`, percent-encoded.
        #[inline]
        pub fn password(&self) -> &$lt str {
            self.components.password(self.src())
        }

        /// `host`: the serialized host and, if the port is not null, `:` and the port.
        #[inline]
        pub fn host(&self) -> &$lt str {
            self.components.host(self.src())
        }

        /// `hostname`: the serialized host (`""` when the host is null).
        #[inline]
        pub fn hostname(&self) -> &$lt str {
            self.components.hostname(self.src())
        }

        /// `port`: the port's digits, or `""` when the port is null (absent or default).
        #[inline]
        pub fn port(&self) -> &$lt str {
            self.components.port_str(self.src())
        }

        /// The port as a number, `None` when it is null.
        #[inline]
        pub fn port_number(&self) -> Option<u16> {
            self.components.port
        }

        /// The port, or the scheme's default port when it is null (`None` for schemes
        /// with no default port).
        #[inline]
        pub fn port_or_known_default(&self) -> Option<u16> {
            self.components.port_or_known_default()
        }

        /// `pathname`: the URL path serializer's result.
        #[inline]
        pub fn pathname(&self) -> &$lt str {
            self.components.pathname(self.src())
        }

        /// `search`: `""` when the query is null or empty, else `?` and the query.
        #[inline]
        pub fn search(&self) -> &$lt str {
            self.components.search(self.src())
        }

        /// The query without `?`; `None` when it is null (`Some("")` for `?` alone).
        #[inline]
        pub fn query(&self) -> Option<&$lt str> {
            self.components.query(self.src())
        }

        /// `hash`: `""` when the fragment is null or empty, else `#` and the fragment.
        #[inline]
        pub fn hash(&self) -> &$lt str {
            self.components.hash(self.src())
        }

        /// The fragment without `#`; `None` when it is null.
        #[inline]
        pub fn fragment(&self) -> Option<&$lt str> {
            self.components.fragment(self.src())
        }

        /// The kind of host.
        #[inline]
        pub fn host_kind(&self) -> HostKind {
            self.components.host_kind
        }

        /// Whether the URL is special (§4.1: ftp, file, http, https, ws, wss).
        #[inline]
        pub fn is_special(&self) -> bool {
            self.components.is_special()
        }

        /// The kind of scheme.
        #[inline]
        pub fn scheme_kind(&self) -> SchemeKind {
            self.components.scheme_kind
        }

        /// Whether the URL has an opaque path (§4.1), like `mailto:` or `data:` URLs.
        #[inline]
        pub fn has_opaque_path(&self) -> bool {
            self.components.opaque_path
        }

        /// Whether the URL includes credentials (a non-empty username or password).
        #[inline]
        pub fn has_credentials(&self) -> bool {
            self.components.has_credentials()
        }

        /// The serialization without the fragment (§4.5 with exclude fragment).
        #[inline]
        pub fn without_fragment(&self) -> &$lt str {
            self.components.without_fragment(self.src())
        }

        /// The public suffix of the host (URL Standard §3.2) over the built-in Public
        /// Suffix List (both sections, as browsers use it): `None` unless the host is a
        /// domain. ASCII as the host is, with its trailing dot if it has one.
        ///
        /// ```
        #[doc = concat!("# ", $open, "\"https://www.example.co.uk./x\"", $close)]
        #[doc = "# .map(|url| {"]
        /// assert_eq!(url.public_suffix(), Some("co.uk."));
        /// assert_eq!(url.registrable_domain(), Some("example.co.uk."));
        /// assert_eq!(url.subdomain(), Some("www"));
        /// assert_eq!(url.top_level_domain(), Some("uk"));
        #[doc = "# }).unwrap();"]
        /// ```
        #[inline]
        pub fn public_suffix(&self) -> Option<&$lt str> {
            let list = $crate::psl::SuffixList::builtin();
            Some(self.domain_suffix(list, $crate::psl::Sections::All)?.as_str())
        }

        /// The registrable domain of the host (URL Standard §3.2) over the built-in list:
        /// the public suffix and the label before it; `None` when the host is not a domain
        /// or is a public suffix itself.
        #[inline]
        pub fn registrable_domain(&self) -> Option<&$lt str> {
            let list = $crate::psl::SuffixList::builtin();
            self.domain_suffix(list, $crate::psl::Sections::All)?
                .registrable_domain()
        }

        /// The labels of the host before its registrable domain (built-in list), without
        /// the dot that ends them: `Some("")` when the host is its registrable domain,
        /// `None` when it has none.
        #[inline]
        pub fn subdomain(&self) -> Option<&$lt str> {
            let list = $crate::psl::SuffixList::builtin();
            self.domain_suffix(list, $crate::psl::Sections::All)?.subdomain()
        }

        /// The public suffix lookup of the host in any list and section(s): the suffix,
        /// whether a rule of the list matched, the registrable domain and the subdomain.
        /// `None` unless the host is a domain.
        #[inline]
        pub fn domain_suffix(
            &self,
            list: &$crate::psl::SuffixList,
            sections: $crate::psl::Sections,
        ) -> Option<$crate::psl::Suffix<$lt>> {
            self.components.domain_suffix(self.src(), list, sections)
        }

        /// The last label of a domain host, without a trailing dot (`"uk"` for
        /// `www.example.co.uk`); `None` for other hosts.
        #[inline]
        pub fn top_level_domain(&self) -> Option<&$lt str> {
            self.components.top_level_domain(self.src())
        }

        /// The path's segments, percent-encoded as serialized (`/a/b/` gives `a`, `b`,
        /// `""`); `None` for an opaque path (`mailto:x`).
        #[inline]
        pub fn path_segments(&self) -> Option<$crate::PathSegments<$lt>> {
            self.components.path_segments(self.src())
        }

        /// The query's name-value pairs as the application/x-www-form-urlencoded parser
        /// reads them (§5.1), borrowed and decoded only when asked: no allocation.
        #[inline]
        pub fn query_pairs(&self) -> $crate::form::Pairs<$lt> {
            $crate::form::Pairs::new(self.query().unwrap_or(""))
        }

        /// The decoded value of the first query pair whose decoded name is `name`:
        /// borrowed (no allocation) unless the value holds `+` or `%`.
        ///
        /// ```
        #[doc = concat!("# ", $open, "\"https://a.example/?q=caf%C3%A9+au+lait&id=7&id=8\"", $close)]
        #[doc = "# .map(|url| {"]
        /// assert_eq!(url.query_param("id").as_deref(), Some("7"));
        /// assert_eq!(url.query_param("q").as_deref(), Some("café au lait"));
        /// assert_eq!(url.query_param("x"), None);
        #[doc = "# }).unwrap();"]
        /// ```
        #[inline]
        pub fn query_param(&self, name: &str) -> Option<std::borrow::Cow<$lt, str>> {
            self.query_pairs()
                .find(|(n, _)| n.decodes_to(name))
                .map(|(_, v)| v.decode())
        }
    };
}
pub(crate) use url_getters;
