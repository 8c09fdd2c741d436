//! The URL API getters, written once over [`Components`](crate::Components) and generated
//! for [`Url`](crate::Url) and [`UrlRef`](crate::UrlRef).
//!
//! The macro sits above `components`, `origin` and both URL types: `components` stays a
//! description of offsets that needs nothing else, and `origin` reads components without
//! knowing the types that expand this macro.

/// The URL API getters, written once and generated for [`crate::Url`] and
/// [`crate::UrlRef`]. The type must have a `components: Components` field and an
/// `fn src(&self) -> &$lt str` returning its serialization; `$lt` is the lifetime of the
/// returned slices (`'_` for an owned URL, the input's lifetime for a view).
macro_rules! url_getters {
    ($lt:lifetime) => {
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
    };
}
pub(crate) use url_getters;
