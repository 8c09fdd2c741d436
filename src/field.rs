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
        })
    }

    /// Whether the value is always a slice of the URL's serialization (`href`), so that
    /// a front end that found `href` free of characters it must escape can copy the value
    /// as it is. `origin` is not: a `blob:` URL's origin is that of the URL in its path.
    pub fn is_slice_of_href(&self) -> bool {
        !matches!(self, Field::Origin)
    }

    /// This field of `url`; `None` where the value is absent.
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
        for (i, field) in Field::URL_API.iter().enumerate() {
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
        for field in Field::URL_API {
            assert_eq!(field.name().parse::<Field>(), Ok(field.clone()));
        }
        assert_eq!(
            "Href".parse::<Field>().unwrap_err().to_string(),
            "unknown field \"Href\"; the fields are href, origin, protocol, username, \
             password, host, hostname, port, pathname, search, hash"
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
