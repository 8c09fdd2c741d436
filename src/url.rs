//! [`Url`]: an owned, parsed URL.

use crate::components::{Base, Components, HostKind, SchemeKind, UrlParts};
use crate::encoding_override::{QueryEncoding, UTF_8};
use crate::error::ParseError;
use crate::origin::Origin;
use crate::parser::{self, setters};
use crate::search_params::SearchParams;
use crate::serialization::Serialization;
use crate::validation::{Collect, ValidationError};
use crate::view::UrlRef;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// A parsed URL: its normalized serialization and the offsets of its components.
///
/// The getters (`href`, `protocol`, … `hash`, `origin`, …) are the same as [`UrlRef`]'s:
/// both are generated from one definition over [`Components`].
///
/// Every getter returns exactly what the JavaScript URL API returns for the same URL.
///
/// ```
/// use rapidurl::Url;
/// let url = Url::parse("HTTPS://User@Example.COM:443/a/./b/../c?q=1#top").unwrap();
/// assert_eq!(url.href(), "https://User@example.com/a/c?q=1#top");
/// assert_eq!(url.hostname(), "example.com");
/// assert_eq!(url.port(), "");
/// assert_eq!(url.pathname(), "/a/c");
/// assert_eq!(url.search(), "?q=1");
/// let link = url.join("../d").unwrap();
/// assert_eq!(link.as_str(), "https://User@example.com/d");
/// ```
#[derive(Clone)]
pub struct Url {
    serialization: Serialization,
    components: Components,
}

impl Url {
    crate::getters::url_getters!('_, "rapidurl::Url::parse(", ")");

    /// Parses an absolute URL (URL Standard §4.4, with no base).
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        Url::parse_owned(input, None, UTF_8)
    }

    /// The parse behind [`Url::parse`] and [`ParseOptions::parse`]: a canonical input that
    /// is its own serialization is copied once (inline when short) into the result, built
    /// in place; any other goes through [`parser::parse_owned`].
    #[inline(always)]
    fn parse_owned(
        input: &str,
        base: Option<UrlParts<'_>>,
        encoding: QueryEncoding,
    ) -> Result<Url, ParseError> {
        // A canonical input starts with its scheme's letter; a reference against a base
        // that does not (`../a`, `/a`, `?q`, `#f`) is no such input.
        let canonical = if base.is_some()
            && !input
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_alphabetic)
        {
            None
        } else {
            parser::parse_canonical(input)
        };
        if let Some(c) = parser::borrowed(input, &canonical) {
            return Ok(Url::from_raw(Serialization::copy_of(input), c));
        }
        let (serialization, components) = parser::parse_owned(input, canonical, base, encoding)?;
        Ok(Url::from_raw(serialization, components))
    }

    /// Parses `input` against `base`, a parsed [`Url`] or [`UrlRef`] (the API URL parser
    /// with a base).
    pub fn parse_with_base<'b>(input: &str, base: impl Into<Base<'b>>) -> Result<Url, ParseError> {
        Url::options().base(base).parse(input)
    }

    /// Resolves `input` against this URL: `Url::parse_with_base(input, self)`.
    pub fn join(&self, input: &str) -> Result<Url, ParseError> {
        Self::parse_with_base(input, self)
    }

    /// Parses raw bytes, e.g. a line of a log file. Invalid UTF-8 is decoded as the
    /// Encoding Standard's UTF-8 decode does: each maximal invalid sequence becomes
    /// U+FFFD (which the parser then percent-encodes, or rejects in a domain).
    ///
    /// Error offsets are byte offsets into `input`.
    ///
    /// ```
    /// use rapidurl::Url;
    /// let err = Url::parse_bytes(b"http://\xFF\xFE@h:99999/").unwrap_err();
    /// assert_eq!((err.name(), err.offset()), ("port-out-of-range", Some(12)));
    /// ```
    pub fn parse_bytes(input: &[u8]) -> Result<Url, ParseError> {
        match String::from_utf8_lossy(input) {
            Cow::Borrowed(s) => Self::parse(s),
            Cow::Owned(s) => Self::parse(&s).map_err(|e| e.in_raw_utf8(input)),
        }
    }

    /// Parses UTF-16 code units, as JavaScript strings hold them: like the URL API's
    /// USVString conversion, each lone surrogate becomes U+FFFD first.
    ///
    /// ```
    /// use rapidurl::Url;
    /// let units: Vec<u16> = "http://example.com/".encode_utf16().chain([0xD800]).collect();
    /// assert_eq!(Url::parse_utf16(&units).unwrap().pathname(), "/%EF%BF%BD");
    /// ```
    ///
    /// Error offsets are counted in UTF-16 code units of `input`.
    pub fn parse_utf16(input: &[u16]) -> Result<Url, ParseError> {
        let decoded = String::from_utf16_lossy(input);
        Self::parse(&decoded).map_err(|e| e.in_utf16_units(&decoded))
    }

    /// A builder for parsing with a base URL and (feature `encoding`) an encoding override
    /// ([`ParseOptions::encoding`]):
    ///
    /// ```
    /// use rapidurl::Url;
    /// let base = Url::parse("https://example.com/dir/page").unwrap();
    /// let url = Url::options().base(&base).parse("?q=é").unwrap();
    /// assert_eq!(url.href(), "https://example.com/dir/page?q=%C3%A9");
    /// ```
    pub fn options<'a>() -> ParseOptions<'a> {
        ParseOptions {
            base: None,
            encoding: UTF_8,
        }
    }

    #[inline(always)]
    pub(crate) fn from_raw(serialization: Serialization, components: Components) -> Url {
        Url {
            serialization,
            components,
        }
    }

    pub(crate) fn parts(&self) -> UrlParts<'_> {
        UrlParts {
            s: self.serialization.as_str(),
            c: &self.components,
        }
    }

    /// Consumes the URL, returning its serialization.
    pub fn into_string(self) -> String {
        self.serialization.into_string()
    }

    #[inline]
    fn src(&self) -> &str {
        self.serialization.as_str()
    }

    /// The URL as a borrowed view.
    pub fn as_ref_view(&self) -> UrlRef<'_> {
        UrlRef::from_parts(self.src(), self.components)
    }

    /// URL equivalence (§4.6): equal serializations, optionally ignoring fragments.
    pub fn equals(&self, other: &Url, exclude_fragments: bool) -> bool {
        if exclude_fragments {
            self.without_fragment() == other.without_fragment()
        } else {
            self.src() == other.src()
        }
    }

    /// The query as a [`SearchParams`] list (the `searchParams` getter, detached: changes
    /// to it do not touch this URL; see [`Url::search_params_mut`]).
    pub fn search_params(&self) -> SearchParams {
        // The query object's list is the form parse of the query as it is: unlike the
        // URLSearchParams constructor, no leading `?` is removed (`??a` has a name `?a`).
        SearchParams::parse_form(self.query().unwrap_or(""))
    }

    /// The query as a [`SearchParams`] list bound to this URL: when the handle is dropped
    /// after a change (any call that needs the list mutably), the URL's query becomes the
    /// list's serialization, or null when the list is empty (the URLSearchParams "update"
    /// steps, §6.2, which run only after a mutating method). Reading through the handle
    /// leaves the URL as it was.
    ///
    /// ```
    /// use rapidurl::Url;
    /// let mut url = Url::parse("https://example.com/?b=2&a=1 ~").unwrap();
    /// url.search_params_mut().sort();
    /// assert_eq!(url.href(), "https://example.com/?a=1+%7E&b=2");
    /// let mut params = url.search_params_mut();
    /// params.delete("a", None);
    /// params.delete("b", None);
    /// drop(params);
    /// assert_eq!(url.href(), "https://example.com/");
    /// ```
    pub fn search_params_mut(&mut self) -> SearchParamsMut<'_> {
        let params = self.search_params();
        SearchParamsMut {
            url: self,
            params,
            changed: false,
        }
    }

    fn target(&mut self) -> setters::Target<'_> {
        (self.serialization.to_mut(), &mut self.components)
    }

    /// The `href` setter: parses `value` as a new absolute URL; on failure the URL is
    /// unchanged and the error is returned.
    pub fn set_href(&mut self, value: &str) -> Result<(), ParseError> {
        *self = Url::parse(value)?;
        Ok(())
    }

    /// The `protocol` setter. Switching between special and non-special schemes, or to
    /// `file` with credentials or a port, is ignored, as the Standard says.
    pub fn set_protocol(&mut self, value: &str) {
        setters::set_protocol(self.target(), value)
    }

    /// The `username` setter (ignored when the URL cannot have a username).
    pub fn set_username(&mut self, value: &str) {
        setters::set_username(self.target(), value)
    }

    /// The `password` setter (ignored when the URL cannot have a password).
    pub fn set_password(&mut self, value: &str) {
        setters::set_password(self.target(), value)
    }

    /// The `host` setter: host and, if given, port (ignored for opaque paths and
    /// invalid hosts).
    pub fn set_host(&mut self, value: &str) {
        setters::set_host(self.target(), value, false)
    }

    /// The `hostname` setter: host only (ignored for opaque paths, invalid hosts, and
    /// values with a port).
    pub fn set_hostname(&mut self, value: &str) {
        setters::set_host(self.target(), value, true)
    }

    /// The `port` setter (`""` removes the port).
    pub fn set_port(&mut self, value: &str) {
        setters::set_port(self.target(), value)
    }

    /// The `pathname` setter (ignored for opaque paths).
    pub fn set_pathname(&mut self, value: &str) {
        setters::set_pathname(self.target(), value)
    }

    /// The `search` setter (`""` makes the query null).
    pub fn set_search(&mut self, value: &str) {
        setters::set_search(self.target(), value)
    }

    /// The `hash` setter (`""` makes the fragment null).
    pub fn set_hash(&mut self, value: &str) {
        setters::set_hash(self.target(), value)
    }

    /// Sets the query to `query`, percent-encoded as the query state does, or removes it
    /// (`None`). Unlike the `search` setter, no leading `?` is removed and `Some("")` is
    /// the empty query (`…?`).
    ///
    /// ```
    /// let mut url = rapidurl::Url::parse("https://example.com/a?old#top").unwrap();
    /// url.set_query(Some("q=red shoes"));
    /// assert_eq!(url.as_str(), "https://example.com/a?q=red%20shoes#top");
    /// url.set_query(Some(""));
    /// assert_eq!(url.as_str(), "https://example.com/a?#top");
    /// url.set_query(None);
    /// assert_eq!(url.as_str(), "https://example.com/a#top");
    /// ```
    pub fn set_query(&mut self, query: Option<&str>) {
        setters::set_query_text(self.target(), query)
    }

    /// Sets the fragment to `fragment`, percent-encoded as the fragment state does, or
    /// removes it (`None`). Unlike the `hash` setter, no leading `#` is removed and
    /// `Some("")` is the empty fragment (`…#`).
    ///
    /// ```
    /// let mut url = rapidurl::Url::parse("https://example.com/a?q").unwrap();
    /// url.set_fragment(Some("#top"));
    /// assert_eq!(url.as_str(), "https://example.com/a?q##top");
    /// url.set_fragment(None);
    /// assert_eq!(url.as_str(), "https://example.com/a?q");
    /// ```
    pub fn set_fragment(&mut self, fragment: Option<&str>) {
        setters::set_fragment_text(self.target(), fragment)
    }
}

/// Options for parsing a URL: a base URL and an encoding override. Made by [`Url::options`].
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions<'a> {
    base: Option<Base<'a>>,
    encoding: QueryEncoding,
}

impl<'a> ParseOptions<'a> {
    /// Resolves the input against `base`, a parsed [`Url`] or [`UrlRef`].
    pub fn base(mut self, base: impl Into<Base<'a>>) -> Self {
        self.base = Some(base.into());
        self
    }

    /// The encoding override (§4.4): the query of a special URL other than ws/wss is
    /// percent-encoded after encoding in `encoding` (as browsers do for links in documents
    /// that are not UTF-8). Unmappable code points become `%26%23NNNN%3B`. UTF-16 and
    /// replacement encodings mean UTF-8 (their output encoding).
    ///
    /// ```
    /// use rapidurl::Url;
    /// let base = Url::parse("https://example.com/dir/page").unwrap();
    /// let windows_1252 = rapidurl::encoding::Encoding::for_label(b"windows-1252").unwrap();
    /// let url = Url::options().base(&base).encoding(windows_1252).parse("?q=é").unwrap();
    /// assert_eq!(url.href(), "https://example.com/dir/page?q=%E9");
    /// ```
    #[cfg(feature = "encoding")]
    #[cfg_attr(docsrs, doc(cfg(feature = "encoding")))]
    pub fn encoding(mut self, encoding: &'static crate::encoding::Encoding) -> Self {
        self.encoding = encoding.output_encoding();
        self
    }

    /// Parses `input` with these options.
    pub fn parse(self, input: &str) -> Result<Url, ParseError> {
        let base = self.base.map(|b| b.parts);
        Url::parse_owned(input, base, self.encoding)
    }
}

/// A [`SearchParams`] list bound to a [`Url`] (see [`Url::search_params_mut`]): it
/// dereferences to the list, and writes the list back into the URL's query when dropped,
/// if the list was borrowed mutably (every mutating method does).
pub struct SearchParamsMut<'u> {
    url: &'u mut Url,
    params: SearchParams,
    /// Set when the list was handed out mutably: the update steps then run on drop.
    changed: bool,
}

impl std::ops::Deref for SearchParamsMut<'_> {
    type Target = SearchParams;
    fn deref(&self) -> &SearchParams {
        &self.params
    }
}

impl std::ops::DerefMut for SearchParamsMut<'_> {
    fn deref_mut(&mut self) -> &mut SearchParams {
        self.changed = true;
        &mut self.params
    }
}

impl Drop for SearchParamsMut<'_> {
    /// URLSearchParams "update" (§6.2): the serialization becomes the URL's query, or the
    /// query becomes null when the serialization is empty.
    fn drop(&mut self) {
        if !self.changed {
            return;
        }
        let serialized = self.params.to_string();
        let query = (!serialized.is_empty()).then_some(serialized.as_str());
        setters::set_query(self.url.target(), query);
    }
}

/// Whether `input` parses as a URL without a base, usually without parsing it at all.
///
/// ```
/// assert!(rapidurl::can_parse("https://example.com"));
/// assert!(!rapidurl::can_parse("/path"));
/// ```
#[inline]
pub fn can_parse(input: &str) -> bool {
    parser::check(input, None)
}

/// Whether `input` parses against `base`, a parsed [`Url`] or [`UrlRef`]. The static
/// `URL.canParse(url, base)` of the Standard is this after parsing its base string
/// (`false` when that fails): parse the base once with [`Url::parse`] and ask for every
/// input.
///
/// ```
/// use rapidurl::{Url, can_parse_with_base};
/// let base = Url::parse("https://example.com/a/").unwrap();
/// assert!(can_parse_with_base("/path", &base));
/// assert!(!can_parse_with_base("http://[::1", &base));
/// ```
pub fn can_parse_with_base<'b>(input: &str, base: impl Into<Base<'b>>) -> bool {
    parser::check(input, Some(base.into().parts))
}

impl<'b> From<&'b Url> for Base<'b> {
    fn from(url: &'b Url) -> Base<'b> {
        Base::new(url.parts())
    }
}

impl UrlRef<'_> {
    /// An owned [`Url`] with the same serialization and components.
    pub fn to_url(&self) -> Url {
        Url::from_raw(Serialization::copy_of(self.as_str()), *self.components())
    }
}

impl PartialEq<Url> for UrlRef<'_> {
    fn eq(&self, other: &Url) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Origin {
    /// The origin of `url` (§4.7).
    pub fn of(url: &Url) -> Origin {
        Origin::from_parts(url.as_str(), url.components())
    }
}

impl FromStr for Url {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl TryFrom<&str> for Url {
    type Error = ParseError;
    fn try_from(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.src())
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Url").field(&self.src()).finish()
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        self.src()
    }
}

impl PartialEq for Url {
    fn eq(&self, other: &Url) -> bool {
        self.src() == other.src()
    }
}

impl Eq for Url {}

impl Hash for Url {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.src().hash(state)
    }
}

impl PartialOrd for Url {
    fn partial_cmp(&self, other: &Url) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Url {
    fn cmp(&self, other: &Url) -> Ordering {
        self.src().cmp(other.src())
    }
}

impl From<Url> for String {
    fn from(url: Url) -> String {
        url.serialization.into_string()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Url {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.src())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Url {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Url, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Url;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a URL string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Url, E> {
                Url::parse(s).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use super::Url;

    #[test]
    fn a_url_is_its_href_in_json() {
        let url = Url::parse("HTTPS://Example.com:443/a/../b?q#f").unwrap();
        let json = serde_json::to_string(&url).unwrap();
        assert_eq!(json, "\"https://example.com/b?q#f\"");
        let back: Url = serde_json::from_str(&json).unwrap();
        assert_eq!(back, url);
        assert_eq!(back.components(), url.components());
    }

    #[test]
    fn an_invalid_url_is_a_deserialization_error_naming_the_failure() {
        let err = serde_json::from_str::<Url>("\"http://[::1\"").unwrap_err();
        assert!(err.to_string().contains("IPv6-unclosed"), "{err}");
    }
}

/// Parses `input` (against `base`, when given) as [`Url::parse`] does, and returns every
/// validation error the parser's steps reported, in order. When parsing fails, the last
/// error is the one that made it fail ([`ValidationError::is_failure`]).
///
/// The names, and which steps report which error, are those of the Standard's reference
/// implementation (`whatwg-url` 17.3, a newer edition than our text; docs/architecture.md
/// lists the differences). Offsets are bytes into `input` as given.
///
/// ```
/// use rapidurl::parse_with_validation_errors;
///
/// let (url, errors) = parse_with_validation_errors("https:\\\\user@example.org/%s");
/// assert_eq!(url.unwrap().href(), "https://user@example.org/%s");
/// let names: Vec<_> = errors.iter().map(|e| e.name()).collect();
/// assert_eq!(names, [
///     // `\\` is no `//`: the special-authority-slashes state reports it, then the
///     // ignore-slashes state once for each `\` it skips (the first one again).
///     "special-scheme-missing-following-solidus",
///     "special-scheme-missing-following-solidus",
///     "special-scheme-missing-following-solidus",
///     "invalid-credentials",
///     "invalid-URL-unit", // `%s` is no percent-encoded byte
/// ]);
/// assert_eq!(errors[3].to_string(),
///     "invalid-credentials at byte 12: the input includes credentials (a username or password)");
///
/// let (url, errors) = parse_with_validation_errors("https://example.org:7z");
/// assert!(url.is_err());
/// let last = errors.last().unwrap();
/// assert!(last.is_failure() && last.name() == "port-invalid" && last.offset() == 21);
/// ```
pub fn parse_with_validation_errors(
    input: &str,
) -> (Result<Url, ParseError>, Vec<ValidationError>) {
    reporting(input, None)
}

/// [`parse_with_validation_errors`] against `base`, a parsed [`Url`] or [`UrlRef`].
///
/// ```
/// use rapidurl::{Url, parse_with_validation_errors_with_base};
/// let base = Url::parse("https://example.org/a/").unwrap();
/// let (url, errors) = parse_with_validation_errors_with_base("b\\c", &base);
/// assert_eq!(url.unwrap().href(), "https://example.org/a/b/c");
/// assert_eq!(errors[0].name(), "invalid-reverse-solidus");
/// ```
pub fn parse_with_validation_errors_with_base<'b>(
    input: &str,
    base: impl Into<Base<'b>>,
) -> (Result<Url, ParseError>, Vec<ValidationError>) {
    reporting(input, Some(base.into().parts))
}

fn reporting(
    input: &str,
    base: Option<UrlParts<'_>>,
) -> (Result<Url, ParseError>, Vec<ValidationError>) {
    let mut collect = Collect::default();
    let mut out = String::new();
    let result = parser::parse_reporting(input, base, &mut out, &mut collect)
        .map(|c| Url::from_raw(Serialization::Heap(out), c));
    let errors = collect.finish(input, result.is_err());
    (result, errors)
}
