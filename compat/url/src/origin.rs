//! [`Origin`]: a URL's origin (URL Standard §4.7).

use crate::host::domain_to_unicode;
use crate::{Host, Url};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The origin of a URL: a scheme, host and port, or an opaque origin that equals only
/// itself.
///
/// ```
/// let a = url::Url::parse("https://example.net/a").unwrap().origin();
/// let b = url::Url::parse("blob:https://example.net/b").unwrap().origin();
/// assert_eq!(a, b);
/// assert_eq!(a.ascii_serialization(), "https://example.net");
/// ```
#[derive(PartialEq, Eq, Hash, Clone, Debug)]
pub enum Origin {
    /// An opaque origin, unique to where it was made.
    Opaque(OpaqueOrigin),
    /// A tuple origin: scheme, host and port (the default port when the URL has none).
    Tuple(String, Host<String>, u16),
}

/// The identity of an opaque origin.
#[derive(Eq, PartialEq, Hash, Clone, Debug)]
pub struct OpaqueOrigin(usize);

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

pub(crate) fn url_origin(url: &Url) -> Origin {
    let scheme = url.scheme();
    match scheme {
        "http" | "https" | "ws" | "wss" | "ftp" => {
            match (url.host(), url.port_or_known_default()) {
                (Some(host), Some(port)) => Origin::Tuple(scheme.to_owned(), host.to_owned(), port),
                _ => Origin::new_opaque(),
            }
        }
        "blob" => match Url::parse(url.path()) {
            Ok(inner) if matches!(inner.scheme(), "http" | "https") => url_origin(&inner),
            _ => Origin::new_opaque(),
        },
        _ => Origin::new_opaque(),
    }
}

impl Origin {
    /// A new opaque origin, equal to no other.
    pub fn new_opaque() -> Origin {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        Origin::Opaque(OpaqueOrigin(COUNTER.fetch_add(1, Ordering::SeqCst)))
    }

    /// Whether this is a tuple origin.
    pub fn is_tuple(&self) -> bool {
        matches!(self, Origin::Tuple(..))
    }

    /// The ASCII serialization (§4.7): `scheme://host[:port]`, or `null`.
    pub fn ascii_serialization(&self) -> String {
        match self {
            Origin::Opaque(_) => "null".to_owned(),
            Origin::Tuple(scheme, host, port) => serialize(scheme, &host.to_string(), *port),
        }
    }

    /// The serialization with the domain's labels in Unicode.
    pub fn unicode_serialization(&self) -> String {
        match self {
            Origin::Opaque(_) => "null".to_owned(),
            Origin::Tuple(scheme, Host::Domain(domain), port) => {
                serialize(scheme, &domain_to_unicode(domain), *port)
            }
            Origin::Tuple(scheme, host, port) => serialize(scheme, &host.to_string(), *port),
        }
    }
}

fn serialize(scheme: &str, host: &str, port: u16) -> String {
    if default_port(scheme) == Some(port) {
        format!("{scheme}://{host}")
    } else {
        format!("{scheme}://{host}:{port}")
    }
}
