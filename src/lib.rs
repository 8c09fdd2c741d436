//! # rapidurl
//!
//! A URL parser that follows the [WHATWG URL Standard](https://url.spec.whatwg.org/)
//! exactly — every getter returns what a browser's `new URL()` returns — built for
//! parsing URLs in bulk.
//!
//! ## Which API do I use?
//!
//! | You have | Use | You get |
//! |---|---|---|
//! | one URL to keep, change or pass around | [`Url::parse`], [`Url::join`], the setters | an owned [`Url`] (up to 56 bytes kept inline; longer, one allocation) |
//! | many URLs read once (logs, crawls) | [`parse_ref`], [`parse_ref_with_base`] | a [`UrlRef`] borrowing the input when it is canonical, else a [`bumpalo`] arena |
//! | a file or slice of URLs, all cores | [`batch::parse_lines`], [`batch::parse_column`], [`batch::parse_pairs`] (feature `rayon`) | a [`batch::UrlColumn`]: rows as [`UrlRef`]s or errors, in input order |
//! | only a yes or no | [`can_parse`], [`can_parse_with_base`] | `bool`, usually without parsing at all |
//! | URLs on the command line | the `rapidurl` tool (package `rapidurl-cli`) | TSV, CSV or JSON lines, `file:line:col` errors |
//!
//! [`Url`] and [`UrlRef`] have the same getters; a parsed URL is one normalized string
//! plus the offsets of its components ([`Components`]), not a string per component. The
//! named values of a URL (the tool's columns) are [`field::Field`]; the query as a list
//! is [`SearchParams`]; the building blocks (host parsing, percent-encoding, the
//! application/x-www-form-urlencoded format, legacy encodings) are [`host`], [`percent`],
//! [`form`] and [`encoding`].
//!
//! For linters and people: [`parse_with_validation_errors`] returns every validation
//! error the parser meets (§1.1), [`is_valid_url_string`] says whether a string is a
//! valid URL string (§4.3), and [`render`] shows a URL for a trust decision (§4.8).
//!
//! ## Features
//!
//! Every feature but `serde` is on by default. With `default-features = false` the crate is
//! the parser core: [`Url`], [`UrlRef`] and [`parse_ref`], [`can_parse`], [`Origin`],
//! [`SearchParams`], [`host`], [`percent`], [`form`] (UTF-8), validation errors
//! ([`parse_with_validation_errors`]) and valid URL strings ([`is_valid_url_string`]), on
//! `idna`, `memchr`, `bumpalo` and `arrayvec` alone.
//!
//! * `rayon`: the parallel batch engine, [`batch`] (rayon, simdutf8).
//! * `psl`: the public suffix list, [`psl`], and the getters [`Url::public_suffix`],
//!   `registrable_domain`, `subdomain`, `domain_suffix` and `top_level_domain` (the
//!   build script builds the list's table from the `psl` crate's data).
//! * `pattern`: the URL Pattern Standard, [`pattern`] (regress, regex-syntax,
//!   icu_properties).
//! * `encoding`: legacy encodings, [`encoding`], [`ParseOptions::encoding`] and
//!   [`form::serialize`] (encoding_rs); without it every query and form is UTF-8.
//! * `canon`: canonical keys, [`canon`] (SURT, Scrapy's form, Safe Browsing, dedup).
//! * `render`: rendering for people and spoof signals, [`render`] (unicode-security,
//!   icu_properties); needs `psl`.
//! * `field`: the named values of a URL, [`field`], as the tool, the Python package and
//!   the DuckDB extension read them; needs `canon`, `pattern`, `psl` and `render`.
//! * `serde` (not default): [`Url`] serializes as its `href` and deserializes by parsing.
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
//! assert!(!rapidurl::can_parse("no scheme here"));
//! ```
//!
//! Section numbers in this crate's documentation refer to the URL Standard.
#![deny(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub mod batch;
#[cfg(feature = "canon")]
#[cfg_attr(docsrs, doc(cfg(feature = "canon")))]
pub mod canon;
mod components;
#[cfg(feature = "encoding")]
#[cfg_attr(docsrs, doc(cfg(feature = "encoding")))]
pub mod encoding;
mod encoding_override;
mod error;
#[cfg(feature = "field")]
#[cfg_attr(docsrs, doc(cfg(feature = "field")))]
pub mod field;
pub mod form;
mod getters;
pub mod host;
mod origin;
mod output;
mod parser;
#[cfg(feature = "pattern")]
#[cfg_attr(docsrs, doc(cfg(feature = "pattern")))]
pub mod pattern;
pub mod percent;
#[cfg(feature = "psl")]
#[cfg_attr(docsrs, doc(cfg(feature = "psl")))]
pub mod psl;
#[cfg(feature = "render")]
#[cfg_attr(docsrs, doc(cfg(feature = "render")))]
pub mod render;
mod scan;
mod search_params;
mod serialization;
mod syntax;
mod url;
mod validation;
mod view;
mod writing;

pub use crate::components::{Base, Components, HostKind, PathSegments, SchemeKind};
pub use crate::error::{ErrorKind, ParseError};
pub use crate::origin::{OpaqueOrigin, Origin};
pub use crate::search_params::SearchParams;
pub use crate::url::{
    ParseOptions, SearchParamsMut, Url, can_parse, can_parse_with_base,
    parse_with_validation_errors, parse_with_validation_errors_with_base,
};
pub use crate::validation::{ValidationError, ValidationErrorKind};
pub use crate::view::{
    UrlRef, parse_hostname, parse_hostname_with_base, parse_ref, parse_ref_with_base,
};
pub use crate::writing::{
    is_valid_url_port_string, is_valid_url_string, is_valid_url_string_with_base,
};
pub use bumpalo;

/// The README's examples, compiled and run as doc tests (with the default features: they
/// use `batch`, `field`, `render`, …).
#[cfg(all(
    doctest,
    feature = "canon",
    feature = "encoding",
    feature = "field",
    feature = "pattern",
    feature = "psl",
    feature = "rayon",
    feature = "render"
))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// Entry points for this crate's own tests and benches (fast path forced on or off). Not
/// part of the supported API.
#[doc(hidden)]
pub mod __testing {
    use crate::parser::testing;
    use crate::{Components, ParseError};

    /// The fast path alone: `Some` only for input whose scheme and authority it proves
    /// canonical (the rest, when not proven, is finished by the state machine from the
    /// path start state).
    pub fn parse_fast(input: &str) -> Option<(String, Components)> {
        testing::parse_fast(input)
    }

    /// Whether the fast path proves all of `input` canonical (`Some(true)`), only its
    /// scheme and authority (`Some(false)`), or neither (`None`).
    pub fn fast_outcome(input: &str) -> Option<bool> {
        testing::fast_outcome(input)
    }

    /// The relative fast path alone: `Some` only for a reference against `base` that it
    /// resolves without the state machine.
    pub fn resolve_relative(input: &str, base: &crate::Url) -> Option<(String, Components)> {
        testing::resolve_relative(input, base.parts())
    }

    /// The state machine alone, resolving `input` against `base`.
    pub fn parse_slow_with_base(
        input: &str,
        base: &crate::Url,
    ) -> Result<(String, Components), ParseError> {
        testing::parse_slow_with_base(input, base.parts())
    }

    /// The check `can_parse` runs first: `true` only when the input is proven to parse.
    pub fn proven_valid(input: &str) -> bool {
        testing::proven_valid(input)
    }

    /// The check `parse_hostname` runs first: the host's range and whether it holds upper
    /// case, only when the input is proven to parse and its hostname is those bytes.
    pub fn proven_hostname(input: &str) -> Option<(std::ops::Range<usize>, bool)> {
        crate::parser::proven_hostname(input)
    }

    /// The state machine alone.
    pub fn parse_slow(input: &str) -> Result<(String, Components), ParseError> {
        testing::parse_slow(input)
    }

    /// The byte classifier the fast path starts with (private module `scan`): the name of
    /// the kernel this CPU runs (`avx2`, `sse2`, `neon`, `scalar`), for benchmark reports.
    pub fn scan_kernel_name() -> &'static str {
        crate::scan::kernel_name()
    }

    /// Every classifier kernel this CPU can run, by name, the scalar reference first:
    /// each fills the *special* and *upper* masks (one `u64` per 64 input bytes).
    #[allow(clippy::type_complexity)]
    pub fn scan_kernels() -> Vec<(&'static str, fn(&[u8], &mut [u64], &mut [u64]))> {
        crate::scan::kernels()
    }
}
