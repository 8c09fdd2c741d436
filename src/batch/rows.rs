//! What the column sources ([`Offsets`](super::engine::Offsets),
//! [`Views`](super::engine::Views)) add to each row: a validity bitmap (null rows), and
//! the base a row is parsed against (one for all rows, or one per row, parsed once for a
//! run of rows that share it).

use crate::error::{ErrorKind, ParseError};
use crate::url::Url;
use std::borrow::Cow;

/// A validity bitmap as Arrow stores one: bit `offset + i` (least significant bit first)
/// set when row `i` has a value, clear when it is null.
#[derive(Clone, Copy, Debug)]
pub struct Validity<'a> {
    bits: &'a [u8],
    offset: usize,
}

impl<'a> Validity<'a> {
    /// The bitmap `bits`, row 0 at bit `offset`. A row whose bit lies past the end of
    /// `bits` is null.
    pub fn new(bits: &'a [u8], offset: usize) -> Self {
        Validity { bits, offset }
    }

    /// Whether row `i` has a value.
    #[inline]
    pub fn is_valid(&self, i: usize) -> bool {
        let bit = self.offset + i;
        self.bits
            .get(bit / 8)
            .is_some_and(|byte| byte & (1 << (bit % 8)) != 0)
    }
}

/// A base per row, for a column source: row `i` of the source is parsed against
/// `base(i)` (`None`: no base), and a base that does not parse makes the row fail with
/// [`ErrorKind::InvalidBase`]. Consecutive rows with the same base string parse it once.
pub trait RowBases: Sync {
    /// The base string of row `i` of the source (`None`: the row has no base).
    fn base(&self, i: usize) -> Option<Cow<'_, str>>;
}

/// What each row is parsed against.
#[derive(Clone, Copy)]
pub(crate) enum Bases<'a> {
    One(Option<&'a Url>),
    PerRow(&'a dyn RowBases),
}

impl std::fmt::Debug for Bases<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bases::One(base) => f.debug_tuple("One").field(base).finish(),
            Bases::PerRow(_) => f.write_str("PerRow(..)"),
        }
    }
}

/// What a column source adds to its rows: nulls and bases.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Extras<'a> {
    pub(crate) validity: Option<Validity<'a>>,
    pub(crate) bases: Bases<'a>,
}

impl<'a> Extras<'a> {
    pub(crate) fn new(base: Option<&'a Url>) -> Self {
        Extras {
            validity: None,
            bases: Bases::One(base),
        }
    }

    /// Whether row `i` is null.
    #[inline]
    pub(crate) fn is_null(&self, i: usize) -> bool {
        self.validity.is_some_and(|v| !v.is_valid(i))
    }
}

/// The last base string of a piece and its parse: rows that share a base (the common
/// case: the page a link was found on) parse it once.
pub(crate) struct LastBase {
    last: Option<(String, Result<Url, ParseError>)>,
    /// How many base strings were parsed.
    parsed: usize,
}

impl LastBase {
    pub(crate) fn new() -> Self {
        LastBase {
            last: None,
            parsed: 0,
        }
    }

    /// The parsed `base`, reusing the previous row's when the string is the same.
    pub(crate) fn get(&mut self, base: &str) -> Result<&Url, ParseError> {
        if self.last.as_ref().is_none_or(|(s, _)| s != base) {
            self.parsed += 1;
            self.last = Some((base.to_owned(), Url::parse(base)));
        }
        match &self.last {
            Some((_, Ok(url))) => Ok(url),
            _ => Err(ParseError::new(ErrorKind::InvalidBase)),
        }
    }
}

/// [`emit`] for a row given as bytes: borrowed when they are UTF-8, else decoded with
/// U+FFFD (the row keeps its raw bytes for the error offsets).
pub(crate) fn emit_bytes<'a, F: FnMut(Input<'a, '_>)>(
    extras: &Extras<'a>,
    bases: &mut LastBase,
    i: usize,
    bytes: &'a [u8],
    row: &mut F,
) {
    match super::row_text(bytes) {
        Some(t) => emit(extras, bases, i, Input::borrowed(t), row),
        None => {
            let t = String::from_utf8_lossy(bytes);
            emit(extras, bases, i, Input::decoded(&t, bytes), row)
        }
    }
}

/// Hands row `i` (its text made by `input`, or null) to `row`, with its base. Inlined
/// into the sources' row loops: a row's `Input` is then built where it is used, not
/// written out for a call and copied back.
#[inline(always)]
pub(crate) fn emit<'a, F: FnMut(Input<'a, '_>)>(
    extras: &Extras<'a>,
    bases: &mut LastBase,
    i: usize,
    input: Input<'a, '_>,
    row: &mut F,
) {
    if extras.is_null(i) {
        return row(Input::null());
    }
    match extras.bases {
        Bases::One(base) => row(input.with_base(base)),
        Bases::PerRow(per_row) => match per_row.base(i) {
            None => row(input),
            Some(b) => match bases.get(&b) {
                Ok(base) => row(input.with_base(Some(base))),
                Err(err) => row(Input::failed(input.text(), err)),
            },
        },
    }
}

/// A row as a source hands it to the engine: the text to parse, and what it is parsed
/// against.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a, 'r> {
    pub(super) text: &'r str,
    /// `text`, when it is a slice of the source's own input.
    pub(super) source_text: Option<&'a str>,
    /// The raw bytes `text` was decoded from with U+FFFD, if it was.
    pub(super) raw: Option<&'r [u8]>,
    pub(super) base: Option<&'r Url>,
    /// The row fails with this error without being parsed.
    pub(super) error: Option<ParseError>,
    /// The row is a null (a missing value, as in an Arrow column).
    pub(super) null: bool,
}

impl<'a, 'r> Input<'a, 'r> {
    /// A row whose text lives as long as the source's input: a row the parser finds
    /// canonical can be kept by a sink as that slice (no copy).
    #[inline]
    pub fn borrowed(text: &'a str) -> Self
    where
        'a: 'r,
    {
        Input {
            text,
            source_text: Some(text),
            raw: None,
            base: None,
            error: None,
            null: false,
        }
    }

    /// A row whose text lives only for the call (made for it, e.g. decoded or unescaped).
    #[inline]
    pub fn transient(text: &'r str) -> Self {
        Input {
            text,
            source_text: None,
            raw: None,
            base: None,
            error: None,
            null: false,
        }
    }

    /// A null row (a missing value, as an Arrow column's validity bitmap marks it): the
    /// sink sees it as an empty input for which [`Row::is_null`](super::engine::Row::is_null) is true, and parses
    /// nothing for it.
    #[inline]
    pub fn null() -> Self {
        Input {
            null: true,
            error: Some(ParseError::new(ErrorKind::MissingSchemeNonRelativeUrl)),
            ..Input::transient("")
        }
    }

    /// A row decoded from `raw`, which is not valid UTF-8, into `text` (each invalid
    /// sequence U+FFFD, as [`Url::parse_bytes`] decodes): an error's offset is then a byte
    /// offset into `raw`.
    #[inline]
    pub fn decoded(text: &'r str, raw: &'r [u8]) -> Self {
        Input {
            raw: Some(raw),
            ..Input::transient(text)
        }
    }

    /// A row that fails with `error` without being parsed (e.g. its base did not parse:
    /// [`ErrorKind::InvalidBase`]).
    #[inline]
    pub fn failed(text: &'r str, error: ParseError) -> Self {
        Input {
            error: Some(error),
            ..Input::transient(text)
        }
    }

    /// The same row, parsed against `base`.
    #[inline]
    pub fn with_base(self, base: Option<&'r Url>) -> Self {
        Input { base, ..self }
    }

    /// The text to parse.
    pub fn text(&self) -> &'r str {
        self.text
    }

    /// The base the row is parsed against, if any.
    pub fn base(&self) -> Option<&'r Url> {
        self.base
    }

    /// Whether the row is a null ([`Input::null`]).
    pub fn is_null(&self) -> bool {
        self.null
    }

    /// The error the row fails with without being parsed ([`Input::failed`], and the
    /// error an empty input gives for a null row).
    pub fn error(&self) -> Option<ParseError> {
        self.error
    }
}
