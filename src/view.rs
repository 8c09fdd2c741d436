//! [`UrlRef`]: a parsed URL borrowed from the input itself (when it is canonical) or from
//! an arena, with the same getters as [`Url`](crate::Url).
//!
//! This module does not depend on `url.rs`: the conversions between the two types
//! (`UrlRef::to_url`, `Url::as_ref_view`, their `PartialEq`) are written there.

use crate::components::{Components, HostKind, SchemeKind, UrlParts};
use crate::error::ParseError;
use crate::parser;
use bumpalo::Bump;
use encoding_rs::UTF_8;
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

/// Parses `input` into a view that borrows `input` itself when it is canonical (no
/// allocation at all), and otherwise a normalized copy placed in `arena`.
pub fn parse_ref<'a>(input: &'a str, arena: &'a Bump) -> Result<UrlRef<'a>, ParseError> {
    parse_in(input, None, arena)
}

/// [`parse_ref`] against a base URL, as a crawler resolves the links of a page: the view
/// borrows `input` when it is an absolute canonical URL, else it lives in `arena`.
///
/// ```
/// use bumpalo::Bump;
/// let arena = Bump::new();
/// let page = rapidurl::parse_ref("https://example.com/blog/post", &arena).unwrap();
/// let link = rapidurl::parse_ref_with_base("../about", &page, &arena).unwrap();
/// assert_eq!(link.href(), "https://example.com/about");
/// ```
pub fn parse_ref_with_base<'a>(
    input: &'a str,
    base: &UrlRef<'_>,
    arena: &'a Bump,
) -> Result<UrlRef<'a>, ParseError> {
    parse_in(input, Some(base.parts()), arena)
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
