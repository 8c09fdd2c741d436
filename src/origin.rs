//! Origins (URL Standard §4.7, with the HTML Standard's definition of an origin).
//!
//! This module reads a URL as its serialization and [`Components`]; it does not know the
//! URL types ([`Origin::of`] is defined beside [`crate::Url`]), so that the getters both
//! types share can return an [`Origin`] without a dependency cycle.

use crate::components::{Components, SchemeKind};
use crate::parser;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT_OPAQUE: AtomicU64 = AtomicU64::new(1);

/// An origin: a tuple (scheme, host, port) or an opaque origin.
///
/// Every opaque origin is unique: it is same origin only with itself (the same value,
/// or a clone of it), never with another opaque origin, even one made from the same URL.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A tuple origin. The domain component of HTML's tuple is always null here.
    Tuple {
        /// The scheme, e.g. `https`.
        scheme: String,
        /// The host, serialized (§3.6).
        host: String,
        /// The port, `None` when it is the scheme's default.
        port: Option<u16>,
    },
    /// An opaque origin, with an identity of its own.
    Opaque(OpaqueOrigin),
}

/// The identity of an opaque origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpaqueOrigin(u64);

impl OpaqueOrigin {
    /// A new opaque origin, distinct from every other.
    pub fn new() -> Self {
        OpaqueOrigin(NEXT_OPAQUE.fetch_add(1, Ordering::Relaxed))
    }
}

impl Default for OpaqueOrigin {
    fn default() -> Self {
        Self::new()
    }
}

impl Origin {
    /// The origin of the URL whose serialization is `s` and components `c`.
    pub(crate) fn from_parts(s: &str, c: &Components) -> Origin {
        match c.scheme_kind() {
            SchemeKind::Http
            | SchemeKind::Https
            | SchemeKind::Ws
            | SchemeKind::Wss
            | SchemeKind::Ftp => Origin::Tuple {
                scheme: c.scheme(s).to_owned(),
                host: c.hostname(s).to_owned(),
                port: c.port(),
            },
            SchemeKind::NotSpecial if c.scheme(s) == "blob" => {
                // blob: the origin of the URL its path serializes to, if that is
                // http(s) (file would give an opaque origin anyway).
                let mut inner = String::new();
                let path = c.pathname(s);
                match parser::parse_into(
                    path,
                    None,
                    crate::encoding_override::UTF_8,
                    || &mut inner,
                    false,
                ) {
                    Ok(ic) if matches!(ic.scheme_kind(), SchemeKind::Http | SchemeKind::Https) => {
                        Origin::from_parts(&inner, &ic)
                    }
                    _ => Origin::Opaque(OpaqueOrigin::new()),
                }
            }
            // file: "left as an exercise to the reader"; when in doubt, opaque.
            _ => Origin::Opaque(OpaqueOrigin::new()),
        }
    }

    /// Whether this is an opaque origin.
    pub fn is_opaque(&self) -> bool {
        matches!(self, Origin::Opaque(_))
    }

    /// HTML's "same origin": two tuple origins with equal scheme, host and port, or the
    /// same opaque origin.
    pub fn same_origin(&self, other: &Origin) -> bool {
        self == other
    }

    /// HTML's ASCII serialization of an origin: `scheme://host[:port]`, or `null`.
    pub fn ascii_serialization(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Tuple { scheme, host, port } => {
                write!(f, "{scheme}://{host}")?;
                if let Some(port) = port {
                    write!(f, ":{port}")?;
                }
                Ok(())
            }
            Origin::Opaque(_) => f.write_str("null"),
        }
    }
}
