//! # rapidurl
//!
//! A URL parser that follows the [WHATWG URL Standard](https://url.spec.whatwg.org/)
//! exactly — every getter returns what a browser's `new URL()` returns — built for
//! parsing URLs in bulk.
//!
//! A parsed [`Url`] is one normalized string plus the offsets of its components
//! ([`Components`]), not a string per component: cheap to build, move, compare and hash.
//!
//! ```
//! use rapidurl::Url;
//!
//! let base = Url::parse("https://example.com/docs/index.html").unwrap();
//! let url = base.join("../img/Logo.PNG?size=2#x").unwrap();
//! assert_eq!(url.href(), "https://example.com/img/Logo.PNG?size=2#x");
//! assert_eq!(url.origin(), "https://example.com");
//!
//! let idn = Url::parse("http://Bücher.example:8080/ä").unwrap();
//! assert_eq!(idn.host(), "xn--bcher-kva.example:8080");
//! assert_eq!(idn.pathname(), "/%C3%A4");
//!
//! let err = Url::parse("http://example.com:99999/").unwrap_err();
//! assert_eq!(err.name(), "port-out-of-range");
//! assert!(!rapidurl::can_parse("no scheme here", None));
//! ```
//!
//! Section numbers in this crate's documentation refer to the URL Standard.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "rayon")]
pub mod batch;
mod components;
pub mod encoding;
mod error;
pub mod field;
pub mod form;
mod getters;
pub mod host;
mod origin;
mod output;
mod parser;
pub mod percent;
pub mod scan;
pub mod search_params;
mod syntax;
mod url;
mod view;

#[cfg(feature = "rayon")]
pub use crate::batch::UrlColumn;
pub use crate::components::{Components, HostKind, SchemeKind};
pub use crate::error::{ErrorKind, ParseError};
pub use crate::origin::{OpaqueOrigin, Origin};
pub use crate::search_params::SearchParams;
pub use crate::url::{ParseOptions, SearchParamsMut, Url, can_parse};
pub use crate::view::{UrlRef, parse_ref, parse_ref_with_base};
pub use bumpalo;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// Entry points for this crate's own tests and benches (fast path forced on or off). Not
/// part of the supported API.
#[doc(hidden)]
pub mod __testing {
    use crate::parser::testing;
    use crate::{Components, ParseError};

    /// The fast path alone: `Some` only for input it proves canonical.
    pub fn parse_fast(input: &str) -> Option<(String, Components)> {
        testing::parse_fast(input)
    }

    /// The check `can_parse` runs first: `true` only when the input is proven to parse.
    pub fn proven_valid(input: &str) -> bool {
        testing::proven_valid(input)
    }

    /// The state machine alone.
    pub fn parse_slow(input: &str) -> Result<(String, Components), ParseError> {
        testing::parse_slow(input)
    }
}
