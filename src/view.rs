//! [`UrlRef`]: a parsed URL borrowed from the input itself (when it is canonical) or from
//! an arena, with the same getters as [`Url`].

use crate::components::{Components, HostKind, SchemeKind};
use crate::error::ParseError;
use crate::parser::{self, UrlParts, fast};
use crate::url::Url;
use bumpalo::Bump;
use encoding_rs::UTF_8;
use std::fmt;

/// A parsed URL that borrows its serialization: zero-copy for canonical input.
///
/// Made by [`parse_ref`]. Its getters are exactly [`Url`]'s, and return slices that live
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
    crate::components::url_getters!(
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

    /// An owned [`Url`] with the same serialization and components.
    pub fn to_url(&self) -> Url {
        Url::from_raw(self.serialization.to_owned(), self.components)
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

/// Both of the above: a canonical input is the view itself (or, when the `/` of an empty
/// special path must be inserted, a copy written straight into the arena); anything else
/// goes through the state machine and its serialization is moved into the arena.
fn parse_in<'a>(
    input: &'a str,
    base: Option<UrlParts<'_>>,
    arena: &'a Bump,
) -> Result<UrlRef<'a>, ParseError> {
    let Some(canonical) = fast::parse_canonical(input) else {
        let (s, c) = parser::parse_slow(input, base, UTF_8)?;
        return Ok(UrlRef::from_parts(arena.alloc_str(&s), c));
    };
    let s = match canonical.slash_at {
        None => input,
        Some(at) => {
            let (head, tail) = input.split_at(at as usize);
            let mut out = bumpalo::collections::String::with_capacity_in(input.len() + 1, arena);
            out.push_str(head);
            out.push('/');
            out.push_str(tail);
            out.into_bump_str()
        }
    };
    Ok(UrlRef::from_parts(s, canonical.components))
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

impl PartialEq<Url> for UrlRef<'_> {
    fn eq(&self, other: &Url) -> bool {
        self.serialization == other.as_str()
    }
}
