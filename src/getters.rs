//! The URL API getters, written once over [`Components`](crate::Components) and generated
//! for [`Url`](crate::Url) and [`UrlRef`](crate::UrlRef).
//!
//! The macro sits above `components`, `origin` and both URL types: `components` stays a
//! description of offsets that needs nothing else, and `origin` reads components without
//! knowing the types that expand this macro.

/// The URL API getters, written once and generated for [`crate::Url`] and
/// [`crate::UrlRef`]. The type must have a `components: Components` field and an
/// `fn src(&self) -> &$lt str` returning its serialization; `$lt` is the lifetime of the
/// returned slices (`'_` for an owned URL, the input's lifetime for a view); `$open` and
/// `$close` wrap a URL string into an expression that parses it, for the doc examples.
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
        #[cfg(feature = "psl")]
        #[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
        #[inline]
        pub fn public_suffix(&self) -> Option<&$lt str> {
            let list = $crate::psl::SuffixList::builtin();
            let last_two = $crate::psl::builtin_last_two;
            $crate::psl::suffix_part(&self.components, self.src(), list, $crate::psl::SuffixPart::PublicSuffix, last_two)
        }

        /// The registrable domain of the host (URL Standard §3.2) over the built-in list:
        /// the public suffix and the label before it; `None` when the host is not a domain
        /// or is a public suffix itself.
        #[cfg(feature = "psl")]
        #[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
        #[inline]
        pub fn registrable_domain(&self) -> Option<&$lt str> {
            let list = $crate::psl::SuffixList::builtin();
            let last_two = $crate::psl::builtin_last_two;
            $crate::psl::suffix_part(&self.components, self.src(), list, $crate::psl::SuffixPart::RegistrableDomain, last_two)
        }

        /// The labels of the host before its registrable domain (built-in list), without
        /// the dot that ends them: `Some("")` when the host is its registrable domain,
        /// `None` when it has none.
        #[cfg(feature = "psl")]
        #[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
        #[inline]
        pub fn subdomain(&self) -> Option<&$lt str> {
            let list = $crate::psl::SuffixList::builtin();
            let last_two = $crate::psl::builtin_last_two;
            $crate::psl::suffix_part(&self.components, self.src(), list, $crate::psl::SuffixPart::Subdomain, last_two)
        }

        /// [`Self::public_suffix`], [`Self::registrable_domain`] or [`Self::subdomain`]
        /// (`part`) over `list` and `sections`: the short cut of the getters for the
        /// whole list, a full lookup for a section.
        #[cfg(feature = "psl")]
        #[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
        #[inline]
        #[allow(dead_code)] // `rapidurl::field` reads it on `UrlRef` only
        pub(crate) fn suffix_part(
            &self,
            list: &$crate::psl::SuffixList,
            sections: $crate::psl::Sections,
            part: $crate::psl::SuffixPart,
        ) -> Option<&$lt str> {
            if sections != $crate::psl::Sections::All {
                return part.of(&self.domain_suffix(list, sections)?);
            }
            let last_two = |s: &str, start, end| list.last_two_in(s, start, end);
            $crate::psl::suffix_part(&self.components, self.src(), list, part, last_two)
        }

        /// The public suffix lookup of the host in any list and section(s): the suffix,
        /// whether a rule of the list matched, the registrable domain and the subdomain.
        /// `None` unless the host is a domain.
        #[cfg(feature = "psl")]
        #[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
        #[inline]
        pub fn domain_suffix(
            &self,
            list: &$crate::psl::SuffixList,
            sections: $crate::psl::Sections,
        ) -> Option<$crate::psl::Suffix<$lt>> {
            $crate::psl::domain_suffix(&self.components, self.src(), list, sections)
        }

        /// The last label of a domain host, without a trailing dot (`"uk"` for
        /// `www.example.co.uk`); `None` for other hosts.
        #[cfg(feature = "psl")]
        #[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
        #[inline]
        pub fn top_level_domain(&self) -> Option<&$lt str> {
            $crate::psl::top_level_domain(&self.components, self.src())
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
