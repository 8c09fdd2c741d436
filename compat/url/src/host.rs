//! [`Host`]: a URL's host as the `url` crate names it.

use crate::error::{map_error, ParseError};
use std::borrow::Cow;
use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The host of a URL: a domain (or an opaque host of a non-special URL), an IPv4 address
/// or an IPv6 address.
///
/// `Host<&str>` borrows the domain from a [`crate::Url`]; `Host<String>` owns it.
#[cfg_attr(
    feature = "serde",
    derive(serde_derive::Deserialize, serde_derive::Serialize)
)]
#[derive(Clone, Debug, Eq, Ord, PartialOrd, Hash)]
pub enum Host<S = String> {
    /// A domain in its ASCII serialization, or a non-special URL's opaque host
    /// (percent-encoded, case kept).
    Domain(S),
    /// An IPv4 address, written in dotted decimal in the URL.
    Ipv4(Ipv4Addr),
    /// An IPv6 address, written in brackets in the URL.
    Ipv6(Ipv6Addr),
}

impl Host<&str> {
    /// This host with its domain copied into a `String`.
    pub fn to_owned(&self) -> Host<String> {
        match *self {
            Host::Domain(domain) => Host::Domain(domain.to_owned()),
            Host::Ipv4(address) => Host::Ipv4(address),
            Host::Ipv6(address) => Host::Ipv6(address),
        }
    }
}

impl Host<String> {
    /// Parses a special URL's host (URL Standard §3.5): percent-decoding, IDNA (UTS #46
    /// ToASCII), forbidden code points, IPv4 and IPv6 addresses.
    ///
    /// ```
    /// use url::Host;
    /// assert_eq!(Host::parse("EXAMPLE.com").unwrap(), Host::Domain("example.com".to_owned()));
    /// assert!(Host::parse("exa mple.com").is_err());
    /// ```
    pub fn parse(input: &str) -> Result<Self, ParseError> {
        parse_host(input, false)
    }

    /// Parses a non-special URL's host: an opaque host, or an IPv6 address in brackets.
    pub fn parse_opaque(input: &str) -> Result<Self, ParseError> {
        parse_host(input, true)
    }
}

/// The host parser of either kind, with the `url` crate's error for each failure.
pub(crate) fn parse_host(input: &str, opaque: bool) -> Result<Host<String>, ParseError> {
    if input.is_empty() {
        return if opaque {
            Ok(Host::Domain(String::new()))
        } else {
            Err(ParseError::EmptyHost)
        };
    }
    match rapidurl::host::Host::parse(input, opaque) {
        Ok(host) => Ok(from_rapidurl(host)),
        Err(e) => Err(map_error(&e, opaque, false)),
    }
}

fn from_rapidurl(host: rapidurl::host::Host) -> Host<String> {
    match host {
        rapidurl::host::Host::Domain(d) | rapidurl::host::Host::Opaque(d) => Host::Domain(d),
        rapidurl::host::Host::Ipv4(a) => Host::Ipv4(Ipv4Addr::from(a)),
        rapidurl::host::Host::Ipv6(p) => Host::Ipv6(ipv6_from_pieces(&p)),
        rapidurl::host::Host::Empty => Host::Domain(String::new()),
    }
}

pub(crate) fn ipv6_from_pieces(p: &[u16; 8]) -> Ipv6Addr {
    Ipv6Addr::new(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
}

/// A host serialized as a URL holds it: IPv6 addresses compressed as the URL Standard
/// says (§3.6), not as `std`'s `Display` does (which writes `::ffff:1.2.3.4`).
impl<S: AsRef<str>> fmt::Display for Host<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Domain(domain) => f.write_str(domain.as_ref()),
            Host::Ipv4(address) => fmt::Display::fmt(address, f),
            Host::Ipv6(address) => {
                let mut out = String::with_capacity(41);
                out.push('[');
                rapidurl::host::serialize_ipv6(&address.segments(), &mut out);
                out.push(']');
                f.write_str(&out)
            }
        }
    }
}

impl<S, T> PartialEq<Host<T>> for Host<S>
where
    S: PartialEq<T>,
{
    fn eq(&self, other: &Host<T>) -> bool {
        match (self, other) {
            (Host::Domain(a), Host::Domain(b)) => a == b,
            (Host::Ipv4(a), Host::Ipv4(b)) => a == b,
            (Host::Ipv6(a), Host::Ipv6(b)) => a == b,
            _ => false,
        }
    }
}

/// The host as `serialize_internal` writes it: which kind, and the address for the two
/// address kinds (the domain itself is in the serialization). Its variants and their
/// order are the `url` crate's, so that the tuple layout is the same.
#[cfg(feature = "serde")]
#[cfg_attr(
    feature = "serde",
    derive(serde_derive::Deserialize, serde_derive::Serialize)
)]
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum HostInternal {
    None,
    Domain,
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
}

#[cfg(feature = "serde")]
impl From<Option<Host<&str>>> for HostInternal {
    fn from(host: Option<Host<&str>>) -> Self {
        match host {
            None => HostInternal::None,
            Some(Host::Domain(_)) => HostInternal::Domain,
            Some(Host::Ipv4(a)) => HostInternal::Ipv4(a),
            Some(Host::Ipv6(a)) => HostInternal::Ipv6(a),
        }
    }
}

/// A domain for `Origin::unicode_serialization`: its labels back to Unicode.
pub(crate) fn domain_to_unicode(domain: &str) -> Cow<'_, str> {
    if !domain.contains("xn--") {
        return Cow::Borrowed(domain);
    }
    Cow::Owned(rapidurl::host::domain_to_unicode(domain))
}
