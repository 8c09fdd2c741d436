//! Named values of a parsed URL: the columns of the command-line tool (`rapidurl parse
//! --fields …`) and of the Python package's `parse_column`, defined once so that every
//! front end names and computes them the same way.
//!
//! ```
//! use rapidurl::field::Field;
//!
//! let arena = rapidurl::bumpalo::Bump::new();
//! let url = rapidurl::parse_ref("https://example.com:8443/a?q=1", &arena).unwrap();
//! let field: Field = "host".parse().unwrap();
//! assert_eq!(field.value(&url).as_deref(), Some("example.com:8443"));
//! assert_eq!(field.to_string(), "host");
//! assert!("colour".parse::<Field>().is_err());
//! ```

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use crate::view::UrlRef;

/// A value computed from a parsed URL, named as the URL API's attribute where there is one.
///
/// `value` returns `None` where the value is absent (null in Arrow, empty in text
/// formats); the URL API's attributes are never absent (an absent port is `""`, as
/// `new URL()` says).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The whole serialized URL.
    Href,
    /// The serialized origin (`null` for opaque origins).
    Origin,
    /// The scheme followed by `:`.
    Protocol,
    /// The username.
    Username,
    /// The password.
    Password,
    /// The host with its port, if any.
    Host,
    /// The host without its port.
    Hostname,
    /// The port, empty when absent or the scheme's default.
    Port,
    /// The path.
    Pathname,
    /// The query with its leading `?`, empty when absent or empty.
    Search,
    /// The fragment with its leading `#`, empty when absent or empty.
    Hash,
    /// The URL rendered for people ([`crate::render::render`] with default options): no
    /// credentials, the host in Unicode, percent-encoded UTF-8 decoded where safe.
    Display,
    /// `true` or `false`: whether the input text is a valid URL string (§4.3). A value of
    /// the input, not of the parsed URL: see [`Field::value_with_input`].
    Valid,
    /// The names of the input's validation errors in order, separated by spaces (empty
    /// when none). A value of the input: see [`Field::value_with_input`].
    ValidationErrors,
}

impl Field {
    /// Every attribute of the URL API, in the order of the Standard's IDL.
    pub const URL_API: [Field; 11] = [
        Field::Href,
        Field::Origin,
        Field::Protocol,
        Field::Username,
        Field::Password,
        Field::Host,
        Field::Hostname,
        Field::Port,
        Field::Pathname,
        Field::Search,
        Field::Hash,
    ];

    /// The fields written when none are asked for: the URL API's attributes without the
    /// derived `origin` and `host`.
    pub const DEFAULT: [Field; 9] = [
        Field::Href,
        Field::Protocol,
        Field::Username,
        Field::Password,
        Field::Hostname,
        Field::Port,
        Field::Pathname,
        Field::Search,
        Field::Hash,
    ];

    /// The fields this library adds to the URL API's: rendering and validation.
    pub const EXTRA: [Field; 3] = [Field::Display, Field::Valid, Field::ValidationErrors];

    /// The field's name, e.g. `"hostname"`: the column name, the JSON key, and what
    /// [`FromStr`] accepts.
    pub fn name(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Field::Href => "href",
            Field::Origin => "origin",
            Field::Protocol => "protocol",
            Field::Username => "username",
            Field::Password => "password",
            Field::Host => "host",
            Field::Hostname => "hostname",
            Field::Port => "port",
            Field::Pathname => "pathname",
            Field::Search => "search",
            Field::Hash => "hash",
            Field::Display => "display",
            Field::Valid => "valid",
            Field::ValidationErrors => "validation_errors",
        })
    }

    /// Whether the value depends on the input text, not only on the parsed URL
    /// (`valid`, `validation_errors`): then use [`Field::value_with_input`].
    pub fn needs_input(&self) -> bool {
        matches!(self, Field::Valid | Field::ValidationErrors)
    }

    /// Whether the value is always a slice of the URL's serialization (`href`), so that
    /// a front end that found `href` free of characters it must escape can copy the value
    /// as it is. `origin` is not: a `blob:` URL's origin is that of the URL in its path.
    pub fn is_slice_of_href(&self) -> bool {
        !matches!(
            self,
            Field::Origin | Field::Display | Field::Valid | Field::ValidationErrors
        )
    }

    /// This field of `url`, parsed from `input` (without a base). Same as
    /// [`Field::value`] for every field that does not [need the input](Field::needs_input).
    ///
    /// ```
    /// use rapidurl::field::Field;
    ///
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let input = "https://user@example.com/a b";
    /// let url = rapidurl::parse_ref(input, &arena).unwrap();
    /// let errors = Field::ValidationErrors.value_with_input(input, &url);
    /// assert_eq!(errors.as_deref(), Some("invalid-credentials invalid-URL-unit"));
    /// assert_eq!(Field::Valid.value_with_input(input, &url).as_deref(), Some("false"));
    /// assert_eq!(Field::Display.value(&url).as_deref(), Some("https://example.com/a%20b"));
    /// ```
    pub fn value_with_input<'a>(&self, input: &str, url: &UrlRef<'a>) -> Option<Cow<'a, str>> {
        match self {
            Field::Valid => Some(Cow::Borrowed(if crate::is_valid_url_string(input, None) {
                "true"
            } else {
                "false"
            })),
            Field::ValidationErrors => {
                let (_, errors) = crate::parse_with_validation_errors(input, None);
                let names: Vec<&str> = errors.iter().map(|e| e.name()).collect();
                Some(Cow::Owned(names.join(" ")))
            }
            _ => self.value(url),
        }
    }

    /// This field of `url`; `None` where the value is absent, and for the fields that
    /// [need the input](Field::needs_input) (use [`Field::value_with_input`]).
    pub fn value<'a>(&self, url: &UrlRef<'a>) -> Option<Cow<'a, str>> {
        Some(match self {
            Field::Href => Cow::Borrowed(url.href()),
            Field::Origin => Cow::Owned(url.origin()),
            Field::Protocol => Cow::Borrowed(url.protocol()),
            Field::Username => Cow::Borrowed(url.username()),
            Field::Password => Cow::Borrowed(url.password()),
            Field::Host => Cow::Borrowed(url.host()),
            Field::Hostname => Cow::Borrowed(url.hostname()),
            Field::Port => Cow::Borrowed(url.port()),
            Field::Pathname => Cow::Borrowed(url.pathname()),
            Field::Search => Cow::Borrowed(url.search()),
            Field::Hash => Cow::Borrowed(url.hash()),
            Field::Display => Cow::Owned(crate::render::render(
                url,
                &crate::render::RenderOptions::default(),
            )),
            Field::Valid | Field::ValidationErrors => return None,
        })
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Field {
    type Err = UnknownField;

    /// A field by its name (see [`Field::name`]), case-sensitive as the URL API's names.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Field::URL_API
            .into_iter()
            .chain(Field::EXTRA)
            .find(|f| f.name() == name)
            .ok_or_else(|| UnknownField(name.to_owned()))
    }
}

/// A field name that [`Field`] does not know; its message lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownField(pub String);

impl fmt::Display for UnknownField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown field {:?}; the fields are", self.0)?;
        for (i, field) in Field::URL_API.iter().chain(&Field::EXTRA).enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{field}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownField {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for field in Field::URL_API.into_iter().chain(Field::EXTRA) {
            assert_eq!(field.name().parse::<Field>(), Ok(field.clone()));
        }
        assert_eq!(
            "Href".parse::<Field>().unwrap_err().to_string(),
            "unknown field \"Href\"; the fields are href, origin, protocol, username, \
             password, host, hostname, port, pathname, search, hash, display, valid, \
             validation_errors"
        );
    }

    #[test]
    fn values_are_the_getters() {
        let arena = bumpalo::Bump::new();
        let url = crate::parse_ref("blob:https://a.example:1/x?y#z", &arena).unwrap();
        let got: Vec<String> = Field::URL_API
            .iter()
            .map(|f| f.value(&url).unwrap().into_owned())
            .collect();
        assert_eq!(
            got,
            [
                "blob:https://a.example:1/x?y#z",
                "https://a.example:1",
                "blob:",
                "",
                "",
                "",
                "",
                "",
                "https://a.example:1/x",
                "?y",
                "#z"
            ]
        );
    }
}
