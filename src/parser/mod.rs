//! The URL parser (URL Standard §4.4).
//!
//! [`parse`] prepares the input as the basic URL parser's steps 1–3 say (strip leading
//! and trailing C0 control or space, remove ASCII tab or newline) and runs the state
//! machine in [`state`], which writes the normalized serialization straight into one
//! output string and records the component offsets ([`Components`]) as it goes.
//! [`setters`] implements the URL API setters (§6.1) with the same state functions run
//! with a state override.

pub(crate) mod fast;
pub(crate) mod setters;
pub(crate) mod state;

use crate::Url;
use crate::components::Components;
use crate::error::{ErrorKind, ParseError};
use crate::validation::{Collect, Report, Silent};
use encoding_rs::Encoding;
use encoding_rs::UTF_8;
use std::borrow::Cow;

/// A parsed URL borrowed as its serialization and components (e.g. a base URL).
#[derive(Clone, Copy, Debug)]
pub(crate) struct UrlParts<'a> {
    pub(crate) s: &'a str,
    pub(crate) c: &'a Components,
}

/// C0 control or space (Infra): U+0000 to U+0020.
#[inline]
pub(crate) const fn is_c0_or_space(b: u8) -> bool {
    b <= 0x20
}

/// ASCII tab or newline: U+0009, U+000A, U+000D.
#[inline]
pub(crate) const fn is_tab_or_newline(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

/// Removes every ASCII tab or newline (§4.4 basic URL parser step 3).
pub(crate) fn remove_tab_and_newline(input: &str) -> Cow<'_, str> {
    if input.bytes().any(is_tab_or_newline) {
        Cow::Owned(
            input
                .chars()
                .filter(|&c| !matches!(c, '\t' | '\n' | '\r'))
                .collect(),
        )
    } else {
        Cow::Borrowed(input)
    }
}

/// Where a byte of the cleaned input was in the original input, for error offsets.
fn original_offset(original: &str, lead: usize, cleaned_pos: usize, removed_any: bool) -> usize {
    if !removed_any {
        return lead + cleaned_pos;
    }
    let mut kept = 0;
    for (i, b) in original.bytes().enumerate().skip(lead) {
        if is_tab_or_newline(b) {
            continue;
        }
        if kept == cleaned_pos {
            return i;
        }
        kept += 1;
    }
    original.len()
}

/// URL Standard §4.4 basic URL parser (without url or state override), returning the
/// serialization and its components. `encoding` is the encoding override (UTF-8 unless
/// the caller says otherwise); it only affects the query of special non-ws(s) URLs.
pub(crate) fn parse(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: &'static Encoding,
) -> Result<(String, Components), ParseError> {
    // A canonical input means the same with or without a base (it has a scheme and, if
    // special, an authority) and in any encoding (it is ASCII).
    if let Some(canonical) = fast::parse_canonical(input) {
        let mut out = String::with_capacity(canonical.len(input));
        canonical.write(input, &mut out);
        return Ok((out, canonical.components));
    }
    parse_slow(input, base, encoding)
}

/// The state machine alone, without trying the fast path first.
pub(crate) fn parse_slow(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: &'static Encoding,
) -> Result<(String, Components), ParseError> {
    parse_slow_reporting(input, base, encoding, Silent)
}

/// [`parse`] collecting validation errors into `errors`: always the state machine (a
/// canonical input may still have validation errors, e.g. credentials).
pub(crate) fn parse_reporting(
    input: &str,
    base: Option<&Url>,
    errors: &mut Collect,
) -> Result<Url, ParseError> {
    let base = base.map(Url::parts);
    let (serialization, components) = parse_slow_reporting(input, base, UTF_8, errors)?;
    Ok(Url::from_raw(serialization, components))
}

/// The state machine alone, reporting validation errors to `r`.
fn parse_slow_reporting<R: Report>(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: &'static Encoding,
    mut r: R,
) -> Result<(String, Components), ParseError> {
    if input.len() > u32::MAX as usize {
        return Err(ParseError::new(ErrorKind::InputTooLong));
    }
    // Steps 1.2-1.3: strip leading and trailing C0 control or space.
    let bytes = input.as_bytes();
    let lead = bytes.iter().take_while(|&&b| is_c0_or_space(b)).count();
    let trail = bytes[lead..]
        .iter()
        .rev()
        .take_while(|&&b| is_c0_or_space(b))
        .count();
    let trimmed = &input[lead..input.len() - trail];
    // Steps 2-3: remove ASCII tab or newline.
    let cleaned = remove_tab_and_newline(trimmed);
    let removed_any = matches!(cleaned, Cow::Owned(_));
    if R::ENABLED {
        r.cleaned(input, lead, trail);
    }
    state::Parser::new(&cleaned, base)
        .with_encoding(encoding)
        .with_reporter(r)
        .run()
        .map_err(|e| match e.offset() {
            Some(pos) => ParseError::at(e.kind(), original_offset(input, lead, pos, removed_any)),
            None => e,
        })
}
