//! The `url` crate's error and syntax-violation types, and the mapping from rapidurl's
//! failures (the URL Standard's names) to them.

use rapidurl::ErrorKind;
use std::fmt;

/// Why a URL could not be parsed.
///
/// The `url` crate's variants and messages; each of the URL Standard's failures maps to
/// one of them (a special URL's bad domain is [`ParseError::IdnaError`]).
///
/// This may be extended in the future, so exhaustive matching is forbidden.
#[derive(PartialEq, Eq, Clone, Copy, Debug)]
#[non_exhaustive]
pub enum ParseError {
    /// A special URL (or one with credentials or a port) has an empty host.
    EmptyHost,
    /// A special URL's domain failed UTS #46 processing or holds a forbidden code point.
    IdnaError,
    /// The port is not a number, or exceeds 65535.
    InvalidPort,
    /// A host that ends in a number is not a valid IPv4 address.
    InvalidIpv4Address,
    /// A host in brackets is not a valid IPv6 address.
    InvalidIpv6Address,
    /// An opaque host holds a forbidden host code point.
    InvalidDomainCharacter,
    /// The input has no scheme and no base URL was given.
    RelativeUrlWithoutBase,
    /// The input has no scheme and the base URL cannot be a base (has an opaque path).
    RelativeUrlWithCannotBeABaseBase,
    /// `set_host` on a URL that cannot be a base.
    SetHostOnCannotBeABaseUrl,
    /// The URL would be longer than 4 GiB.
    Overflow,
}

impl ParseError {
    fn message(self) -> &'static str {
        match self {
            ParseError::EmptyHost => "empty host",
            ParseError::IdnaError => "invalid international domain name",
            ParseError::InvalidPort => "invalid port number",
            ParseError::InvalidIpv4Address => "invalid IPv4 address",
            ParseError::InvalidIpv6Address => "invalid IPv6 address",
            ParseError::InvalidDomainCharacter => "invalid domain character",
            ParseError::RelativeUrlWithoutBase => "relative URL without a base",
            ParseError::RelativeUrlWithCannotBeABaseBase => {
                "relative URL with a cannot-be-a-base base"
            }
            ParseError::SetHostOnCannotBeABaseUrl => {
                "a cannot-be-a-base URL doesn\u{2019}t have a host to set"
            }
            ParseError::Overflow => "URLs more than 4 GB are not supported",
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ParseError {}

/// A non-fatal syntax violation found while parsing, reported to the callback of
/// [`crate::ParseOptions::syntax_violation_callback`].
///
/// Each is one of the URL Standard's validation errors (rapidurl reports them by name),
/// told apart as the `url` crate tells them apart.
///
/// This may be extended in the future, so exhaustive matching is forbidden.
#[derive(PartialEq, Eq, Clone, Copy, Debug)]
#[non_exhaustive]
pub enum SyntaxViolation {
    /// `\` where a `/` belongs.
    Backslash,
    /// Leading or trailing C0 controls or spaces, removed.
    C0SpaceIgnored,
    /// The URL holds a username or password.
    EmbeddedCredentials,
    /// A special scheme not followed by `//`.
    ExpectedDoubleSlash,
    /// `file:` not followed by `//`.
    ExpectedFileDoubleSlash,
    /// A `file:` URL with a host and a Windows drive letter.
    FileWithHostAndWindowsDrive,
    /// A code point that is not a URL code point.
    NonUrlCodePoint,
    /// A NUL in the fragment.
    NullInFragment,
    /// A `%` not followed by two hexadecimal digits.
    PercentDecode,
    /// Tabs or newlines, removed.
    TabOrNewlineIgnored,
    /// A second `@` in the userinfo.
    UnencodedAtSign,
}

impl SyntaxViolation {
    /// The violation's description, as the `url` crate words it.
    pub fn description(&self) -> &'static str {
        match self {
            SyntaxViolation::Backslash => "backslash",
            SyntaxViolation::C0SpaceIgnored => {
                "leading or trailing control or space character are ignored in URLs"
            }
            SyntaxViolation::EmbeddedCredentials => {
                "embedding authentication information (username or password) in an URL is not recommended"
            }
            SyntaxViolation::ExpectedDoubleSlash => "expected //",
            SyntaxViolation::ExpectedFileDoubleSlash => "expected // after file:",
            SyntaxViolation::FileWithHostAndWindowsDrive => "file: with host and Windows drive letter",
            SyntaxViolation::NonUrlCodePoint => "non-URL code point",
            SyntaxViolation::NullInFragment => {
                "NULL characters are ignored in URL fragment identifiers"
            }
            SyntaxViolation::PercentDecode => "expected 2 hex digits after %",
            SyntaxViolation::TabOrNewlineIgnored => "tabs or newlines are ignored in URLs",
            SyntaxViolation::UnencodedAtSign => "unencoded @ sign in username or password",
        }
    }
}

impl fmt::Display for SyntaxViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.description(), f)
    }
}

/// The `url` crate's error for a rapidurl failure. `opaque_host` says whether a host
/// failure was in a non-special URL's host; `opaque_base` whether the base given cannot
/// be a base.
pub(crate) fn map_error(
    e: &rapidurl::ParseError,
    opaque_host: bool,
    opaque_base: bool,
) -> ParseError {
    match e.kind() {
        ErrorKind::DomainToAscii | ErrorKind::DomainInvalidCodePoint => ParseError::IdnaError,
        ErrorKind::HostInvalidCodePoint => {
            if opaque_host {
                ParseError::InvalidDomainCharacter
            } else {
                ParseError::IdnaError
            }
        }
        ErrorKind::Ipv4TooManyParts
        | ErrorKind::Ipv4NonNumericPart
        | ErrorKind::Ipv4OutOfRangePart => ParseError::InvalidIpv4Address,
        ErrorKind::Ipv6Unclosed
        | ErrorKind::Ipv6InvalidCompression
        | ErrorKind::Ipv6TooManyPieces
        | ErrorKind::Ipv6MultipleCompression
        | ErrorKind::Ipv6InvalidCodePoint
        | ErrorKind::Ipv6TooFewPieces
        | ErrorKind::Ipv4InIpv6TooManyPieces
        | ErrorKind::Ipv4InIpv6InvalidCodePoint
        | ErrorKind::Ipv4InIpv6OutOfRangePart
        | ErrorKind::Ipv4InIpv6TooFewParts => ParseError::InvalidIpv6Address,
        ErrorKind::MissingSchemeNonRelativeUrl => {
            if opaque_base {
                ParseError::RelativeUrlWithCannotBeABaseBase
            } else {
                ParseError::RelativeUrlWithoutBase
            }
        }
        ErrorKind::HostMissing => ParseError::EmptyHost,
        ErrorKind::PortOutOfRange | ErrorKind::PortInvalid => ParseError::InvalidPort,
        ErrorKind::InputTooLong => ParseError::Overflow,
        _ => ParseError::RelativeUrlWithoutBase,
    }
}
