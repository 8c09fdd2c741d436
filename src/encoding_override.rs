//! The basic URL parser's *encoding* (§4.4), which a special URL's query other than
//! ws/wss is percent-encoded after encoding in: with the feature `encoding`, an
//! [`encoding_rs::Encoding`] (UTF-8 unless [`ParseOptions::encoding`] says otherwise);
//! without it, UTF-8, the only one there is, as a type of size zero. The parser is the
//! same code either way: it compares its encoding with [`UTF_8`] and, when they differ,
//! calls [`percent_encode_after_encoding_to`].
//!
//! [`ParseOptions::encoding`]: crate::ParseOptions::encoding

#[cfg(feature = "encoding")]
pub(crate) use crate::encoding::percent_encode_after_encoding_to;

/// The encoding the parser is given.
#[cfg(feature = "encoding")]
pub(crate) type QueryEncoding = &'static encoding_rs::Encoding;

/// UTF-8.
#[cfg(feature = "encoding")]
pub(crate) use encoding_rs::UTF_8;

/// The encoding the parser is given: UTF-8, the only one without the feature `encoding`.
#[cfg(not(feature = "encoding"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QueryEncoding;

/// UTF-8.
#[cfg(not(feature = "encoding"))]
pub(crate) const UTF_8: QueryEncoding = QueryEncoding;

/// Percent-encode after encoding (§1.3) in UTF-8: the UTF-8 percent-encoding of `input`
/// with `set` (a space as `+` if `space_as_plus`), appended to `out`.
#[cfg(not(feature = "encoding"))]
#[inline]
pub(crate) fn percent_encode_after_encoding_to<O: crate::output::Output + ?Sized>(
    _: QueryEncoding,
    input: &str,
    set: &crate::percent::AsciiSet,
    space_as_plus: bool,
    out: &mut O,
) {
    crate::percent::push_encoded_bytes(input.as_bytes(), set, space_as_plus, out)
}
