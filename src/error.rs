//! Errors: every failure is named by the URL Standard's validation-error name.
//!
//! The Standard (§1.1) lists validation errors, some of which make the parser return
//! failure. [`ParseError`] carries the kind of the failure that ended parsing, and the byte
//! offset in the input where it was found when one applies.

use std::fmt;

/// Why a URL (or a host, or a domain) could not be parsed.
///
/// Each variant is one of the URL Standard's failure-causing validation errors (§1.1),
/// plus a few that are this library's own limits. [`ErrorKind::name`] gives the
/// Standard's name, e.g. `"port-out-of-range"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `domain-to-ASCII`: Unicode ToASCII failed, or returned the empty string.
    DomainToAscii,
    /// `domain-invalid-code-point`: the domain, after ToASCII, holds a forbidden domain code point.
    DomainInvalidCodePoint,
    /// `host-invalid-code-point`: an opaque host holds a forbidden host code point.
    HostInvalidCodePoint,
    /// `IPv4-too-many-parts`: an IPv4 address with more than four parts.
    Ipv4TooManyParts,
    /// `IPv4-non-numeric-part`: a part of an IPv4 address is not a number.
    Ipv4NonNumericPart,
    /// `IPv4-out-of-range-part`: a part of an IPv4 address is too large.
    Ipv4OutOfRangePart,
    /// `IPv6-unclosed`: `[` without a closing `]`.
    Ipv6Unclosed,
    /// `IPv6-invalid-compression`: an IPv6 address starts with a single `:`.
    Ipv6InvalidCompression,
    /// `IPv6-too-many-pieces`: an IPv6 address with more than eight pieces.
    Ipv6TooManyPieces,
    /// `IPv6-multiple-compression`: more than one `::` in an IPv6 address.
    Ipv6MultipleCompression,
    /// `IPv6-invalid-code-point`: a code point that has no place in an IPv6 address.
    Ipv6InvalidCodePoint,
    /// `IPv6-too-few-pieces`: an uncompressed IPv6 address with fewer than eight pieces.
    Ipv6TooFewPieces,
    /// `IPv4-in-IPv6-too-many-pieces`: an embedded IPv4 address after more than six pieces.
    Ipv4InIpv6TooManyPieces,
    /// `IPv4-in-IPv6-invalid-code-point`: an embedded IPv4 address is malformed.
    Ipv4InIpv6InvalidCodePoint,
    /// `IPv4-in-IPv6-out-of-range-part`: a part of an embedded IPv4 address exceeds 255.
    Ipv4InIpv6OutOfRangePart,
    /// `IPv4-in-IPv6-too-few-parts`: an embedded IPv4 address with fewer than four parts.
    Ipv4InIpv6TooFewParts,
    /// `missing-scheme-non-relative-URL`: no scheme, and no base URL to resolve against
    /// (or a base with an opaque path).
    MissingSchemeNonRelativeUrl,
    /// `host-missing`: a special URL, or one with credentials or a port, has no host.
    HostMissing,
    /// `port-out-of-range`: the port is greater than 65535.
    PortOutOfRange,
    /// `port-invalid`: the port holds something other than ASCII digits.
    PortInvalid,
    /// The base URL given as a string could not itself be parsed.
    InvalidBase,
    /// The input is longer than the `u32` offsets of [`crate::Components`] can address
    /// (4 GiB less one byte). Not a Standard error: a limit of this library.
    InputTooLong,
}

impl ErrorKind {
    /// The validation-error name the URL Standard uses for this failure
    /// (or, for this library's own limits, a name in the same style).
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::DomainToAscii => "domain-to-ASCII",
            ErrorKind::DomainInvalidCodePoint => "domain-invalid-code-point",
            ErrorKind::HostInvalidCodePoint => "host-invalid-code-point",
            ErrorKind::Ipv4TooManyParts => "IPv4-too-many-parts",
            ErrorKind::Ipv4NonNumericPart => "IPv4-non-numeric-part",
            ErrorKind::Ipv4OutOfRangePart => "IPv4-out-of-range-part",
            ErrorKind::Ipv6Unclosed => "IPv6-unclosed",
            ErrorKind::Ipv6InvalidCompression => "IPv6-invalid-compression",
            ErrorKind::Ipv6TooManyPieces => "IPv6-too-many-pieces",
            ErrorKind::Ipv6MultipleCompression => "IPv6-multiple-compression",
            ErrorKind::Ipv6InvalidCodePoint => "IPv6-invalid-code-point",
            ErrorKind::Ipv6TooFewPieces => "IPv6-too-few-pieces",
            ErrorKind::Ipv4InIpv6TooManyPieces => "IPv4-in-IPv6-too-many-pieces",
            ErrorKind::Ipv4InIpv6InvalidCodePoint => "IPv4-in-IPv6-invalid-code-point",
            ErrorKind::Ipv4InIpv6OutOfRangePart => "IPv4-in-IPv6-out-of-range-part",
            ErrorKind::Ipv4InIpv6TooFewParts => "IPv4-in-IPv6-too-few-parts",
            ErrorKind::MissingSchemeNonRelativeUrl => "missing-scheme-non-relative-URL",
            ErrorKind::HostMissing => "host-missing",
            ErrorKind::PortOutOfRange => "port-out-of-range",
            ErrorKind::PortInvalid => "port-invalid",
            ErrorKind::InvalidBase => "base-URL-invalid",
            ErrorKind::InputTooLong => "input-too-long",
        }
    }

    /// A one-line description of the failure, for people: also the explanation of the
    /// validation error of the same name
    /// ([`ValidationErrorKind::description`](crate::ValidationErrorKind::description)), so
    /// that `rapidurl check` and `rapidurl lint` word an error alike.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorKind::DomainToAscii => "the domain is not valid under UTS #46 ToASCII (strict)",
            ErrorKind::DomainInvalidCodePoint => "the domain holds a forbidden domain code point",
            ErrorKind::HostInvalidCodePoint => "the host holds a forbidden host code point",
            ErrorKind::Ipv4TooManyParts => "the IPv4 address has more than four parts",
            ErrorKind::Ipv4NonNumericPart => "a part of the IPv4 address is not a number",
            ErrorKind::Ipv4OutOfRangePart => "a part of the IPv4 address exceeds 255",
            ErrorKind::Ipv6Unclosed => "the IPv6 address is missing its closing ']'",
            ErrorKind::Ipv6InvalidCompression => "the IPv6 address begins with a single ':'",
            ErrorKind::Ipv6TooManyPieces => "the IPv6 address has more than eight pieces",
            ErrorKind::Ipv6MultipleCompression => "the IPv6 address has more than one '::'",
            ErrorKind::Ipv6InvalidCodePoint => {
                "the IPv6 address holds an unexpected code point or ends early"
            }
            ErrorKind::Ipv6TooFewPieces => "the IPv6 address has fewer than eight pieces",
            ErrorKind::Ipv4InIpv6TooManyPieces => {
                "the IPv6 address has more than six pieces before its embedded IPv4 address"
            }
            ErrorKind::Ipv4InIpv6InvalidCodePoint => {
                "the IPv4 address embedded in the IPv6 address is malformed"
            }
            ErrorKind::Ipv4InIpv6OutOfRangePart => {
                "a part of the IPv4 address embedded in the IPv6 address exceeds 255"
            }
            ErrorKind::Ipv4InIpv6TooFewParts => {
                "the IPv4 address embedded in the IPv6 address has fewer than four parts"
            }
            ErrorKind::MissingSchemeNonRelativeUrl => {
                "the input has no scheme and there is no usable base URL"
            }
            ErrorKind::HostMissing => "the URL requires a host but has none",
            ErrorKind::PortOutOfRange => "the port is greater than 65535",
            ErrorKind::PortInvalid => "the port contains a character that is not a digit",
            ErrorKind::InvalidBase => "the base URL could not be parsed",
            ErrorKind::InputTooLong => "the input is longer than 4 GiB - 1 bytes",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A URL, host or domain that could not be parsed.
///
/// `Display` gives the Standard's validation-error name, a description and, where one
/// applies, the offset in the input where the problem was found:
/// `port-out-of-range at byte 19: the port is greater than 65535` (`at UTF-16 code unit
/// 19` for errors of [`Url::parse_utf16`](crate::Url::parse_utf16)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    kind: ErrorKind,
    offset: Option<u32>,
    /// Whether `offset` counts UTF-16 code units (else bytes).
    utf16: bool,
}

impl ParseError {
    /// An error of `kind` with no position.
    pub const fn new(kind: ErrorKind) -> Self {
        ParseError {
            kind,
            offset: None,
            utf16: false,
        }
    }

    /// An error of `kind` found at byte `offset` of the input.
    pub const fn at(kind: ErrorKind, offset: usize) -> Self {
        let offset = if offset > u32::MAX as usize {
            u32::MAX
        } else {
            offset as u32
        };
        ParseError {
            kind,
            offset: Some(offset),
            utf16: false,
        }
    }

    /// The same error, placed at `offset` unless it already has a position.
    pub(crate) const fn or_at(self, offset: usize) -> Self {
        match self.offset {
            Some(_) => self,
            None => ParseError::at(self.kind, offset),
        }
    }

    /// The same error placed at `offset` if it has a position: for an error found in a
    /// transformed copy of a component (percent-decoded, mapped to ASCII), whose positions
    /// are not the input's, `offset` being where that component starts.
    pub(crate) const fn moved_to(self, offset: usize) -> Self {
        match self.offset {
            Some(_) => ParseError::at(self.kind, offset),
            None => self,
        }
    }

    /// The same error with its offset moved forward by `delta` (used when a component
    /// parser reports an offset relative to the start of that component).
    pub(crate) const fn shifted(self, delta: usize) -> Self {
        match self.offset {
            Some(o) => ParseError::at(self.kind, o as usize + delta),
            None => self,
        }
    }

    /// The same error with its offset, found in `String::from_utf8_lossy(raw)`, moved to
    /// the matching byte of `raw`: each U+FFFD that replaced an invalid sequence stands for
    /// that sequence (an offset inside it means its first byte).
    pub fn in_raw_utf8(self, raw: &[u8]) -> Self {
        let Some(decoded) = self.offset() else {
            return self;
        };
        let (mut dec, mut orig) = (0usize, 0usize);
        for chunk in raw.utf8_chunks() {
            let valid = chunk.valid().len();
            if decoded < dec + valid {
                return ParseError::at(self.kind, orig + (decoded - dec));
            }
            dec += valid;
            orig += valid;
            if !chunk.invalid().is_empty() {
                if decoded < dec + char::REPLACEMENT_CHARACTER.len_utf8() {
                    return ParseError::at(self.kind, orig);
                }
                dec += char::REPLACEMENT_CHARACTER.len_utf8();
                orig += chunk.invalid().len();
            }
        }
        ParseError::at(self.kind, orig + decoded.saturating_sub(dec))
    }

    /// The same error with its offset, a byte offset into `decoded` (the UTF-8 form of some
    /// UTF-16 input, one U+FFFD per lone surrogate), counted in UTF-16 code units instead.
    pub(crate) fn in_utf16_units(self, decoded: &str) -> Self {
        let Some(byte) = self.offset() else {
            return self;
        };
        let units: usize = decoded
            .char_indices()
            .take_while(|&(i, _)| i < byte)
            .map(|(_, c)| c.len_utf16())
            .sum();
        let past_end = byte.saturating_sub(decoded.len());
        ParseError {
            utf16: true,
            ..ParseError::at(self.kind, units + past_end)
        }
    }

    /// What went wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The Standard's validation-error name, e.g. `"IPv6-unclosed"`.
    pub const fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Where in the input the problem was found, when one applies: a byte offset from the
    /// start of the string given to the parser (leading C0 control or space and removed
    /// tabs or newlines count). [`Url::parse_bytes`](crate::Url::parse_bytes) and the batch
    /// engine's lines count bytes of the raw input, [`Url::parse_utf16`](crate::Url::parse_utf16)
    /// UTF-16 code units.
    pub const fn offset(&self) -> Option<usize> {
        match self.offset {
            Some(o) => Some(o as usize),
            None => None,
        }
    }
}

impl From<ErrorKind> for ParseError {
    fn from(kind: ErrorKind) -> Self {
        ParseError::new(kind)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(
                f,
                "{} at {} {}: {}",
                self.kind.name(),
                if self.utf16 {
                    "UTF-16 code unit"
                } else {
                    "byte"
                },
                o,
                self.kind.description()
            ),
            None => write!(f, "{}: {}", self.kind.name(), self.kind.description()),
        }
    }
}

impl std::error::Error for ParseError {}
