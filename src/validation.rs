//! Validation errors (URL Standard §1.1): every mismatch between the input and a valid
//! URL string that the parser's steps report, not only the one that makes it fail.
//!
//! [`crate::parse_with_validation_errors`] parses as [`crate::Url::parse`] does and also returns the
//! list of validation errors, in the order the Standard's steps report them, duplicates
//! included, host parsing's own included. The names, and which steps report which error,
//! are those of the Standard's reference implementation (`whatwg-url` 17.3), which follows
//! a newer edition than the text we carry; docs/architecture.md lists the differences.
//!
//! The failure's entry follows the reference too, so its name can differ from the
//! [`crate::ParseError`]'s, which keeps our text's names: for `http://a b/` the list ends with
//! `domain-to-ASCII` (the strict pass), while the error is `domain-invalid-code-point`.
//!
//! The ordinary parse does not collect anything: the state machine is generic over a
//! reporter, and the one [`crate::Url::parse`] uses does nothing and compiles away.

use crate::error::ErrorKind;
use std::fmt;

/// The kinds of validation error (URL Standard §1.1, as the reference implementation
/// names them). [`ValidationErrorKind::name`] gives the Standard's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// `domain-to-ASCII`: Unicode ToASCII, run strictly, records an error or returns
    /// the empty string.
    DomainToAscii,
    /// `domain-invalid-code-point`: the domain holds a forbidden domain code point.
    DomainInvalidCodePoint,
    /// `domain-to-Unicode`: Unicode ToUnicode records an error (rendering only).
    DomainToUnicode,
    /// `domain-percent-encoded`: a special URL's host holds a percent-encoded byte.
    DomainPercentEncoded,
    /// `host-invalid-code-point`: an opaque host holds a forbidden host code point.
    HostInvalidCodePoint,
    /// `IPv4-empty-part`: an IPv4 address ends with `.`.
    Ipv4EmptyPart,
    /// `IPv4-too-many-parts`: an IPv4 address has more than four parts.
    Ipv4TooManyParts,
    /// `IPv4-too-few-parts`: an IPv4 address has fewer than four parts.
    Ipv4TooFewParts,
    /// `IPv4-non-numeric-part`: a part of an IPv4 address is not a number.
    Ipv4NonNumericPart,
    /// `IPv4-non-decimal-part`: a part is written in hexadecimal or octal.
    Ipv4NonDecimalPart,
    /// `IPv4-out-of-range-part`: a part of an IPv4 address exceeds 255.
    Ipv4OutOfRangePart,
    /// `IPv4-non-ASCII-input`: a host read as an IPv4 address was not ASCII before
    /// domain to ASCII (e.g. full-width digits).
    Ipv4NonAsciiInput,
    /// `IPv6-unclosed`: `[` without a closing `]`.
    Ipv6Unclosed,
    /// `IPv6-invalid-compression`: an IPv6 address begins with a single `:`.
    Ipv6InvalidCompression,
    /// `IPv6-too-many-pieces`: an IPv6 address has more than eight pieces.
    Ipv6TooManyPieces,
    /// `IPv6-multiple-compression`: more than one `::`.
    Ipv6MultipleCompression,
    /// `IPv6-invalid-code-point`: a code point other than a hex digit or `:`, or an
    /// unexpected end.
    Ipv6InvalidCodePoint,
    /// `IPv6-too-few-pieces`: an uncompressed IPv6 address has fewer than eight pieces.
    Ipv6TooFewPieces,
    /// `IPv6-piece-leading-zero`: a piece of an IPv6 address has a leading zero.
    Ipv6PieceLeadingZero,
    /// `IPv4-in-IPv6-too-many-pieces`: an embedded IPv4 address after more than six pieces.
    Ipv4InIpv6TooManyPieces,
    /// `IPv4-in-IPv6-invalid-code-point`: an embedded IPv4 part is empty, has a non-digit
    /// or a leading zero, or there are too many parts.
    Ipv4InIpv6InvalidCodePoint,
    /// `IPv4-in-IPv6-out-of-range-part`: an embedded IPv4 part exceeds 255.
    Ipv4InIpv6OutOfRangePart,
    /// `IPv4-in-IPv6-too-few-parts`: an embedded IPv4 address has too few parts.
    Ipv4InIpv6TooFewParts,
    /// `invalid-URL-unit`: a code point that is not a URL unit, or a `%` not followed by
    /// two hex digits; also leading or trailing C0 control or space, and tab or newline.
    InvalidUrlUnit,
    /// `special-scheme-missing-following-solidus`: a special scheme not followed by `//`.
    SpecialSchemeMissingFollowingSolidus,
    /// `missing-scheme-non-relative-URL`: no scheme, and no base to resolve against (or a
    /// base with an opaque path).
    MissingSchemeNonRelativeUrl,
    /// `invalid-reverse-solidus`: `\` used for `/` in a special URL.
    InvalidReverseSolidus,
    /// `invalid-credentials`: the input includes credentials.
    InvalidCredentials,
    /// `host-missing`: a special URL (or one with credentials or a port) has no host.
    HostMissing,
    /// `port-out-of-range`: the port exceeds 65535.
    PortOutOfRange,
    /// `port-invalid`: the port holds something other than ASCII digits.
    PortInvalid,
    /// `file-invalid-Windows-drive-letter`: a relative input starting with a Windows
    /// drive letter against a `file:` base.
    FileInvalidWindowsDriveLetter,
    /// `file-invalid-Windows-drive-letter-host`: a `file:` URL's host is a drive letter.
    FileInvalidWindowsDriveLetterHost,
}

impl ValidationErrorKind {
    /// The Standard's name for this validation error, e.g. `"invalid-URL-unit"`.
    pub const fn name(self) -> &'static str {
        use ValidationErrorKind as K;
        match self {
            K::DomainToAscii => "domain-to-ASCII",
            K::DomainInvalidCodePoint => "domain-invalid-code-point",
            K::DomainToUnicode => "domain-to-Unicode",
            K::DomainPercentEncoded => "domain-percent-encoded",
            K::HostInvalidCodePoint => "host-invalid-code-point",
            K::Ipv4EmptyPart => "IPv4-empty-part",
            K::Ipv4TooManyParts => "IPv4-too-many-parts",
            K::Ipv4TooFewParts => "IPv4-too-few-parts",
            K::Ipv4NonNumericPart => "IPv4-non-numeric-part",
            K::Ipv4NonDecimalPart => "IPv4-non-decimal-part",
            K::Ipv4OutOfRangePart => "IPv4-out-of-range-part",
            K::Ipv4NonAsciiInput => "IPv4-non-ASCII-input",
            K::Ipv6Unclosed => "IPv6-unclosed",
            K::Ipv6InvalidCompression => "IPv6-invalid-compression",
            K::Ipv6TooManyPieces => "IPv6-too-many-pieces",
            K::Ipv6MultipleCompression => "IPv6-multiple-compression",
            K::Ipv6InvalidCodePoint => "IPv6-invalid-code-point",
            K::Ipv6TooFewPieces => "IPv6-too-few-pieces",
            K::Ipv6PieceLeadingZero => "IPv6-piece-leading-zero",
            K::Ipv4InIpv6TooManyPieces => "IPv4-in-IPv6-too-many-pieces",
            K::Ipv4InIpv6InvalidCodePoint => "IPv4-in-IPv6-invalid-code-point",
            K::Ipv4InIpv6OutOfRangePart => "IPv4-in-IPv6-out-of-range-part",
            K::Ipv4InIpv6TooFewParts => "IPv4-in-IPv6-too-few-parts",
            K::InvalidUrlUnit => "invalid-URL-unit",
            K::SpecialSchemeMissingFollowingSolidus => "special-scheme-missing-following-solidus",
            K::MissingSchemeNonRelativeUrl => "missing-scheme-non-relative-URL",
            K::InvalidReverseSolidus => "invalid-reverse-solidus",
            K::InvalidCredentials => "invalid-credentials",
            K::HostMissing => "host-missing",
            K::PortOutOfRange => "port-out-of-range",
            K::PortInvalid => "port-invalid",
            K::FileInvalidWindowsDriveLetter => "file-invalid-Windows-drive-letter",
            K::FileInvalidWindowsDriveLetterHost => "file-invalid-Windows-drive-letter-host",
        }
    }

    /// A one-line explanation, for people. A validation error that can make parsing fail
    /// is explained as that failure is ([`ErrorKind::description`]): one text for both.
    pub const fn description(self) -> &'static str {
        use ValidationErrorKind as K;
        if let Some(failure) = self.failure_kind() {
            return failure.description();
        }
        match self {
            K::DomainToUnicode => "UTS #46 ToUnicode recorded an error for the domain",
            K::DomainPercentEncoded => "the host holds percent-encoded bytes",
            K::Ipv4EmptyPart => "the IPv4 address ends with a dot",
            K::Ipv4TooFewParts => "the IPv4 address has fewer than four parts",
            K::Ipv4NonDecimalPart => "a part of the IPv4 address is hexadecimal or octal",
            K::Ipv4NonAsciiInput => "the IPv4 address was written with non-ASCII code points",
            K::Ipv6PieceLeadingZero => "a piece of the IPv6 address has a leading zero",
            K::InvalidUrlUnit => {
                "a code point that is not a URL unit, or a '%' not followed by two hex digits"
            }
            K::SpecialSchemeMissingFollowingSolidus => "the special scheme is not followed by '//'",
            K::InvalidReverseSolidus => "a backslash is used where a slash belongs",
            K::InvalidCredentials => "the input includes credentials (a username or password)",
            K::FileInvalidWindowsDriveLetter => {
                "a relative URL starting with a Windows drive letter, against a file: base"
            }
            K::FileInvalidWindowsDriveLetterHost => {
                "the file: URL's host is a Windows drive letter"
            }
            // The kinds of a failure, explained above.
            _ => "",
        }
    }

    /// The failure ([`ErrorKind`]) of the same name, for the validation errors that can
    /// make parsing fail.
    pub const fn failure_kind(self) -> Option<ErrorKind> {
        use ValidationErrorKind as K;
        Some(match self {
            K::DomainToAscii => ErrorKind::DomainToAscii,
            K::DomainInvalidCodePoint => ErrorKind::DomainInvalidCodePoint,
            K::HostInvalidCodePoint => ErrorKind::HostInvalidCodePoint,
            K::Ipv4TooManyParts => ErrorKind::Ipv4TooManyParts,
            K::Ipv4NonNumericPart => ErrorKind::Ipv4NonNumericPart,
            K::Ipv4OutOfRangePart => ErrorKind::Ipv4OutOfRangePart,
            K::Ipv6Unclosed => ErrorKind::Ipv6Unclosed,
            K::Ipv6InvalidCompression => ErrorKind::Ipv6InvalidCompression,
            K::Ipv6TooManyPieces => ErrorKind::Ipv6TooManyPieces,
            K::Ipv6MultipleCompression => ErrorKind::Ipv6MultipleCompression,
            K::Ipv6InvalidCodePoint => ErrorKind::Ipv6InvalidCodePoint,
            K::Ipv6TooFewPieces => ErrorKind::Ipv6TooFewPieces,
            K::Ipv4InIpv6TooManyPieces => ErrorKind::Ipv4InIpv6TooManyPieces,
            K::Ipv4InIpv6InvalidCodePoint => ErrorKind::Ipv4InIpv6InvalidCodePoint,
            K::Ipv4InIpv6OutOfRangePart => ErrorKind::Ipv4InIpv6OutOfRangePart,
            K::Ipv4InIpv6TooFewParts => ErrorKind::Ipv4InIpv6TooFewParts,
            K::MissingSchemeNonRelativeUrl => ErrorKind::MissingSchemeNonRelativeUrl,
            K::HostMissing => ErrorKind::HostMissing,
            K::PortOutOfRange => ErrorKind::PortOutOfRange,
            K::PortInvalid => ErrorKind::PortInvalid,
            K::DomainToUnicode
            | K::DomainPercentEncoded
            | K::Ipv4EmptyPart
            | K::Ipv4TooFewParts
            | K::Ipv4NonDecimalPart
            | K::Ipv4NonAsciiInput
            | K::Ipv6PieceLeadingZero
            | K::InvalidUrlUnit
            | K::SpecialSchemeMissingFollowingSolidus
            | K::InvalidReverseSolidus
            | K::InvalidCredentials
            | K::FileInvalidWindowsDriveLetter
            | K::FileInvalidWindowsDriveLetterHost => return None,
        })
    }
}

impl ErrorKind {
    /// The validation error (URL Standard §1.1) of the same name, whose explanation this
    /// failure shares ([`ValidationErrorKind::failure_kind`] the other way). `None` for
    /// `base-URL-invalid` and this library's own limits, which are no validation errors.
    ///
    /// ```
    /// use rapidurl::{ErrorKind, ValidationErrorKind};
    /// assert_eq!(ErrorKind::PortInvalid.validation_error(), Some(ValidationErrorKind::PortInvalid));
    /// assert_eq!(ErrorKind::InvalidBase.validation_error(), None);
    /// ```
    pub const fn validation_error(self) -> Option<ValidationErrorKind> {
        use ValidationErrorKind as V;
        Some(match self {
            ErrorKind::DomainToAscii => V::DomainToAscii,
            ErrorKind::DomainInvalidCodePoint => V::DomainInvalidCodePoint,
            ErrorKind::HostInvalidCodePoint => V::HostInvalidCodePoint,
            ErrorKind::Ipv4TooManyParts => V::Ipv4TooManyParts,
            ErrorKind::Ipv4NonNumericPart => V::Ipv4NonNumericPart,
            ErrorKind::Ipv4OutOfRangePart => V::Ipv4OutOfRangePart,
            ErrorKind::Ipv6Unclosed => V::Ipv6Unclosed,
            ErrorKind::Ipv6InvalidCompression => V::Ipv6InvalidCompression,
            ErrorKind::Ipv6TooManyPieces => V::Ipv6TooManyPieces,
            ErrorKind::Ipv6MultipleCompression => V::Ipv6MultipleCompression,
            ErrorKind::Ipv6InvalidCodePoint => V::Ipv6InvalidCodePoint,
            ErrorKind::Ipv6TooFewPieces => V::Ipv6TooFewPieces,
            ErrorKind::Ipv4InIpv6TooManyPieces => V::Ipv4InIpv6TooManyPieces,
            ErrorKind::Ipv4InIpv6InvalidCodePoint => V::Ipv4InIpv6InvalidCodePoint,
            ErrorKind::Ipv4InIpv6OutOfRangePart => V::Ipv4InIpv6OutOfRangePart,
            ErrorKind::Ipv4InIpv6TooFewParts => V::Ipv4InIpv6TooFewParts,
            ErrorKind::MissingSchemeNonRelativeUrl => V::MissingSchemeNonRelativeUrl,
            ErrorKind::HostMissing => V::HostMissing,
            ErrorKind::PortOutOfRange => V::PortOutOfRange,
            ErrorKind::PortInvalid => V::PortInvalid,
            ErrorKind::InvalidBase | ErrorKind::InputTooLong => return None,
        })
    }
}

impl fmt::Display for ValidationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One validation error: its kind, where in the input the reporting step was looking,
/// and whether it is the one that made parsing fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValidationError {
    kind: ValidationErrorKind,
    offset: usize,
    failure: bool,
}

impl ValidationError {
    /// The kind of error.
    pub const fn kind(&self) -> ValidationErrorKind {
        self.kind
    }

    /// The Standard's name, e.g. `"invalid-credentials"`.
    pub const fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The byte offset into the input (as given, before trimming) where the reporting
    /// step was looking: the code point it was on, or for a host's errors the start of
    /// the host.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Whether this is the error that made parsing fail (then it is the last one).
    pub const fn is_failure(&self) -> bool {
        self.failure
    }

    /// A one-line explanation, for people.
    pub const fn description(&self) -> &'static str {
        self.kind.description()
    }
}

impl fmt::Display for ValidationError {
    /// `name at byte N: explanation`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.name(),
            self.offset,
            self.description()
        )
    }
}

/// What the state machine tells about validation errors. [`Silent`] ignores them and
/// compiles away; [`Collect`] records them.
pub(crate) trait Report {
    /// Whether reports are wanted: steps that only exist to find validation errors are
    /// guarded by it, so that they vanish from the ordinary parse.
    const ENABLED: bool;
    /// `kind` was met at byte `at` of the (trimmed, tab-and-newline-free) input.
    fn report(&mut self, kind: ValidationErrorKind, at: usize);

    /// The basic URL parser's steps 1–3 stripped `lead` and `trail` bytes of C0 control
    /// or space from `input` and are removing its tabs and newlines: report what they
    /// report and remember how offsets map back.
    fn cleaned(&mut self, _input: &str, _lead: usize, _trail: usize) {}
}

/// The reporter of the ordinary parse: nothing is collected.
pub(crate) struct Silent;

impl Report for Silent {
    const ENABLED: bool = false;
    #[inline(always)]
    fn report(&mut self, _kind: ValidationErrorKind, _at: usize) {}
}

/// Collects reports with offsets into the cleaned input, and the facts needed to map
/// them back to the caller's input.
#[derive(Default)]
pub(crate) struct Collect {
    /// Kind, offset, and whether the offset is already one into the caller's input.
    errors: Vec<(ValidationErrorKind, usize, bool)>,
    /// Bytes stripped from the start of the input (leading C0 control or space).
    pub(crate) lead: usize,
    /// Where tabs and newlines were removed: their offsets in the caller's input, sorted.
    pub(crate) removed: Vec<usize>,
}

impl Collect {
    /// Records an error whose offset is already one into the caller's input (the steps
    /// that run before the input is cleaned).
    pub(crate) fn report_raw(&mut self, kind: ValidationErrorKind, at: usize) {
        self.errors.push((kind, at, true));
    }

    /// The errors with offsets into the caller's input; when the parse `failed`, the last
    /// one is flagged as the failure. Every failure the Standard's steps name reports its
    /// error first; this library's own limits (`input-too-long`) have no validation
    /// error, so nothing is flagged then.
    pub(crate) fn finish(self, input: &str, failed: bool) -> Vec<ValidationError> {
        let mut errors: Vec<ValidationError> = self
            .errors
            .iter()
            .map(|&(kind, at, raw)| {
                let offset = if raw {
                    at
                } else {
                    original_offset(self.lead, &self.removed, at)
                };
                ValidationError {
                    kind,
                    offset: offset.min(input.len()),
                    failure: false,
                }
            })
            .collect();
        if failed && let Some(last) = errors.last_mut() {
            last.failure = true;
        }
        errors
    }
}

impl Report for Collect {
    const ENABLED: bool = true;
    fn report(&mut self, kind: ValidationErrorKind, at: usize) {
        self.errors.push((kind, at, false));
    }

    fn cleaned(&mut self, input: &str, lead: usize, trail: usize) {
        if lead > 0 || trail > 0 {
            let at = if lead > 0 { 0 } else { input.len() - trail };
            self.report_raw(ValidationErrorKind::InvalidUrlUnit, at);
        }
        self.lead = lead;
        self.removed = input.as_bytes()[lead..input.len() - trail]
            .iter()
            .enumerate()
            .filter(|(_, b)| matches!(b, b'\t' | b'\n' | b'\r'))
            .map(|(i, _)| lead + i)
            .collect();
        if let Some(&first) = self.removed.first() {
            self.report_raw(ValidationErrorKind::InvalidUrlUnit, first);
        }
    }
}

/// The offset in the caller's input of byte `at` of the cleaned input, given the bytes
/// stripped at the start and the sorted offsets of removed tabs and newlines. The `j`-th
/// removed byte has `removed[j] - lead - j` kept bytes before it, a non-decreasing count:
/// the kept byte `at` comes after exactly those with at most `at` (binary search, so
/// that many errors on a long line cost `O(n log n)`, not `O(n²)`).
fn original_offset(lead: usize, removed: &[usize], at: usize) -> usize {
    let (mut lo, mut hi) = (0, removed.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if removed[mid] - lead - mid <= at {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lead + at + lo
}

/// A URL code point (§4.3): ASCII alphanumerics, `!$&'()*+,-./:;=?@_~`, and code points
/// from U+00A0 to U+10FFFD excluding surrogates and noncharacters.
#[inline]
pub(crate) fn is_url_code_point(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "!$&'()*+,-./:;=?@_~".contains(c);
    }
    let u = c as u32;
    (0xA0..=0x10FFFD).contains(&u) && !is_noncharacter(u)
}

/// A noncharacter (Infra): U+FDD0 to U+FDEF, and the last two code points of each plane.
#[inline]
fn is_noncharacter(u: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&u) || (u & 0xFFFE) == 0xFFFE
}

/// Whether a percent-encoded byte (`%` and two hex digits) starts at `i`.
#[inline]
pub(crate) fn percent_encoded_byte_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i) == Some(&b'%')
        && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
}

/// Reports `invalid-URL-unit` for each code point of `text` that is not a URL code point
/// and for each `%` not followed by two hex digits, in order (the URL-unit check of the
/// path, opaque-path, query and fragment states). `base` is the offset of `text` in the
/// cleaned input. (The Standard's `%` check reads the remaining input, not the component,
/// but every component ends at a delimiter or at the end, and no delimiter is a hex digit.)
pub(crate) fn report_url_units<R: Report>(r: &mut R, text: &str, base: usize) {
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        let bad = if c == '%' {
            !percent_encoded_byte_at(bytes, i)
        } else {
            !is_url_code_point(c)
        };
        if bad {
            r.report(ValidationErrorKind::InvalidUrlUnit, base + i);
        }
    }
}

/// The opaque-host parser's URL-unit check: one `invalid-URL-unit` if any code point is
/// not a URL code point (other than `%`), one more if any `%` is not followed by two hex
/// digits, both at `at`.
pub(crate) fn report_url_units_once<R: Report>(r: &mut R, text: &str, at: usize) {
    let bytes = text.as_bytes();
    if text.chars().any(|c| c != '%' && !is_url_code_point(c)) {
        r.report(ValidationErrorKind::InvalidUrlUnit, at);
    }
    if text
        .bytes()
        .enumerate()
        .any(|(i, b)| b == b'%' && !percent_encoded_byte_at(bytes, i))
    {
        r.report(ValidationErrorKind::InvalidUrlUnit, at);
    }
}

impl<R: Report> Report for &mut R {
    const ENABLED: bool = R::ENABLED;
    #[inline(always)]
    fn report(&mut self, kind: ValidationErrorKind, at: usize) {
        (**self).report(kind, at);
    }

    fn cleaned(&mut self, input: &str, lead: usize, trail: usize) {
        (**self).cleaned(input, lead, trail);
    }
}

/// The validation error a failure of this kind adds to the list, if any. None when the
/// step that found it already reported it: the domain parser's failures (its strict pass
/// reported `domain-to-ASCII`, and the reference implementation adds nothing when the
/// lenient pass then fails) and an IPv4 part out of range (reported once for all parts
/// before the failure is decided). None too for this library's own limits, which are no
/// validation errors.
pub(crate) fn failure_report(kind: ErrorKind) -> Option<ValidationErrorKind> {
    match kind {
        ErrorKind::DomainToAscii
        | ErrorKind::DomainInvalidCodePoint
        | ErrorKind::Ipv4OutOfRangePart => None,
        _ => kind.validation_error(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_back_over_removed_bytes() {
        // "  a\tb\nc": lead 2, removed at 3 and 5; cleaned "abc".
        let removed = [3, 5];
        assert_eq!(original_offset(2, &removed, 0), 2);
        assert_eq!(original_offset(2, &removed, 1), 4);
        assert_eq!(original_offset(2, &removed, 2), 6);
        assert_eq!(original_offset(0, &[], 7), 7);
        // Two removed bytes in a row: "a\t\nb" → cleaned "ab".
        assert_eq!(original_offset(0, &[1, 2], 1), 3);
    }

    #[test]
    fn url_code_points() {
        for c in ['a', 'Z', '0', '!', '~', '\u{A0}', 'ä', '\u{10FFFD}'] {
            assert!(is_url_code_point(c), "{c:?}");
        }
        for c in [
            ' ',
            '"',
            '<',
            '`',
            '{',
            '%',
            '\u{7F}',
            '\u{9F}',
            '\u{FDD0}',
            '\u{FFFF}',
            '\u{10FFFF}',
        ] {
            assert!(!is_url_code_point(c), "{c:?}");
        }
    }
}
