//! The `url` crate's API (version 2.5.8), built on [rapidurl]: every method, type and
//! trait of `url::Url`, with the URL Standard's results.
//!
//! Add it under a whole dependency tree with a patch in the application's `Cargo.toml`:
//!
//! ```toml
//! [patch.crates-io]
//! url = { path = "…/rapidurl/compat/url" }
//! ```
//!
//! `cargo tree -i url` then shows every dependent of `url` on this crate.
//!
//! ```
//! use url::{Host, Url};
//! let url = Url::parse("HTTPS://User@Example.COM:443/a/./b/../c?q=1#top").unwrap();
//! assert_eq!(url.as_str(), "https://User@example.com/a/c?q=1#top");
//! assert_eq!(url.host(), Some(Host::Domain("example.com")));
//! assert_eq!(url.port(), None);
//! assert_eq!(url.port_or_known_default(), Some(443));
//! assert_eq!(url.join("../d").unwrap().as_str(), "https://User@example.com/d");
//! ```
//!
//! Where the `url` crate departs from the URL Standard, this crate gives the Standard's
//! answer; docs/url-compat.md in the rapidurl repository lists each difference.
//!
//! [rapidurl]: https://docs.rs/rapidurl

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod edit;
mod error;
#[cfg(feature = "std")]
mod file_path;
mod host;
mod origin;
mod parser;
mod path_segments;
mod query;
pub mod quirks;
#[cfg(feature = "serde")]
mod serde_impl;
mod slicing;

pub use crate::error::{ParseError, SyntaxViolation};
pub use crate::host::Host;
pub use crate::origin::{OpaqueOrigin, Origin};
pub use crate::path_segments::PathSegmentsMut;
pub use crate::query::UrlQuery;
pub use crate::slicing::Position;
pub use form_urlencoded;
pub use form_urlencoded::EncodingOverride;

use crate::host::ipv6_from_pieces;
use rapidurl::HostKind;
use std::borrow::Borrow;
use std::cmp;
use std::fmt;
use std::hash;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::str;

/// A parsed URL: its serialization (ASCII) and where each component lies in it.
///
/// Every getter reads the serialization; every setter writes a new one, which is what
/// the URL Standard's parser makes of it.
#[derive(Clone)]
pub struct Url {
    pub(crate) inner: rapidurl::Url,
}

/// Options for parsing a URL: a base URL, an encoding for the query, and a callback for
/// syntax violations. Made by [`Url::options`].
#[derive(Copy, Clone)]
#[must_use]
pub struct ParseOptions<'a> {
    base_url: Option<&'a Url>,
    encoding_override: EncodingOverride<'a>,
    violation_fn: Option<&'a dyn Fn(SyntaxViolation)>,
}

impl<'a> ParseOptions<'a> {
    /// Resolves relative inputs against `new`.
    pub fn base_url(mut self, new: Option<&'a Url>) -> Self {
        self.base_url = new;
        self
    }

    /// Encodes the query of a special URL (not `ws:`/`wss:`) with `new` instead of UTF-8,
    /// before it is percent-encoded.
    pub fn encoding_override(mut self, new: EncodingOverride<'a>) -> Self {
        self.encoding_override = new;
        self
    }

    /// Calls `new` with each non-fatal syntax violation found while parsing.
    pub fn syntax_violation_callback(mut self, new: Option<&'a dyn Fn(SyntaxViolation)>) -> Self {
        self.violation_fn = new;
        self
    }

    /// Parses `input` with these options.
    pub fn parse(self, input: &str) -> Result<Url, ParseError> {
        parser::parse_with(
            input,
            self.base_url.map(|b| &b.inner),
            self.encoding_override,
            self.violation_fn,
        )
        .map(|inner| Url { inner })
    }
}

impl Url {
    /// Parses an absolute URL.
    ///
    /// ```
    /// let url = url::Url::parse("https://example.net").unwrap();
    /// assert_eq!(url.as_str(), "https://example.net/");
    /// assert!(url::Url::parse("/relative").is_err());
    /// ```
    #[inline]
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        match rapidurl::Url::parse(input) {
            Ok(inner) => Ok(Url { inner }),
            Err(e) => Err(parser::parse_error(&e, input, None)),
        }
    }

    /// Parses an absolute URL and appends `iter`'s pairs to its query,
    /// `application/x-www-form-urlencoded`.
    ///
    /// ```
    /// let url = url::Url::parse_with_params("https://example.net?dont=clobberme",
    ///     &[("lang", "rust"), ("browser", "servo")]).unwrap();
    /// assert_eq!(url.as_str(), "https://example.net/?dont=clobberme&lang=rust&browser=servo");
    /// ```
    pub fn parse_with_params<I, K, V>(input: &str, iter: I) -> Result<Url, ParseError>
    where
        I: IntoIterator,
        I::Item: Borrow<(K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let mut url = Url::options().parse(input)?;
        url.query_pairs_mut().extend_pairs(iter);
        Ok(url)
    }

    /// Parses `input` relative to this URL.
    ///
    /// ```
    /// let base = url::Url::parse("https://example.net/a/b.html").unwrap();
    /// assert_eq!(base.join("c.png").unwrap().as_str(), "https://example.net/a/c.png");
    /// ```
    #[inline]
    pub fn join(&self, input: &str) -> Result<Url, ParseError> {
        match rapidurl::Url::parse_with_base(input, &self.inner) {
            Ok(inner) => Ok(Url { inner }),
            Err(e) => Err(parser::parse_error(&e, input, Some(&self.inner))),
        }
    }

    /// A relative URL that `self.join` turns into `url`, or `None` when there is none
    /// (another scheme, host or port, or `self` cannot be a base).
    ///
    /// ```
    /// let base = url::Url::parse("https://example.net/a/b.html").unwrap();
    /// let url = url::Url::parse("https://example.net/a/c.png").unwrap();
    /// assert_eq!(base.make_relative(&url).as_deref(), Some("c.png"));
    /// ```
    pub fn make_relative(&self, url: &Url) -> Option<String> {
        if self.cannot_be_a_base()
            || self.scheme() != url.scheme()
            || self.host() != url.host()
            || self.port() != url.port()
        {
            return None;
        }
        // Each path as its directory and its last segment.
        fn split_last(path: &str) -> (&str, &str) {
            match path.rfind('/') {
                Some(i) => (&path[..i], &path[i + 1..]),
                None => ("", path),
            }
        }
        let (base_dir, base_file) = split_last(self.path());
        let (dir, file) = split_last(url.path());
        let mut base_segments = base_dir.split('/').peekable();
        let mut segments = dir.split('/').peekable();
        while base_segments.peek().is_some() && base_segments.peek() == segments.peek() {
            base_segments.next();
            segments.next();
        }
        let mut relative = String::new();
        let add = |part: &str, relative: &mut String| {
            if !relative.is_empty() {
                relative.push('/');
            }
            relative.push_str(part);
        };
        for segment in base_segments {
            if segment.is_empty() {
                break;
            }
            add("..", &mut relative);
        }
        for segment in segments {
            add(segment, &mut relative);
        }
        if !relative.is_empty() || base_file != file {
            if file.is_empty() {
                relative.push('/');
            } else {
                add(file, &mut relative);
            }
        }
        if let Some(query) = url.query() {
            relative.push('?');
            relative.push_str(query);
        }
        if let Some(fragment) = url.fragment() {
            relative.push('#');
            relative.push_str(fragment);
        }
        Some(relative)
    }

    /// Options for parsing: a base URL, an encoding override, a violation callback.
    ///
    /// ```
    /// let base = url::Url::parse("https://example.net/api/").unwrap();
    /// let url = url::Url::options().base_url(Some(&base)).parse("v1").unwrap();
    /// assert_eq!(url.as_str(), "https://example.net/api/v1");
    /// ```
    pub fn options<'a>() -> ParseOptions<'a> {
        ParseOptions {
            base_url: None,
            encoding_override: None,
            violation_fn: None,
        }
    }

    /// The serialization.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.inner.as_str()
    }

    /// The serialization, as a `String`.
    #[inline]
    pub fn into_string(self) -> String {
        self.inner.into_string()
    }

    /// Checks the offsets against the serialization, and that the serialization parses
    /// back to this URL; says what is wrong otherwise.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.inner
            .components()
            .check(self.as_str())
            .map_err(|rule| format!("{rule} for URL {:?}", self.as_str()))?;
        match rapidurl::Url::parse(self.as_str()) {
            Ok(again) if again.as_str() == self.as_str() => {
                if again.components() == self.inner.components() {
                    Ok(())
                } else {
                    Err(format!(
                        "the offsets differ from a new parse of {:?}",
                        self.as_str()
                    ))
                }
            }
            Ok(again) => Err(format!(
                "{:?} parses to another URL, {:?}",
                self.as_str(),
                again.as_str()
            )),
            Err(e) => Err(format!("{:?} does not parse: {e}", self.as_str())),
        }
    }

    /// The origin (URL Standard §4.7): a tuple of scheme, host and port for `http`,
    /// `https`, `ws`, `wss` and `ftp` (and a `blob:` of one of those), else opaque.
    pub fn origin(&self) -> Origin {
        origin::url_origin(self)
    }

    /// The scheme, lower case, without `:`.
    #[inline]
    pub fn scheme(&self) -> &str {
        self.inner.scheme()
    }

    /// Whether the scheme is special: `http`, `https`, `ws`, `wss`, `ftp` or `file`.
    #[inline]
    pub fn is_special(&self) -> bool {
        self.inner.is_special()
    }

    /// Whether the serialization has `//` after the scheme (an authority, possibly
    /// empty, as in `file:///x`).
    #[inline]
    pub fn has_authority(&self) -> bool {
        self.inner.host_kind() != HostKind::None
    }

    /// The authority: userinfo, host and port, as serialized (`""` without one).
    pub fn authority(&self) -> &str {
        if !self.has_authority() {
            return "";
        }
        let c = self.inner.components();
        &self.as_str()[c.scheme_end() as usize + 3..c.path_start() as usize]
    }

    /// Whether the URL has an opaque path (`mailto:x`, `data:…`): it cannot be a base.
    #[inline]
    pub fn cannot_be_a_base(&self) -> bool {
        self.inner.has_opaque_path()
    }

    /// The username, percent-encoded (`""` when there is none).
    #[inline]
    pub fn username(&self) -> &str {
        self.inner.username()
    }

    /// The password, percent-encoded, or `None` when it is empty.
    #[inline]
    pub fn password(&self) -> Option<&str> {
        let p = self.inner.password();
        (!p.is_empty()).then_some(p)
    }

    /// Whether the URL has a non-empty host.
    #[inline]
    pub fn has_host(&self) -> bool {
        !matches!(self.inner.host_kind(), HostKind::None | HostKind::Empty)
    }

    /// The host as serialized (IPv6 in brackets), or `None` when it is empty or null.
    #[inline]
    pub fn host_str(&self) -> Option<&str> {
        self.has_host().then(|| self.inner.hostname())
    }

    /// The host, or `None` when it is empty or null (`file:///x`, `mailto:x`).
    pub fn host(&self) -> Option<Host<&str>> {
        let name = self.inner.hostname();
        match self.inner.host_kind() {
            HostKind::None | HostKind::Empty => None,
            HostKind::Domain | HostKind::Opaque => Some(Host::Domain(name)),
            HostKind::Ipv4 => rapidurl::host::parse_ipv4(name)
                .ok()
                .map(|a| Host::Ipv4(Ipv4Addr::from(a))),
            HostKind::Ipv6 => rapidurl::host::parse_ipv6(&name[1..name.len() - 1])
                .ok()
                .map(|p| Host::Ipv6(ipv6_from_pieces(&p))),
        }
    }

    /// The domain (or a non-special URL's opaque host), or `None` for an IP address or
    /// no host.
    #[inline]
    pub fn domain(&self) -> Option<&str> {
        match self.inner.host_kind() {
            HostKind::Domain | HostKind::Opaque => Some(self.inner.hostname()),
            _ => None,
        }
    }

    /// The port, or `None` when there is none or it is the scheme's default.
    #[inline]
    pub fn port(&self) -> Option<u16> {
        self.inner.port_number()
    }

    /// The port, or the scheme's default port (`http` 80, `https` 443, `ws` 80, `wss`
    /// 443, `ftp` 21), or `None`.
    #[inline]
    pub fn port_or_known_default(&self) -> Option<u16> {
        self.inner.port_or_known_default()
    }

    /// Resolves the host and port to socket addresses. `default_port_number` gives the
    /// port when the URL has none and the scheme has no default.
    pub fn socket_addrs(
        &self,
        default_port_number: impl Fn() -> Option<u16>,
    ) -> io::Result<Vec<SocketAddr>> {
        let invalid = |message: &str| io::Error::new(io::ErrorKind::InvalidData, message);
        let host = self
            .host()
            .ok_or_else(|| invalid("No host name in the URL"))?;
        let port = self
            .port_or_known_default()
            .or_else(default_port_number)
            .ok_or_else(|| invalid("No port number in the URL"))?;
        Ok(match host {
            Host::Domain(domain) => (domain, port).to_socket_addrs()?.collect(),
            Host::Ipv4(ip) => vec![(ip, port).into()],
            Host::Ipv6(ip) => vec![(ip, port).into()],
        })
    }

    /// The path, percent-encoded: for a URL that can be a base, `""` or `/` and its
    /// segments; else the opaque path.
    #[inline]
    pub fn path(&self) -> &str {
        self.inner.pathname()
    }

    /// The path's segments, split on `/`, or `None` when the path does not start with
    /// `/` (an opaque path, or the empty path of `foo://host`).
    pub fn path_segments(&self) -> Option<str::Split<'_, char>> {
        self.path().strip_prefix('/').map(|rest| rest.split('/'))
    }

    /// The query, without `?`, or `None`.
    #[inline]
    pub fn query(&self) -> Option<&str> {
        // The offsets first: a URL without a query needs no look at its serialization.
        let c = self.inner.components();
        let start = c.query_start()? as usize + 1;
        let s = self.as_str();
        let end = c.fragment_start().map_or(s.len(), |f| f as usize);
        s.get(start..end)
    }

    /// The query's `application/x-www-form-urlencoded` pairs, decoded.
    #[inline]
    pub fn query_pairs(&self) -> form_urlencoded::Parse<'_> {
        form_urlencoded::parse(self.query().map_or(&[][..], str::as_bytes))
    }

    /// The fragment, without `#`, or `None`.
    #[inline]
    pub fn fragment(&self) -> Option<&str> {
        self.inner.fragment()
    }

    /// Sets the fragment (`None` removes it, with `#`). The text is percent-encoded as
    /// the fragment state does.
    pub fn set_fragment(&mut self, fragment: Option<&str>) {
        self.inner.set_fragment(fragment);
    }

    /// Sets the query (`None` removes it, with `?`). The text is percent-encoded as the
    /// query state does (UTF-8).
    pub fn set_query(&mut self, query: Option<&str>) {
        self.inner.set_query(query);
    }

    /// A serializer that appends `application/x-www-form-urlencoded` pairs to the query
    /// (making one if there is none). The URL is updated when it is dropped or finished.
    ///
    /// ```
    /// let mut url = url::Url::parse("https://example.net/?a=1#top").unwrap();
    /// url.query_pairs_mut().append_pair("b", "x y");
    /// assert_eq!(url.as_str(), "https://example.net/?a=1&b=x+y#top");
    /// ```
    pub fn query_pairs_mut(&mut self) -> form_urlencoded::Serializer<'_, UrlQuery<'_>> {
        query::serializer(self)
    }

    /// Sets the path. A URL that cannot be a base gets the text as its opaque path (a
    /// leading `/` written `%2F`); any other runs the path start state on it.
    pub fn set_path(&mut self, path: &str) {
        if self.cannot_be_a_base() {
            edit::set_opaque_path(self, path);
        } else {
            edit::set_path(self, path);
        }
    }

    /// A handle that edits the path's segments, or `Err(())` for a URL that cannot be a
    /// base.
    #[allow(clippy::result_unit_err)]
    pub fn path_segments_mut(&mut self) -> Result<PathSegmentsMut<'_>, ()> {
        if self.cannot_be_a_base() {
            Err(())
        } else {
            Ok(PathSegmentsMut::new(self))
        }
    }

    /// Sets the port (`None`, or the scheme's default, removes it). `Err(())` when the
    /// URL cannot have a port: no host, an empty host, or `file:`.
    #[allow(clippy::result_unit_err)]
    pub fn set_port(&mut self, port: Option<u16>) -> Result<(), ()> {
        if !self.has_host() || self.scheme() == "file" {
            return Err(());
        }
        match port {
            Some(p) => self.inner.set_port(&p.to_string()),
            None => self.inner.set_port(""),
        }
        Ok(())
    }

    /// Sets the host (`None` removes it, with the userinfo and port, where the scheme
    /// allows). The port is kept.
    pub fn set_host(&mut self, host: Option<&str>) -> Result<(), ParseError> {
        edit::set_host(self, host)
    }

    /// Sets the host to an IP address. `Err(())` for a URL that cannot be a base.
    #[allow(clippy::result_unit_err)]
    pub fn set_ip_host(&mut self, address: IpAddr) -> Result<(), ()> {
        if self.cannot_be_a_base() {
            return Err(());
        }
        let host = match address {
            IpAddr::V4(a) => Host::<String>::Ipv4(a),
            IpAddr::V6(a) => Host::Ipv6(a),
        };
        edit::replace_host(self, &host.to_string());
        Ok(())
    }

    /// Sets the password (`None` or `""` removes it), percent-encoded. `Err(())` when the
    /// URL cannot have one: no host, an empty host, or `file:`.
    #[allow(clippy::result_unit_err)]
    pub fn set_password(&mut self, password: Option<&str>) -> Result<(), ()> {
        if !self.has_host() || self.scheme() == "file" {
            return Err(());
        }
        self.inner.set_password(password.unwrap_or(""));
        Ok(())
    }

    /// Sets the username, percent-encoded. `Err(())` when the URL cannot have one: no
    /// host, an empty host, or `file:`.
    #[allow(clippy::result_unit_err)]
    pub fn set_username(&mut self, username: &str) -> Result<(), ()> {
        if !self.has_host() || self.scheme() == "file" {
            return Err(());
        }
        self.inner.set_username(username);
        Ok(())
    }

    /// Sets the scheme. `Err(())` when `scheme` is not a scheme, or would move the URL
    /// between special and non-special, or make `file:` of a URL with an authority, or
    /// a special URL of one without a host.
    #[allow(clippy::result_unit_err)]
    pub fn set_scheme(&mut self, scheme: &str) -> Result<(), ()> {
        edit::set_scheme(self, scheme)
    }

    /// The `file:` URL of an absolute path. `Err(())` for a relative path.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// let url = url::Url::from_file_path("/tmp/a b.txt").unwrap();
    /// assert_eq!(url.as_str(), "file:///tmp/a%20b.txt");
    /// # }
    /// ```
    #[cfg(feature = "std")]
    #[allow(clippy::result_unit_err)]
    pub fn from_file_path<P: AsRef<std::path::Path>>(path: P) -> Result<Url, ()> {
        file_path::from_file_path(path.as_ref())
    }

    /// The `file:` URL of an absolute directory path: [`Url::from_file_path`] with a
    /// trailing `/`.
    #[cfg(feature = "std")]
    #[allow(clippy::result_unit_err)]
    pub fn from_directory_path<P: AsRef<std::path::Path>>(path: P) -> Result<Url, ()> {
        let url = file_path::from_file_path(path.as_ref())?;
        if url.as_str().ends_with('/') {
            return Ok(url);
        }
        let mut s = url.into_string();
        s.push('/');
        Url::reparse(&s).ok_or(())
    }

    /// The URL as a tuple of its serialization and offsets, the `url` crate's layout
    /// (for serializers that keep a parsed form).
    #[cfg(feature = "serde")]
    pub fn serialize_internal<S>(&self, serializer: S) -> Result<S::Ok, S::Error>
    where
        S: serde::Serializer,
    {
        serde_impl::serialize_internal(self, serializer)
    }

    /// Reads what [`Url::serialize_internal`] wrote, checking the offsets against the
    /// serialization.
    #[cfg(feature = "serde")]
    pub fn deserialize_internal<'de, D>(deserializer: D) -> Result<Self, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        serde_impl::deserialize_internal(deserializer)
    }

    /// The local path of a `file:` URL (percent-decoded). `Err(())` for a URL whose host
    /// is neither empty nor `localhost` (on Windows, a host is a UNC server), or whose
    /// path has no segments.
    #[cfg(feature = "std")]
    #[allow(clippy::result_unit_err)]
    pub fn to_file_path(&self) -> Result<std::path::PathBuf, ()> {
        file_path::to_file_path(self)
    }

    /// The URL that `s`, a serialization made by this crate, parses to: `None` only if
    /// `s` is not a URL, which the callers' construction rules out.
    pub(crate) fn reparse(s: &str) -> Option<Url> {
        rapidurl::Url::parse(s).ok().map(|inner| Url { inner })
    }
}

impl str::FromStr for Url {
    type Err = ParseError;

    #[inline]
    fn from_str(input: &str) -> Result<Url, ParseError> {
        Url::parse(input)
    }
}

impl<'a> TryFrom<&'a str> for Url {
    type Error = ParseError;

    fn try_from(s: &'a str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl fmt::Display for Url {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl From<Url> for String {
    fn from(value: Url) -> String {
        value.into_string()
    }
}

/// The `url` crate's `Debug`: the components by name.
impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Url")
            .field("scheme", &self.scheme())
            .field("cannot_be_a_base", &self.cannot_be_a_base())
            .field("username", &self.username())
            .field("password", &self.password())
            .field("host", &self.host())
            .field("port", &self.port())
            .field("path", &self.path())
            .field("query", &self.query())
            .field("fragment", &self.fragment())
            .finish()
    }
}

impl Eq for Url {}

/// Equal serializations.
impl PartialEq for Url {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

/// The serializations' order.
impl Ord for Url {
    #[inline]
    fn cmp(&self, other: &Self) -> cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Url {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The serialization's hash.
impl hash::Hash for Url {
    #[inline]
    fn hash<H: hash::Hasher>(&self, state: &mut H) {
        hash::Hash::hash(self.as_str(), state)
    }
}

impl AsRef<str> for Url {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}
