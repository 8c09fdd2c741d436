//! Parsing with options, and the `url` crate's error and syntax-violation types mapped
//! from rapidurl's validation errors (the URL Standard's names).

use crate::Url;
use form_urlencoded::EncodingOverride;
use rapidurl::{ErrorKind, ValidationError, ValidationErrorKind};
use std::fmt;
use std::ops::Range;

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

/// The error of a failed parse of `input`: which host kind failed is read from the
/// input's scheme (or the base's, for a relative input).
pub(crate) fn parse_error(e: &rapidurl::ParseError, input: &str, base: Option<&Url>) -> ParseError {
    let special = match scheme_of(input) {
        Some(scheme) => scheme.special,
        None => base.is_some_and(|b| b.is_special()),
    };
    map_error(e, !special, base.is_some_and(Url::cannot_be_a_base))
}

/// What [`scheme_of`] tells of an input's scheme.
#[derive(Clone, Copy)]
struct Scheme {
    special: bool,
    file: bool,
}

/// Whether `input` starts with a scheme and `:` (read as the scheme state reads it, after
/// leading C0 controls and spaces, skipping tabs and newlines), and what kind.
fn scheme_of(input: &str) -> Option<Scheme> {
    let mut name = [0u8; 5];
    let (mut n, mut long) = (0, false);
    for &b in input.trim_start_matches(|c: char| c <= ' ').as_bytes() {
        match b {
            b'\t' | b'\n' | b'\r' => {}
            b':' if n > 0 => {
                let name = &name[..n];
                return Some(Scheme {
                    special: !long
                        && matches!(name, b"http" | b"https" | b"ws" | b"wss" | b"ftp" | b"file"),
                    file: !long && name == b"file",
                });
            }
            _ if (n == 0 && b.is_ascii_alphabetic())
                || (n > 0 && (b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))) =>
            {
                if n < name.len() {
                    name[n] = b.to_ascii_lowercase();
                    n += 1;
                } else {
                    long = true;
                }
            }
            _ => return None,
        }
    }
    None
}

/// Parses `input` with the options of a [`crate::ParseOptions`].
pub(crate) fn parse_with(
    input: &str,
    base: Option<&Url>,
    encoding: EncodingOverride<'_>,
    violations: Option<&dyn Fn(SyntaxViolation)>,
) -> Result<Url, ParseError> {
    let result = match violations {
        None => match base {
            None => rapidurl::Url::parse(input),
            Some(b) => rapidurl::Url::parse_with_base(input, &b.inner),
        },
        Some(report) => {
            let (result, errors) = match base {
                None => rapidurl::parse_with_validation_errors(input),
                Some(b) => rapidurl::parse_with_validation_errors_with_base(input, &b.inner),
            };
            let special = scheme_of(input).map_or(base.is_some_and(Url::is_special), |s| s.special);
            let no_scheme = result
                .as_ref()
                .is_err_and(|e| e.kind() == ErrorKind::MissingSchemeNonRelativeUrl);
            let drive = result.as_ref().is_ok_and(drive_letter_after_host);
            report_violations(input, &errors, special, no_scheme, drive, report);
            result
        }
    };
    let url = match result {
        Ok(inner) => Url { inner },
        Err(e) => return Err(parse_error(&e, input, base)),
    };
    match encoding {
        Some(encode) => Ok(encode_query(url, input, encode)),
        None => Ok(url),
    }
}

/// The query of a special URL (but `ws:` and `wss:`) encoded with `encode` instead of
/// UTF-8, as the Standard's query state does with an encoding override: the query text
/// of the input, with tabs and newlines removed, converted to bytes and percent-encoded.
/// A query inherited from the base is left as it is.
fn encode_query(url: Url, input: &str, encode: &dyn Fn(&str) -> std::borrow::Cow<'_, [u8]>) -> Url {
    if !matches!(url.scheme(), "http" | "https" | "ftp" | "file") || url.query().is_none() {
        return url;
    }
    let cleaned: String = input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let Some(q) = cleaned.find('?') else {
        return url;
    };
    let raw = &cleaned[q + 1..];
    let raw = &raw[..raw.find('#').unwrap_or(raw.len())];
    let bytes = encode(raw);
    let s = url.as_str();
    let start = url.inner.components().query_start().unwrap_or(0) as usize + 1;
    let end = url
        .inner
        .components()
        .fragment_start()
        .map_or(s.len(), |f| f as usize);
    let mut out = String::with_capacity(s.len() + bytes.len() * 3);
    out.push_str(&s[..start]);
    for &b in bytes.iter() {
        if rapidurl::percent::SPECIAL_QUERY.contains(b) || b >= 0x80 {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b & 15)]));
        } else {
            out.push(char::from(b));
        }
    }
    out.push_str(&s[end..]);
    Url::reparse(&out).unwrap_or(url)
}

/// A `file:` URL with a host whose path starts with a Windows drive letter
/// (`file://host/c:/x`): the Standard keeps the host and reports nothing, the `url`
/// crate reports this violation.
fn drive_letter_after_host(url: &rapidurl::Url) -> bool {
    let path = url.pathname().as_bytes();
    url.scheme() == "file"
        && !url.hostname().is_empty()
        && path.len() >= 3
        && path[1].is_ascii_alphabetic()
        && matches!(path[2], b':' | b'|')
        && matches!(path.get(3), None | Some(b'/'))
}

/// Where the userinfo and the host of `input`'s authority are, as byte ranges of the
/// input, when it has an authority (read as the authority states read it).
fn authority_spans(input: &str, special: bool) -> Option<(Range<usize>, Range<usize>)> {
    let b = input.as_bytes();
    let is_tab = |c: u8| matches!(c, b'\t' | b'\n' | b'\r');
    let lead = b.iter().take_while(|&&c| c <= b' ').count();
    let trail = b.len() - b.iter().rev().take_while(|&&c| c <= b' ').count();
    let mut i = lead;
    // The scheme and its `:`.
    if b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        let mut j = i + 1;
        while j < trail
            && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'+' | b'-' | b'.') || is_tab(b[j]))
        {
            j += 1;
        }
        if b.get(j) == Some(&b':') {
            i = j + 1;
        }
    }
    let slash = |c: u8| c == b'/' || (special && c == b'\\');
    // A special scheme but `file:` skips any number of slashes before its authority; a
    // `file:` URL and a non-special one have one after exactly two.
    let file = b[lead..i].eq_ignore_ascii_case(b"file:");
    let any_slashes = special && !file && i > lead;
    let mut slashes = 0;
    while i < trail && (slash(b[i]) || is_tab(b[i])) && (any_slashes || slashes < 2) {
        slashes += usize::from(!is_tab(b[i]));
        i += 1;
    }
    if slashes < 2 && !any_slashes {
        return None;
    }
    let end = (i..trail)
        .find(|&k| matches!(b[k], b'/' | b'?' | b'#') || (special && b[k] == b'\\'))
        .unwrap_or(trail);
    match b[i..end].iter().rposition(|&c| c == b'@') {
        Some(at) => Some((i..i + at, i + at + 1..end)),
        None => Some((i..i, i..end)),
    }
}

/// Whether `c` is a URL code point (URL Standard §4.2).
fn is_url_code_point(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "!$&'()*+,-./:;=?@_~".contains(c);
    }
    let n = u32::from(c);
    !((0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE)
}

/// The violations the `url` crate reports for a userinfo's code points: a `%` without
/// two hexadecimal digits, and a code point that is not a URL code point.
fn userinfo_violations(userinfo: &str, report: &dyn Fn(SyntaxViolation)) {
    let chars: Vec<char> = userinfo
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    for (k, &c) in chars.iter().enumerate() {
        if c == '%' {
            let hex = |d: Option<&char>| d.is_some_and(char::is_ascii_hexdigit);
            if !(hex(chars.get(k + 1)) && hex(chars.get(k + 2))) {
                report(SyntaxViolation::PercentDecode);
            }
        } else if !is_url_code_point(c) {
            report(SyntaxViolation::NonUrlCodePoint);
        }
    }
}

/// Reports each validation error of a parse to `report` as the `url` crate's violation,
/// as that crate reports them: the userinfo's code points after its `@`s, none for a
/// host's code points, and only the input's own (trimmed, tabs) when the input has no
/// scheme to parse.
fn report_violations(
    input: &str,
    errors: &[ValidationError],
    special: bool,
    no_scheme: bool,
    drive_after_host: bool,
    report: &dyn Fn(SyntaxViolation),
) {
    let bytes = input.as_bytes();
    let lead = bytes.iter().take_while(|&&b| b <= b' ').count();
    let trail = bytes.len() - bytes.iter().rev().take_while(|&&b| b <= b' ').count();
    let hash = input.find('#');
    let (mut trimmed_seen, mut tab_seen, mut at_seen) = (false, false, false);
    let mut slashes_seen = false;
    let spans = authority_spans(input, special);
    let last_at = errors
        .iter()
        .rposition(|e| e.kind() == ValidationErrorKind::InvalidCredentials);
    // `FileWithHostAndWindowsDrive` comes where the path's first segment (the drive
    // letter) ends, as the `url` crate finds it.
    let mut drive_at = drive_after_host.then(|| {
        let after_host = spans.as_ref().map_or(lead, |(_, h)| h.end);
        (after_host + 1..trail)
            .find(|&k| matches!(bytes[k], b'/' | b'\\' | b'?' | b'#'))
            .unwrap_or(trail)
    });
    for (index, e) in errors.iter().enumerate() {
        let at = e.offset();
        if drive_at.is_some_and(|d| at >= d) {
            drive_at = None;
            report(SyntaxViolation::FileWithHostAndWindowsDrive);
        }
        let byte = bytes.get(at).copied();
        let in_authority = spans
            .as_ref()
            .is_some_and(|(u, h)| u.contains(&at) || h.contains(&at));
        let input_level = at < lead || at >= trail || matches!(byte, Some(b'\t' | b'\n' | b'\r'));
        if no_scheme && !(e.kind() == ValidationErrorKind::InvalidUrlUnit && input_level) {
            continue;
        }
        if e.kind() == ValidationErrorKind::InvalidUrlUnit && in_authority && !input_level {
            continue;
        }
        if Some(index) == last_at {
            report(if at_seen {
                SyntaxViolation::UnencodedAtSign
            } else {
                SyntaxViolation::EmbeddedCredentials
            });
            if let Some((userinfo, _)) = &spans {
                userinfo_violations(&input[userinfo.clone()], report);
            }
            continue;
        }
        let violation = match e.kind() {
            ValidationErrorKind::InvalidReverseSolidus => SyntaxViolation::Backslash,
            ValidationErrorKind::InvalidCredentials => {
                let v = if at_seen {
                    SyntaxViolation::UnencodedAtSign
                } else {
                    SyntaxViolation::EmbeddedCredentials
                };
                at_seen = true;
                v
            }
            ValidationErrorKind::SpecialSchemeMissingFollowingSolidus => {
                if slashes_seen {
                    continue;
                }
                slashes_seen = true;
                if scheme_of(input).is_some_and(|s| s.file) {
                    SyntaxViolation::ExpectedFileDoubleSlash
                } else {
                    SyntaxViolation::ExpectedDoubleSlash
                }
            }
            ValidationErrorKind::FileInvalidWindowsDriveLetterHost => {
                SyntaxViolation::FileWithHostAndWindowsDrive
            }
            ValidationErrorKind::InvalidUrlUnit => {
                if at < lead || at >= trail {
                    if trimmed_seen {
                        continue;
                    }
                    trimmed_seen = true;
                    SyntaxViolation::C0SpaceIgnored
                } else if matches!(byte, Some(b'\t' | b'\n' | b'\r')) {
                    if tab_seen {
                        continue;
                    }
                    tab_seen = true;
                    SyntaxViolation::TabOrNewlineIgnored
                } else if byte == Some(b'%') {
                    SyntaxViolation::PercentDecode
                } else if byte == Some(0) && hash.is_some_and(|h| h < at) {
                    SyntaxViolation::NullInFragment
                } else {
                    SyntaxViolation::NonUrlCodePoint
                }
            }
            _ => continue,
        };
        report(violation);
    }
    if drive_at.is_some() {
        report(SyntaxViolation::FileWithHostAndWindowsDrive);
    }
}
