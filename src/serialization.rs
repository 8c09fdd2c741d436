//! Where a [`Url`](crate::Url) keeps its serialization: inside the value when it is short
//! (most URLs of real logs: then parsing one allocates nothing), else in a `String`.

use arrayvec::ArrayString;

/// The longest serialization kept inline: the inline form and a `String` then take the
/// same 64 bytes.
pub(crate) const INLINE: usize = 56;

/// A URL's serialization, inline up to [`INLINE`] bytes.
#[derive(Clone)]
pub(crate) enum Serialization {
    /// At most [`INLINE`] bytes, in the value itself.
    Inline(ArrayString<INLINE>),
    /// On the heap: longer serializations, and any URL changed by a setter.
    Heap(String),
}

impl Serialization {
    /// A copy of `s`: inline when it fits, else one allocation of exactly its length.
    #[inline(always)]
    pub(crate) fn copy_of(s: &str) -> Serialization {
        match ArrayString::from(s) {
            Ok(inline) => Serialization::Inline(inline),
            Err(_) => Serialization::Heap(s.to_owned()),
        }
    }

    /// The serialization.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Serialization::Inline(s) => s.as_str(),
            Serialization::Heap(s) => s.as_str(),
        }
    }

    /// The serialization as a `String` to edit in place (the setters): an inline one is
    /// moved to the heap first.
    pub(crate) fn to_mut(&mut self) -> &mut String {
        if let Serialization::Inline(s) = self {
            *self = Serialization::Heap(s.as_str().to_owned());
        }
        match self {
            Serialization::Heap(s) => s,
            Serialization::Inline(_) => unreachable!("moved to the heap above"),
        }
    }

    /// The serialization as a `String`, allocating only for an inline one.
    pub(crate) fn into_string(self) -> String {
        match self {
            Serialization::Inline(s) => s.as_str().to_owned(),
            Serialization::Heap(s) => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_serializations_are_inline_long_ones_on_the_heap() {
        let short = "https://example.com/a?b#c";
        let fits = "h".repeat(INLINE);
        let long = "h".repeat(INLINE + 1);
        assert!(matches!(
            Serialization::copy_of(short),
            Serialization::Inline(_)
        ));
        assert!(matches!(
            Serialization::copy_of(&fits),
            Serialization::Inline(_)
        ));
        assert!(matches!(
            Serialization::copy_of(&long),
            Serialization::Heap(_)
        ));
        for s in [short, &fits, &long, ""] {
            assert_eq!(Serialization::copy_of(s).as_str(), s);
            assert_eq!(Serialization::copy_of(s).into_string(), s);
        }
        // No larger than a `String` beside an inline buffer would need.
        assert_eq!(std::mem::size_of::<Serialization>(), 64);
    }

    #[test]
    fn editing_moves_an_inline_serialization_to_the_heap() {
        let mut s = Serialization::copy_of("https://a.example/");
        s.to_mut().push_str("path");
        assert!(matches!(s, Serialization::Heap(_)));
        assert_eq!(s.as_str(), "https://a.example/path");
    }
}
