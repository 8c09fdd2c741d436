//! [`UrlRef`]: a parsed URL borrowed from the input itself (when it is canonical) or from
//! an arena, with the same getters as [`Url`](crate::Url).
//!
//! This module does not depend on `url.rs`: the conversions between the two types
//! (`UrlRef::to_url`, `Url::as_ref_view`, their `PartialEq`) are written there.

use crate::components::{Base, Components, HostKind, SchemeKind, UrlParts};
use crate::encoding_override::UTF_8;
use crate::error::ParseError;
use crate::parser;
use bumpalo::Bump;
use std::fmt;

/// A parsed URL that borrows its serialization: zero-copy for canonical input.
///
/// Made by [`parse_ref`]. Its getters are exactly [`Url`](crate::Url)'s, and return slices that live
/// as long as the input (or the arena), not just as long as the view.
///
/// ```
/// use bumpalo::Bump;
/// let arena = Bump::new();
/// let input = "https://example.com/a/b?q=1";
/// let url = rapidurl::parse_ref(input, &arena).unwrap();
/// assert_eq!(url.pathname(), "/a/b");
/// assert!(std::ptr::eq(url.as_str(), input)); // no copy: the input was canonical
/// assert_eq!(arena.allocated_bytes(), 0);
///
/// let messy = rapidurl::parse_ref("HTTPS://Example.COM/a/../b", &arena).unwrap();
/// assert_eq!(messy.href(), "https://example.com/b"); // normalized into the arena
/// ```
#[derive(Clone, Copy)]
pub struct UrlRef<'a> {
    serialization: &'a str,
    components: Components,
}

impl<'a> UrlRef<'a> {
    crate::getters::url_getters!(
        'a,
        "rapidurl::parse_ref(",
        ", &rapidurl::bumpalo::Bump::new())"
    );

    pub(crate) fn from_parts(serialization: &'a str, components: Components) -> Self {
        UrlRef {
            serialization,
            components,
        }
    }

    #[inline]
    fn src(&self) -> &'a str {
        self.serialization
    }

    pub(crate) fn parts(&self) -> UrlParts<'_> {
        UrlParts {
            s: self.serialization,
            c: &self.components,
        }
    }
}

impl<'b> From<&'b UrlRef<'_>> for Base<'b> {
    fn from(url: &'b UrlRef<'_>) -> Base<'b> {
        Base::new(url.parts())
    }
}

/// Parses `input` into a view that borrows `input` itself when it is canonical (no
/// allocation at all), and otherwise a normalized copy placed in `arena`.
pub fn parse_ref<'a>(input: &'a str, arena: &'a Bump) -> Result<UrlRef<'a>, ParseError> {
    parse_in(input, None, arena)
}

/// [`parse_ref`] against a base URL (a parsed [`crate::Url`] or [`UrlRef`]), as a crawler
/// resolves the links of a page: the view borrows `input` when it is an absolute canonical
/// URL, else it lives in `arena`.
///
/// ```
/// use bumpalo::Bump;
/// let arena = Bump::new();
/// let page = rapidurl::parse_ref("https://example.com/blog/post", &arena).unwrap();
/// let link = rapidurl::parse_ref_with_base("../about", &page, &arena).unwrap();
/// assert_eq!(link.href(), "https://example.com/about");
/// ```
pub fn parse_ref_with_base<'a, 'b>(
    input: &'a str,
    base: impl Into<Base<'b>>,
    arena: &'a Bump,
) -> Result<UrlRef<'a>, ParseError> {
    parse_in(input, Some(base.into().parts), arena)
}

/// The hostname of `input`: exactly `parse_ref(input, arena).map(|url| url.hostname())`,
/// faster when only the hostname is wanted.
///
/// When `input` has a special scheme other than `file`, `//` and a host of plain bytes
/// (letters, digits, `- . _ ~ ! $ & ( ) * + , ; =`) whose last label is not a number,
/// followed by a valid port or the end of the authority, it parses whatever follows
/// (the path, query and fragment states never fail), and its hostname is those bytes
/// lower-cased: the answer is read off the input (borrowed; lower-cased into `arena` only
/// when it has upper case), without parsing the rest. Anything else is parsed.
///
/// ```
/// use rapidurl::bumpalo::Bump;
/// let arena = Bump::new();
/// assert_eq!(rapidurl::parse_hostname("https://Example.com:8080/a?b#c", &arena), Ok("example.com"));
/// assert_eq!(rapidurl::parse_hostname("http://[::1]/", &arena), Ok("[::1]"));
/// let err = rapidurl::parse_hostname("http://example.com:99999/", &arena).unwrap_err();
/// assert_eq!(err.name(), "port-out-of-range");
/// ```
#[inline]
pub fn parse_hostname<'a>(input: &'a str, arena: &'a Bump) -> Result<&'a str, ParseError> {
    match parser::proven_hostname(input) {
        Some((range, false)) => Ok(&input[range]),
        _ => hostname_slow(input, None, arena),
    }
}

/// [`parse_hostname`] against a base URL: exactly
/// `parse_ref_with_base(input, base, arena).map(|url| url.hostname())`. An input with a
/// scheme of its own parses the same against any base, so the same inputs are read off
/// without parsing.
#[inline]
pub fn parse_hostname_with_base<'a, 'b>(
    input: &'a str,
    base: impl Into<Base<'b>>,
    arena: &'a Bump,
) -> Result<&'a str, ParseError> {
    match parser::proven_hostname(input) {
        Some((range, false)) => Ok(&input[range]),
        _ => hostname_slow(input, Some(base.into().parts), arena),
    }
}

/// [`parse_hostname`] off its common path (kept out of line, so that the callers' loops
/// hold only the proof's call): a proven host with upper case, lower-cased into `arena`;
/// anything else parsed.
#[inline(never)]
fn hostname_slow<'a>(
    input: &'a str,
    base: Option<UrlParts<'_>>,
    arena: &'a Bump,
) -> Result<&'a str, ParseError> {
    if let Some((range, _)) = parser::proven_hostname(input) {
        let lower = arena.alloc_str(&input[range]);
        lower.make_ascii_lowercase();
        return Ok(lower);
    }
    parse_in(input, base, arena).map(|url| url.hostname())
}

/// Both of the above: a canonical input is the view itself; anything else (including a
/// canonical input whose empty special path needs its `/`) is written straight into the
/// arena.
#[inline(always)]
fn parse_in<'a>(
    input: &'a str,
    base: Option<UrlParts<'_>>,
    arena: &'a Bump,
) -> Result<UrlRef<'a>, ParseError> {
    let canonical = parser::parse_canonical(input);
    if let Some(c) = parser::borrowed(input, &canonical) {
        // Nothing to write: the input is the serialization.
        return Ok(UrlRef::from_parts(input, c));
    }
    write_in(input, canonical, base, arena)
}

/// [`parse_in`] for an input that is not its own serialization: written into the arena.
fn write_in<'a>(
    input: &'a str,
    canonical: Option<parser::Canonical>,
    base: Option<UrlParts<'_>>,
    arena: &'a Bump,
) -> Result<UrlRef<'a>, ParseError> {
    let mut out = bumpalo::collections::String::new_in(arena);
    let c = parser::write_into(input, canonical, base, UTF_8, &mut out)?;
    Ok(UrlRef::from_parts(out.into_bump_str(), c))
}

impl fmt::Display for UrlRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.serialization)
    }
}

impl fmt::Debug for UrlRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UrlRef").field(&self.serialization).finish()
    }
}

impl AsRef<str> for UrlRef<'_> {
    fn as_ref(&self) -> &str {
        self.serialization
    }
}

impl PartialEq for UrlRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.serialization == other.serialization
    }
}

impl Eq for UrlRef<'_> {}

impl std::hash::Hash for UrlRef<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.serialization.hash(state)
    }
}
